"""Which format a file is in, from its content (the extension is only a hint).

Files are renamed, mailed as ``.txt``, gzipped, or saved as ``.xlf`` by one
tool and ``.xliff`` by another; what is inside does not lie. XML is told
apart by root element, version and namespaces (Trados, memoQ and Phrase mark
their XLIFF 1.2 dialects with their own namespace); gettext PO by its
``msgid``/``msgstr`` keywords; tables by their delimiter; JSON by its first
character; anything else is plain text (one segment per line).
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from tmtprime.errors import FormatError

from .sources import read_head, sniff_bom
from .xmlsafe import attributes, check_prolog, syntax_error, xml_encoding

SDL_NS = "http://sdl.com/FileTypes/SdlXliff/1.0"
MQ_NS = "MQXliff"
MEMSOURCE_NS = "http://www.memsource.com/mxlf/2.0"
XLIFF2_PREFIX = "urn:oasis:names:tc:xliff:document:2."

FORMATS = ("tmx", "xliff12", "sdlxliff", "mqxliff", "mxliff", "xliff2", "po", "csv", "tsv", "json", "jsonl", "text")
"""Every format name ``detect_format`` can return (and ``fmt=`` accepts)."""

ALIASES = {
    "xliff": "xliff12", "xlf": "xliff12", "xliff1": "xliff12", "xliff11": "xliff12", "xliff1.2": "xliff12",
    "txlf": "xliff12", "mxliff": "mxliff", "sdlxliff": "sdlxliff", "mqxliff": "mqxliff",
    "xliff20": "xliff2", "xliff21": "xliff2", "xliff2.0": "xliff2", "xliff2.1": "xliff2",
    "pot": "po", "txt": "text", "tab": "tsv", "ndjson": "jsonl",
}


def canonical(fmt: str) -> str:
    """The canonical name of a format given by a user (``xlf`` -> ``xliff12``)."""
    f = fmt.strip().lower().lstrip(".").replace("-", "").replace("_", "")
    f = ALIASES.get(f, f)
    if f not in FORMATS:
        raise FormatError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return f


@dataclass
class XmlRoot:
    """What the start of an XML document says about it."""

    name: str
    namespace: str | None
    attrib: dict[str, str] = field(default_factory=dict)
    nsmap: dict[str | None, str] = field(default_factory=dict)


def sniff_xml_root(head: bytes, file: str | None = None) -> XmlRoot | None:
    """The root element of an XML document from its first bytes; ``None`` if it is not XML.

    ``file`` names the document in the error raised for a root element lxml cannot read.
    """
    try:
        return _pull_root(head, file)
    except etree.XMLSyntaxError:
        return None


def xml_root(head: bytes, file: str, what: str) -> XmlRoot:
    """The root element of a file that must be XML (``what`` says why); else the parser's reason and line."""
    try:
        root = _pull_root(head, file)
    except etree.XMLSyntaxError as exc:
        raise syntax_error(file, exc) from None
    if root is None:
        raise FormatError(f"no XML element starts in the first {len(head) // 1024 or 1} KB, so not {what}",
                          file=file, location="line 1")
    return root


