"""The house's settings name no door: each door reads its own section, none is privileged.

``Settings`` holds the house's fields (what every door shares) and the sections; a section's field
asked of the house is an error (it used to be handed to the first section, the XML door's), a field
that several sections declare cannot be given at the top, and every door's port is its own
section's key, with the defaults of before (13050, 7777, 13080, 52020; free ports for tests and
``swc serve --port 0``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from swc_local.server.cli import serve_settings
from swc_local.tools.cli import build_parser
from swc_local.server.config import Settings, load_settings
from swc_local.server.reversixt.settings import door_port
from swc_local.server.xml.settings import XmlDoorSettings, door_settings


def test_an_xml_field_asked_of_the_house_raises():
    settings = Settings(paused=True, max_depth=8)  # given at the top: the one section that has them
    assert settings.section("xml").paused is True and settings.section("xml").max_depth == 8
    for field in ("paused", "max_depth", "load_game_file", "port", "join_timeout"):
        with pytest.raises(AttributeError):
            getattr(settings, field)


def test_a_field_of_several_sections_is_given_in_its_own():
    with pytest.raises(ValidationError, match="port is a field of the sections xml, reversixt"):
        Settings(port=0)
    with pytest.raises(ValidationError, match="join_timeout is a field of the sections xml, reversixt"):
        Settings(join_timeout=False)
    settings = Settings(sections={"xml": {"port": 14000, "join_timeout": False}, "reversixt": {"join_timeout": 5.0}})
    assert door_settings(settings).port == 14000 and door_settings(settings).join_timeout is False
    assert settings.section("reversixt").join_timeout == 5.0 and door_port(settings) == 7777


def test_the_xml_door_builds_its_own_settings_from_its_section_and_the_houses_fields():
    settings = Settings(password="secret", seed=3, max_connections=9, sections={"xml": {"paused": True}})
    door = door_settings(settings)
    assert isinstance(door, XmlDoorSettings) and (door.port, door.password, door.seed, door.max_connections, door.paused) == (
        13050, "secret", 3, 9, True)
    assert door_settings(Settings(free_ports=True)).port == 0 and door_port(Settings(free_ports=True)) == 0


def test_every_doors_port_is_its_own_key_with_the_defaults_of_before(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    defaults = serve_settings(parser.parse_args(["serve"]))
    assert (door_settings(defaults).port, door_port(defaults), defaults.section("web").port,
            defaults.section("roborally").port) == (13050, 7777, 13080, 52020)
    free = serve_settings(parser.parse_args(["serve", "--port", "0"]))  # a test's server: no fixed port
    assert (door_settings(free).port, door_port(free), free.section("web").port) == (0, 0, 0)
    viewer_only = serve_settings(parser.parse_args(["serve", "--viewer-port", "0"]))  # the others keep theirs
    assert (door_settings(viewer_only).port, door_port(viewer_only), viewer_only.section("web").port) == (13050, 7777, 0)
    (tmp_path / "server.properties").write_text("port = 14000\nviewerPort = 14080\n")
    settings = load_settings(tmp_path / "server.properties")
    assert settings.section("xml").port == 14000 and settings.section("web").port == 14080
