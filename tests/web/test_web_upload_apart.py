"""An uploaded XML replay is read in a child process, never by the server's own interpreter
(issue 34: a 7.8 MB upload read in a thread stalled every game by up to 1.2 s; the measurement is
``python -m benchmarks.upload_stall``)."""

from __future__ import annotations

import gzip
import json

import trio

from swc_local.games import registry
from swc_local.server.xml.read_apart import is_xml

from tests.web.test_web_hardening import acall
from tests.web_helpers import OFFICIAL_PIRANHAS, REFERENCE_REVERSIXT, ROBORALLY_LOG_GZ, start_viewer_server


async def test_an_xml_upload_is_read_apart_from_the_servers_interpreter(nursery, monkeypatch):
    from swc_local.server.xml import records

    def not_here(*args, **kwargs):
        raise AssertionError("the XML replay was read in the server's process")

    monkeypatch.setattr(records, "read_xml_replay", not_here)  # the child process has its own
    server = await start_viewer_server(nursery)
    port = server.door("web").port
    data = OFFICIAL_PIRANHAS.read_bytes()
    with trio.fail_after(120):
        answers = [await acall(port, "POST", "/api/upload", body, headers={"X-File-Name": name})
                   for body, name in ((data, "a.xml"), (gzip.compress(data), "b.xml.gz"))]
        assert [status for status, _ in answers] == [200, 200]
        ids = [json.loads(body)["id"] for _, body in answers]
        records = [server.door("web").context.book.get(i) for i in ids]
        assert len(set(ids)) == 2 and None not in records
        assert records[0].plugin is registry.get("swc_2019_piranhas")  # the registry's own, not a pickled copy
        status, body = await acall(port, "GET", f"/api/games/{ids[0]}?steps=1")
        detail = json.loads(body)
        assert status == 200 and detail["count"] == len(detail["steps"]) > 2
        status, body = await acall(port, "POST", "/api/upload", b"<protocol><room", headers={"X-File-Name": "c.xml"})
        assert status == 400 and b"c.xml" in body  # the child's reason, named by the file


def test_only_xml_files_go_to_the_child():
    data = OFFICIAL_PIRANHAS.read_bytes()
    assert is_xml(data) and is_xml(gzip.compress(data)) and is_xml(b"\xef\xbb\xbf\n  <protocol>")
    assert not is_xml(REFERENCE_REVERSIXT.read_bytes()) and not is_xml(ROBORALLY_LOG_GZ.read_bytes())
    assert not is_xml(b"\x1f\x8bbroken")
