"""What every game's SVG view must satisfy, as small functions the per-game view tests share.

A view is checked the way the viewer uses it: the picture parses as XML, is one ``<svg>`` with a
viewBox, draws exactly the state's pieces (``class="piece ..."``), marks the last move at the
right cells (``class="last-from"``/``"last-to"`` with ``data-cell="x,y"``), shows untrusted names
only escaped, and gives the same bytes for the same state.
"""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from swc_local.protocol.element import parse

SVG_NS = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>"
DATA = Path(__file__).parent / "data"


def parse_svg(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG_NS}svg"
    view_box = root.get("viewBox", "").split()
    assert len(view_box) == 4 and float(view_box[2]) > 0 and float(view_box[3]) > 0
    assert root.get("width") is None and root.get("height") is None  # scales to its container
    assert not any(element.get("id") for element in root.iter())  # many boards may share a page
    return root


def classes(element: ET.Element) -> list[str]:
    return (element.get("class") or "").split()


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [element for element in root.iter() if name in classes(element)]


def cells(root: ET.Element, name: str) -> list[tuple[int, int]]:
    """The ``data-cell`` of every element of class ``name``, sorted."""
    return sorted(tuple(int(v) for v in e.get("data-cell").split(",")) for e in with_class(root, name))


def pieces(root: ET.Element, *kinds: str) -> list[ET.Element]:
    """Elements of class ``piece`` that also have every class in ``kinds``."""
    return [e for e in with_class(root, "piece") if all(k in classes(e) for k in kinds)]


def all_text(root: ET.Element) -> str:
    return " ".join("".join(e.itertext()) for e in root.iter(f"{SVG_NS}text"))


def assert_hostile_name_escaped(picture: str) -> None:
    """The name is shown (as text), but never as markup."""
    assert "<script" not in picture
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in picture
    assert HOSTILE in all_text(parse_svg(picture))


def capture_states(relative: str) -> list:
    """The memento ``<state>`` elements of a captured stream (``.gz`` too), in order."""
    raw = (DATA / relative).read_bytes()
    if relative.endswith(".gz"):
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8")
    blocks = re.findall(r'<data class="memento">\s*(<state\b.*?</state>)', text, re.S)
    return [parse(block) for block in blocks]
