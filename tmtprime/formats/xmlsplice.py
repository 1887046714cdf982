"""Editing an XML file in place: element spans over the original text, and splices.

Filling the targets of a CAT tool's file must leave every other byte as the
tool wrote it (quotes, character references, empty-tag style, whitespace
inside tags): a parse-and-serialise round trip through lxml changes all of
those. So the file is scanned once into a light tree of element *spans*
(offsets of each start and end tag, attributes, namespaces in scope) and a
writer replaces or inserts a few spans; the rest is copied verbatim.
The file was parsed by the (safe) reader at import; this scanner only needs to
be right on well-formed XML.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from tmtprime.errors import FormatError

from .inline import XML_NS, serialize
from .xmlsafe import xml_encoding

_TOKEN = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>"
    r"|<(/?)([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>",
    re.S,
)
_ATTR = re.compile(r"([^\s=/>]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_REF = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


def _unescape(s: str) -> str:
    def sub(m: re.Match[str]) -> str:
        r = m.group(1)
        if r[0] == "#":
            return chr(int(r[2:], 16) if r[1] in "xX" else int(r[1:]))
        return _NAMED[r]

    return _REF.sub(sub, s) if "&" in s else s


@dataclass(slots=True, eq=False)
class Node:
    """One element of the scanned file: names, attributes and where its tags are."""

    qname: str
    """The name as written (``sdl:seg``)."""
    ns: str | None
    local: str
    attrs: dict[str, str]
    """Attributes by Clark name (``{ns}local``; unprefixed ones by their plain name), unescaped."""
    nsmap: dict[str | None, str]
    start: int
    """Offset of the ``<`` of the start tag."""
    start_end: int
    """Offset just after the start tag (``== end`` for an empty ``<x/>``)."""
    end_start: int = 0
    """Offset of the end tag's ``</`` (``== start_end`` for an empty element)."""
    end: int = 0
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """Written as ``<x/>``."""
        return self.start_end == self.end

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def is_(self, ns: str | None, local: str) -> bool:
        return self.local == local and self.ns == ns

    def find(self, ns: str | None, local: str) -> Node | None:
        return next((c for c in self.children if c.is_(ns, local)), None)

    def findall(self, ns: str | None, local: str) -> list[Node]:
        return [c for c in self.children if c.is_(ns, local)]

    def iter(self, ns: str | None, local: str) -> Iterator[Node]:
        """Descendants (not ``self``) of that name, in document order."""
        for c in self.children:
            if c.is_(ns, local):
                yield c
            yield from c.iter(ns, local)

    def prefix_of(self, ns: str) -> str | None:
        """The prefix bound to ``ns`` here (``""`` when it is the default namespace), None if unbound."""
        for p, uri in self.nsmap.items():
            if uri == ns:
                return p or ""
        return None


def _split(qname: str, nsmap: dict[str | None, str], attribute: bool) -> tuple[str | None, str]:
    prefix, _, local = qname.rpartition(":")
    if not prefix:
        return (None if attribute else nsmap.get(None)), qname
    if prefix == "xml":
        return XML_NS, local
    return nsmap.get(prefix), local


def scan(text: str, *, file: str = "") -> Node:
    """The element tree of ``text`` (spans only; text nodes are not kept)."""
    root: Node | None = None
    stack: list[Node] = []
    for m in _TOKEN.finditer(text):
        name = m.group(2)
        if name is None:
            continue
        if m.group(1):
            if not stack or stack[-1].qname != name:
                raise FormatError(f"unbalanced end tag </{name}> at offset {m.start()}", file=file)
            node = stack.pop()
            node.end_start, node.end = m.start(), m.end()
            continue
        raw = [(k, _unescape(v if v is not None else w)) for k, v, w in _ATTR.findall(m.group(3) or "")]
        nsmap = dict(stack[-1].nsmap) if stack else {}
        for k, v in raw:
            if k == "xmlns":
                nsmap[None] = v
            elif k.startswith("xmlns:"):
                nsmap[k[6:]] = v
        attrs = {}
        for k, v in raw:
            if k != "xmlns" and not k.startswith("xmlns:"):
                ans, local = _split(k, nsmap, attribute=True)
                attrs[f"{{{ans}}}{local}" if ans else local] = v
        ns, local = _split(name, nsmap, attribute=False)
        node = Node(name, ns, local, attrs, nsmap, m.start(), m.end(), parent=stack[-1] if stack else None)
        if stack:
            stack[-1].children.append(node)
        elif root is None:
            root = node
        if m.group(4):
            node.end_start = node.end = m.end()
        else:
            stack.append(node)
    if root is None or stack:
        raise FormatError("not a complete XML document", file=file)
    return root


@dataclass(slots=True)
class XmlText:
    """A decoded XML file and how to encode it back the same way."""

    text: str
    encoding: str

    @classmethod
    def decode(cls, data: bytes, *, file: str = "") -> XmlText:
        """Decode with the BOM's or the declaration's encoding; a BOM stays a character (re-encoded as it was)."""
        enc = xml_encoding(data[:4096])
        if enc.lower().replace("_", "-") in ("utf-8-sig", "utf8"):
            enc = "utf-8"
        try:
            return cls(data.decode(enc), enc)
        except (UnicodeDecodeError, LookupError) as exc:
            raise FormatError(f"cannot decode the stored file as {enc}: {exc}", file=file) from None

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding, errors="xmlcharrefreplace")


class Splice:
    """Replacements of spans of a text, applied in one pass (they must not overlap)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._edits: list[tuple[int, int, str]] = []

    def replace(self, start: int, end: int, new: str) -> None:
        self._edits.append((start, end, new))

    def insert(self, at: int, new: str) -> None:
        self._edits.append((at, at, new))

    def result(self) -> str:
        out: list[str] = []
        pos = 0
        for start, end, new in sorted(self._edits, key=lambda e: (e[0], e[1])):
            if start < pos:
                raise AssertionError("overlapping splices")
            out.append(self.text[pos:start])
            out.append(new)
            pos = end
        out.append(self.text[pos:])
        return "".join(out)


def start_tag(text: str, node: Node, changes: dict[str, str | None], *, open_: bool = False) -> str:
    """The start tag of ``node`` as written, with attributes (qnames as written) set or (None) removed.

    Untouched attributes keep their exact spelling; new ones go at the end.
    ``open_`` turns an empty ``<x/>`` into ``<x>``.
    """
    tag = text[node.start:node.start_end]
    for name, value in changes.items():
        pat = re.compile(r"(\s+)" + re.escape(name) + r"\s*=\s*(\"[^\"]*\"|'[^']*')")
        if value is None:
            tag = pat.sub("", tag, count=1)
        elif pat.search(tag):
            tag = pat.sub(lambda m, v=value: f"{m.group(1)}{name}={quoteattr(v)}", tag, count=1)
        else:
            close = len(tag) - (2 if tag.endswith("/>") else 1)
            while close > 0 and tag[close - 1].isspace():
                close -= 1
            tag = f"{tag[:close]} {name}={quoteattr(value)}{tag[close:]}"
    if open_ and tag.endswith("/>"):
        tag = tag[:-2].rstrip() + ">"
    return tag


def inner_xml(el: etree._Element, ns: str | None) -> str:
    """The content of ``el`` as XML text, names in ``ns`` unprefixed (inline codes as written)."""
    parts = [escape(el.text or "")]
    for child in el:
        parts.append(serialize(child, ns))
        parts.append(escape(child.tail or ""))
    return "".join(parts)


def element_text(text: str, node: Node) -> str:
    """The XML between the start and end tags of ``node``."""
    return text[node.start_end:node.end_start]
