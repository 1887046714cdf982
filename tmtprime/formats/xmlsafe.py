"""Safe, streaming XML parsing for files from strangers.

Three layers keep a hostile file harmless:
1. before parsing, the prolog is scanned and any ``<!ENTITY`` declaration is
   refused (billion laughs, external entities / XXE, parameter entities);
2. the parser itself never loads a DTD, never touches the network, never
   substitutes entities and keeps libxml2's size limits (``huge_tree=False``);
3. an entity reference that still reaches a text element is an error
   (``TagTable.text``).
Real CAT-tool files never declare entities, so nothing legitimate is refused.

Parsing is streaming (``lxml.etree.iterparse``): readers clear each unit once
processed, so memory stays flat whatever the file size.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import BinaryIO

from lxml import etree

from tmtprime.errors import FormatError

from .sources import open_binary, read_head, refuse_utf8_under_legacy, sniff_bom

_DECL_ENC_RE = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_ROOT_START_RE = re.compile(r"<[A-Za-z_:]")


def xml_encoding(head: bytes) -> str:
    """The encoding of an XML document from its BOM or declaration (UTF-8 by default)."""
    enc, _ = sniff_bom(head)
    if enc:
        return enc
    if head.startswith(b"\x00<"):
        return "utf-16-be"
    if head.startswith(b"<\x00"):
        return "utf-16-le"
    m = _DECL_ENC_RE.match(head.lstrip())
    return m.group(1).decode("ascii") if m else "utf-8"


def prolog(path: str | os.PathLike[str], chunk: int = 65536) -> str:
    """The decoded text of the file up to (and a little past) the start of the root element.

    Each read doubles in size: the whole text so far is searched again after
    every read, so fixed-size reads made a multi-megabyte prolog quadratic
    (fuzz seed 3101, tmx input 55: a 4.4 MB declaration, 5.6 s of CPU).
    """
    with open_binary(path) as f:
        data = b""
        text = ""
        while True:
            try:
                more = f.read(chunk)
                chunk *= 2
            except (OSError, EOFError) as exc:
                raise FormatError(f"cannot read: {exc}", file=str(path)) from None
            data += more
            encoding = xml_encoding(data)
            try:
                text = data.decode(encoding, errors="replace")
            except LookupError:
                raise FormatError(f"unknown encoding {encoding[:40]!r} in the XML declaration", file=str(path),
                                  location="line 1") from None
            body = re.sub(r"<!--.*?-->", "", text, flags=re.S)
            if not more or _ROOT_START_RE.search(body):
                return text


def check_prolog(path: str | os.PathLike[str]) -> None:
    """Refuse documents that declare entities (see module docstring)."""
    text = prolog(path)
    if "<!ENTITY" in text:
        m = re.search(r"<!ENTITY", text)
        line = text.count("\n", 0, m.start() if m else 0) + 1
        raise FormatError(
            "the document declares XML entities in its DTD; TMTprime refuses them "
            "(they can expand without limit or read local files) — no CAT tool writes them",
            file=str(path),
            location=f"line {line}",
        )


def _parser_kwargs() -> dict[str, object]:
    return dict(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
        recover=False,
    )


def iterparse(
    path: str | os.PathLike[str],
    events: tuple[str, ...] = ("start", "end"),
    tag: str | tuple[str, ...] | None = None,
) -> Iterator[tuple[str, etree._Element]]:
    """Stream ``(event, element)`` from ``path`` safely; syntax errors become ``FormatError`` with the line."""
    check_prolog(path)
    refuse_utf8_under_legacy(path, xml_encoding(read_head(path, 1024)), "the XML declaration")
    stream: BinaryIO = open_binary(path)
    try:
        events_iter = etree.iterparse(stream, events=events, tag=tag, **_parser_kwargs())
        first = True
        try:
            for ev, el in events_iter:  # one try around the loop: no per-event wrapper cost
                if first:
                    first = False
                    _refuse_entities(path, el)
                yield ev, el
        except etree.XMLSyntaxError as exc:
            raise syntax_error(path, exc) from None
        except (OSError, EOFError) as exc:  # corrupt gzip
            raise FormatError(f"cannot read: {exc}", file=str(path)) from None
    finally:
        stream.close()


def _refuse_entities(path: str | os.PathLike[str], el: etree._Element) -> None:
    dtd = el.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise FormatError("the document declares XML entities in its DTD; TMTprime refuses them", file=str(path))


def syntax_error(path: str | os.PathLike[str], exc: etree.XMLSyntaxError) -> FormatError:
    """One line for a parser error: what libxml2 found, where, and what to do (its jargon replaced)."""
    msg = str(exc.msg or exc).strip()
    msg = re.sub(r",\s*line \d+, column \d+$", "", msg)
    where = f"line {exc.lineno}" if exc.lineno else None
    if "Document is empty" in msg or "Start tag expected" in msg:
        msg = "not an XML document (or empty)"
    elif "Premature end of data" in msg or "EndTag" in msg or "expected '>'" in msg or "Extra content" in msg:
        msg = f"the XML is broken or truncated ({msg})"
    elif "Excessive depth" in msg:
        msg = "elements nested more than 256 deep: the file is damaged (no CAT tool nests markup so deep)"
    elif "Unsupported encoding" in msg:
        msg = (f"the XML declaration names an encoding no XML parser here reads ({msg.partition(':')[2].strip()}): "
               "save the file as UTF-8")
    elif any(phrase in msg for phrase in ("character encoding", "not proper UTF", "labelled", "switch encoding")):
        msg = ("bytes that are not in the encoding the XML declaration names (UTF-8 when it names none): save the "
               "file again as UTF-8, or correct encoding=\"...\" in its first line")
    else:
        msg = f"malformed XML: {msg}"
    return FormatError(msg, file=str(path), location=where)


def release(el: etree._Element) -> None:
    """Free a processed element; every 256 siblings, drop the emptied ones before it (flat memory).

    Deleting in batches keeps the per-unit cost low (one slice delete instead of
    a ``getprevious()`` walk per unit) while memory stays bounded.
    """
    el.clear(keep_tail=False)
    parent = el.getparent()
    if parent is not None and len(parent) > 256:
        del parent[: parent.index(el)]


def where(el: etree._Element, what: str | None = None) -> str:
    """``line N`` (and the unit name) of an element, for error messages."""
    line = f"line {el.sourceline}" if el.sourceline else ""
    return ", ".join(p for p in (line, what) if p)


def unit_outside_file(el: etree._Element, unit: str, container: str, file: str) -> FormatError:
    """The error for a unit that no recognised ``<file>`` holds (a renamed or wrongly prefixed one).

    Readers take a document's languages and keys from its ``<file>``; a unit
    read without one would either crash the reader or be filed under nothing.
    The message names the element found instead, with invisible characters
    (a byte-order mark inside a tag name) spelled out.
    """
    parent = el.getparent()
    holder = ""
    while parent is not None and parent.getparent() is not None:
        holder = parent.tag
        parent = parent.getparent()
    found = f" (it is inside <{visible(holder.rpartition('}')[2])}>)" if holder else ""
    return FormatError(
        f"<{unit}> outside {container} element{found}: check that element's name and namespace prefix",
        file=file, location=where(el),
    )


MAX_ATTRIBUTES = 1000
"""More attributes than this on one element is damage: CAT tools write a dozen or two."""


def attributes(el: etree._Element, file: str | None) -> list[tuple[str, str]]:
    """``el.items()``, refused past ``MAX_ATTRIBUTES`` (see ``check_attributes``)."""
    check_attributes(el, file)
    return el.items()


def check_attributes(el: etree._Element, file: str | None) -> None:
    """Refuse an element with more than ``MAX_ATTRIBUTES`` attributes.

    lxml reads each attribute value by a scan of the element's list, so
    ``items()`` is quadratic in their number (20,000 attributes: 1.2 s of CPU,
    200,000 in a 2.5 MB file: minutes); counting the names is linear.
    """
    count = len(el.keys())
    if count > MAX_ATTRIBUTES:
        name = el.tag.rpartition("}")[2] if isinstance(el.tag, str) else "?"
        raise FormatError(f"<{visible(name)}> has {count:,} attributes (more than {MAX_ATTRIBUTES:,}): the file is "
                          "damaged; export it again from the CAT tool", file=file, location=where(el))


def visible(text: str) -> str:
    """``text`` with invisible and control characters as ``\\uXXXX`` (for names quoted in messages)."""
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)
