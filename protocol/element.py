"""A tiny ordered XML element, and the XStream pretty-printer the official servers used.

Why not ``xml.etree`` or an xmltodict dict: the official server's byte format is XStream's
``PrettyPrintWriter`` (newline and indent *before* every start tag, ``/>`` without a space,
``&apos;`` and ``&#xa;`` escapes), which no stock serializer produces; and on the reading side a
game may depend on the document order of sibling elements with different names (Hase und Igel
sorts actions by ``order`` with a *stable* sort, so ties keep document order), which an
xmltodict dict loses.  ``Element`` keeps order, is cheap to build, and renders byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Element", "end_tag", "escape_attribute", "escape_text", "render", "start_tag"]

_ATTRIBUTE_ESCAPES = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        '"': "&quot;",
        "'": "&apos;",
        "\n": "&#xa;",
        "\r": "&#xd;",
        "\t": "&#x9;",
    }
)
_TEXT_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#xd;"}
)


def escape_attribute(value: str) -> str:
    """Escape an attribute value as XStream's PrettyPrintWriter does (spec §1)."""
    return value.translate(_ATTRIBUTE_ESCAPES)


def escape_text(value: str) -> str:
    """Escape text content: newline and TAB stay literal (spec §1)."""
    return value.translate(_TEXT_ESCAPES)


@dataclass(slots=True)
class Element:
    """One XML element: a tag, attributes in document order, child elements, and text.

    Mixed content (text *and* children) never occurs in this protocol; when both are set the
    children win on output and the text is kept only for reading.
    """

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Element] = field(default_factory=list)
    text: str = ""
    _cache: dict[int, str] | None = field(default=None, compare=False, repr=False)

    def freeze(self) -> Element:
        """Promise that this element (and its subtree) will not change again.

        A frozen element renders once per depth and reuses the text after that, which is what
        makes a memento cheap: a board is mostly fields and columns that did not change since
        the last move.
        """
        if self._cache is None:
            self._cache = {}
        return self

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def find(self, tag: str) -> Element | None:
        """The first child called ``tag``."""
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def findall(self, tag: str) -> list[Element]:
        return [child for child in self.children if child.tag == tag]

    def to_dict(self) -> dict:
        """This element as an xmltodict dict (``@attr`` keys, repeated children as lists).

        A convenience for bot authors who prefer dicts to walking elements; the server never
        uses it, because a dict loses the document order of differently named siblings.
        """
        import xmltodict

        return xmltodict.parse(self.render(0), disable_entities=True)

    def render(self, depth: int = 0) -> str:
        """This element as XStream writes it at nesting ``depth`` (2 spaces per level).

        The result starts with the newline and indent that precede the start tag, except at
        depth 0, where XStream writes nothing before the root.
        """
        parts: list[str] = []
        _render_into(self, depth, parts)
        return "".join(parts)


def render(element: Element, depth: int = 0) -> str:
    return element.render(depth)


def start_tag(tag: str, attrs: dict[str, str], depth: int) -> str:
    """What ``Element(tag, attrs, children).render(depth)`` starts with, when it has children:
    for a renderer that writes the children's text itself (the memento of every move)."""
    text = "".join([f' {name}="{value.translate(_ATTRIBUTE_ESCAPES)}"' for name, value in attrs.items()])
    return ("\n" + "  " * depth if depth else "") + "<" + tag + text + ">"


def end_tag(tag: str, depth: int) -> str:
    """What such an element ends with."""
    return "\n" + "  " * depth + "</" + tag + ">"


def _render_into(element: Element, depth: int, out: list[str]) -> None:
    cache = element._cache
    if cache is not None:
        text = cache.get(depth)
        if text is None:
            parts: list[str] = []
            _render_uncached(element, depth, parts)
            text = cache[depth] = "".join(parts)
        out.append(text)
        return
    _render_uncached(element, depth, out)


def _render_uncached(element: Element, depth: int, out: list[str]) -> None:
    if depth:
        out.append("\n" + "  " * depth)
    out.append("<" + element.tag)
    for name, value in element.attrs.items():
        out.append(f' {name}="{value.translate(_ATTRIBUTE_ESCAPES)}"')
    if element.children:
        out.append(">")
        for child in element.children:
            _render_into(child, depth + 1, out)
        out.append("\n" + "  " * depth + "</" + element.tag + ">")
    elif element.text:
        out.append(">" + element.text.translate(_TEXT_ESCAPES) + "</" + element.tag + ">")
    else:
        out.append("/>")


class ElementBuilder:
    """Builds Elements from expat events; shared by :func:`parse` and the stream reader."""

    __slots__ = ("stack", "completed")

    def __init__(self) -> None:
        self.stack: list[Element] = []
        self.completed: Element | None = None

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        element = Element(tag, attrs)
        if self.stack:
            self.stack[-1].children.append(element)
        self.stack.append(element)

    def end(self, tag: str) -> None:
        element = self.stack.pop()
        if element.text and element.text.isspace():
            element.text = ""  # indentation between children is not content
        if not self.stack:
            self.completed = element

    def text(self, data: str) -> None:
        if self.stack:
            self.stack[-1].text += data


def parse(document: str | bytes) -> Element:
    """Parse one complete XML document into an Element (no DTDs, no entities).

    Whitespace-only text (indentation) is dropped.
    """
    from xml.parsers import expat

    builder = ElementBuilder()
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.text

    def refuse(*_args: object) -> None:
        raise ValueError("DTDs and entity declarations are not accepted")

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.Parse(document, True)
    if builder.completed is None:
        raise ValueError("no root element")
    return builder.completed