def _pull_root(head: bytes, file: str | None) -> XmlRoot | None:
    """The root element in ``head``, ``None`` when none starts there; a syntax error in ``head`` is raised."""
    parser = etree.XMLPullParser(
        events=("start",), resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    parser.feed(head)
    for _, el in parser.read_events():
        tag = el.tag
        ns, _, name = tag[1:].partition("}") if tag.startswith("{") else (None, "", tag)
        if any("{" in uri or "}" in uri for uri in el.nsmap.values() if uri):
            # lxml cannot name an attribute in such a namespace (a KeyError deep in any reader)
            raise FormatError(
                "a namespace URI of the root element contains '{' or '}', which XML tools cannot handle: "
                "check the xmlns declarations", file=file, location="line 1",
            )
        attrib = dict(attributes(el, file))
        return XmlRoot(name=name, namespace=ns or None, attrib=attrib, nsmap=dict(el.nsmap))
    return None


def xml_format(root: XmlRoot) -> str | None:
    """Format name of an XML root, ``None`` if it is no format we read."""
    if root.name == "tmx":
        return "tmx"
    if root.name != "xliff":
        return None
    version = root.attrib.get("version", "")
    if (root.namespace or "").startswith(XLIFF2_PREFIX) or version.startswith("2"):
        return "xliff2"
    uris = set(root.nsmap.values())
    if SDL_NS in uris:
        return "sdlxliff"
    if MQ_NS in uris:
        return "mqxliff"
    if MEMSOURCE_NS in uris:
        return "mxliff"
    return "xliff12"


def _refuse_plain_text(ext: str, path: Path) -> None:
    """A file whose extension names a structured format is not guessed into plain text (a broken PO, JSON...)."""
    if ext in _STRUCTURED:
        raise FormatError(f"the extension says {ext} but the content is no {_STRUCTURED[ext]}: give --format text "
                          "to read it as plain text, one segment per line", file=str(path), location="line 1")


def _check_bom(head: bytes, bom_enc: str, bom: int, file: str) -> None:
    """Refuse a byte-order mark that the bytes after it contradict.

    A UTF-16/32 mark before UTF-8 text (no NUL byte, valid UTF-8), a UTF-8
    mark before UTF-16 text, or a second mark of another encoding: decoding
    by the mark would turn the file into one line of garbage that imports as
    plain text. (A mark that only contradicts the XML declaration is not
    refused: the XML parser follows the mark, and so does everything here.)
    """
    body = head[bom : bom + 4096]
    second, _ = sniff_bom(body)
    if second and second != bom_enc:
        found = f"a second byte-order mark, of {second.upper()}"
    elif bom_enc.startswith("utf-16") or bom_enc.startswith("utf-32"):
        if b"\x00" in body or not _utf8_prefix(body):
            return
        found = "UTF-8 text"
    elif body.startswith((b"<\x00", b"\x00<")):
        found = "UTF-16 text"
    else:
        return
    raise FormatError(f"the byte-order mark says {bom_enc.upper()} but {found} follows it: save the file again "
                      "in one encoding (UTF-8 is safest)", file=file, location="byte 1")


def _check_declared_wide(head: bytes, enc: str, file: str) -> None:
    """Refuse an XML declaration that says UTF-16/32 over 8-bit bytes (a file re-saved, its declaration kept)."""
    if enc.lower().replace("_", "-").startswith(("utf-16", "utf-32")) and b"\x00" not in head[:256]:
        raise FormatError(f"the XML declaration says {enc} but the file is 8-bit text (UTF-8?): correct "
                          'encoding="..." in its first line (encoding="UTF-8"), or save the file as ' + enc,
                          file=file, location="line 1")


def _utf8_prefix(data: bytes) -> bool:
    """True when ``data`` is valid UTF-8 (a character cut at its end allowed)."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _looks_like_xml(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("<")


_XML_KINDS = ("tmx", "xlf", "xliff", "sdlxliff", "mqxliff", "mxliff", "txlf")
_STRUCTURED = {f".{e}": "XML document" for e in _XML_KINDS} | {
    ".json": "JSON", ".jsonl": "JSON lines", ".ndjson": "JSON lines", ".po": "gettext PO file",
    ".pot": "gettext PO file"}
"""Extensions whose content falls back to plain text only when asked: a broken file is refused, not guessed."""

_PO_RE = re.compile(r'^(msgctxt|msgid)\s+"', re.M)
_PO_STR_RE = re.compile(r'^msgstr(\[\d+\])?\s+"', re.M)


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of ``path`` (one of ``FORMATS``), read from its content; gzip is looked through."""
    p = Path(path)
    head = read_head(p)
    ext = p.suffix.lower()
    if ext == ".gz":
        ext = Path(p.stem).suffix.lower()
    if not head.strip(b" \t\r\n\x00\xef\xbb\xbf\xff\xfe"):
        raise FormatError("the file is empty", file=str(p))
    enc = xml_encoding(head)
    bom_enc, bom = sniff_bom(head)
    if bom_enc:
        _check_bom(head, bom_enc, bom, str(p))
    else:
        _check_declared_wide(head, enc, str(p))
    if head.startswith(b"PK\x03\x04"):
        raise FormatError("a ZIP container (.docx/.xlsx/.sdlppx/.mqxlz...): export or unpack the XLIFF, TMX, "
                          "PO or CSV inside it", file=str(p))
    if b"\x00" in head[:4096] and not bom and not enc.startswith(("utf-16", "utf-32")):
        raise FormatError("a NUL byte: a binary file, or text in two encodings (part UTF-16?); TMTprime reads "
                          "text formats: save the file again as UTF-8", file=str(p),
                          location=f"byte {head.index(0) + 1}")
    try:
        text = head[bom:].decode(enc, errors="replace")
    except LookupError:
        raise FormatError(f"unknown encoding {enc[:40]!r} in the XML declaration", file=str(p), location="line 1") from None
    root = None
    if _looks_like_xml(text):
        check_prolog(p)  # a hostile DTD gets its own clear error before any parsing
        if ext[1:] in _XML_KINDS:
            root = xml_root(head, str(p), f"the XML document its extension {ext} says")
        else:
            root = sniff_xml_root(head, str(p))
    if root is not None:
        fmt = xml_format(root)
        if fmt is None:
            raise FormatError(
                f"XML with root element <{root.name}> is not a format TMTprime reads "
                "(TMX <tmx>, XLIFF <xliff>)",
                file=str(p),
            )
        return fmt
    # not XML (or not well-formed: a table or text that starts with "<"): the content and extension decide
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:1] in "{[":
        first = stripped.splitlines()[0].strip() if stripped else ""
        if first.startswith("{") and (ext in (".jsonl", ".ndjson") or first.endswith("}") and "\n" in stripped.strip()):
            return "jsonl"
        return "json"
    if _PO_RE.search(text) and _PO_STR_RE.search(text):
        return "po"
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    if ext == ".csv":
        return "csv"
    if ext in (".tsv", ".tab"):
        return "tsv"
    _refuse_plain_text(ext, p)
    if lines and all("\t" in ln for ln in lines[: min(len(lines), 20)]) and len(lines) > 1:
        tabs = {ln.count("\t") for ln in lines[:20]}
        if len(tabs) == 1 or ext != ".txt":
            return "tsv"
    return "text"
