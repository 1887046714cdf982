"""gettext PO: the catalogues software localisation lives in.

One segment per message (per plural form: ``key[n]``; form 0's source is
``msgid``, the others' ``msgid_plural``). ``msgctxt`` is the context and part
of the key (``ctxt|msgid``). Translator (``#``) and extracted (``#.``) comments
become notes; references (``#:``) and flags (``#,``) attributes.

Reference: the ``msgstr`` of a translated entry that is not ``fuzzy``. A fuzzy
entry's ``msgstr`` was proposed by ``msgmerge``'s fuzzy matching against the
old catalogue, i.e. a TM match: it becomes a TM candidate (system ``po-fuzzy``)
whose TM source is the previous ``#| msgid`` when the file keeps it.
Obsolete entries (``#~``) and the header are skipped; the header's
``Language`` is checked against the requested target language and its
``charset`` decides the encoding (a BOM wins).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tmtprime.errors import FormatError

from .base import ReadOptions, check_lang, primed
from .model import Candidate, DocumentInfo, Segment
from .sources import iter_text_lines, read_head, refuse_utf8_under_legacy

REFERENCE = "msgstr of translated, non-fuzzy entries; fuzzy msgstr becomes a TM candidate"

_CHARSET_RE = re.compile(rb"charset=([A-Za-z0-9_.:-]+)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_ESC_RE = re.compile(r'\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)')
_KEYWORD_RE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')


def _unescape(s: str) -> str:
    """C escapes as gettext reads them; ``ValueError`` names one it cannot (``\\x`` without a hex digit)."""

    def sub(m: re.Match[str]) -> str:
        e = m.group(1)
        if e in _ESCAPES:
            return _ESCAPES[e]
        if e[0] == "x":
            if len(e) == 1:
                raise ValueError("\\x must be followed by a hexadecimal digit (write \\\\x for a backslash and x)")
            return chr(int(e[1:], 16))
        if e[0].isdigit():
            return chr(int(e, 8))
        return e

    return _ESC_RE.sub(sub, s) if "\\" in s else s


@dataclass
class _Entry:
    line: int = 0
    msgctxt: str | None = None
    msgid: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    extracted: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    previous_msgid: str | None = None
    obsolete: bool = False

    def empty(self) -> bool:
        return self.msgid is None and not self.comments and not self.flags and not self.obsolete


def _string(rest: str, file: str, n: int) -> str:
    rest = rest.strip()
    if len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise FormatError(f"expected a quoted string, got {rest[:40]!r}", file=file, location=f"line {n}")
    try:
        return _unescape(rest[1:-1])
    except ValueError as exc:
        raise FormatError(f"bad escape in {rest[:40]!r}: {exc}", file=file, location=f"line {n}") from None


def _entries(lines: Iterator[tuple[int, str]], file: str) -> Iterator[_Entry]:
    """Parse PO entries. Obsolete lines (``#~``) are parsed like live ones and mark their entry."""
    e = _Entry()
    target: tuple[str, int] | None = None  # the field that a continuation string extends
    prev_field: str | None = None
    for n, raw in lines:
        line = raw.strip()
        if n == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if not line or line.startswith("|"):
                continue
        elif line.startswith("#"):
            if e.msgid is not None:
                yield e
                e = _Entry()
                target = None
            kind, text = line[:2], line[2:].strip()
            if kind == "#,":
                e.flags += [f.strip() for f in text.split(",") if f.strip()]
            elif kind == "#:":
                e.references.append(text)
            elif kind == "#.":
                e.extracted.append(text)
            elif kind == "#|":
                m = _KEYWORD_RE.match(text)
                if m and m.group(1) == "msgid":
                    e.previous_msgid = _string(m.group(3), file, n)
                prev_field = m.group(1) if m else prev_field
                if not m and text.startswith('"') and prev_field == "msgid" and e.previous_msgid is not None:
                    e.previous_msgid += _string(text, file, n)
            else:
                e.comments.append(line[1:].strip())
            continue
        if line.startswith('"'):
            if target is None:
                raise FormatError("a string continuation without a keyword before it", file=file,
                                  location=f"line {n}")
            s = _string(line, file, n)
            name, idx = target
            if name == "msgstr":
                e.msgstr[idx] += s
            else:
                setattr(e, name, getattr(e, name) + s)
            continue
        m = _KEYWORD_RE.match(line)
        if m is None:
            raise FormatError(f"not PO syntax: {line[:60]!r}", file=file, location=f"line {n}")
        keyword, idx, rest = m.group(1), m.group(2), m.group(3)
        starts_entry = keyword == "msgctxt" or (keyword == "msgid" and (e.msgid is not None or e.msgstr))
        if starts_entry and (e.msgid is not None or e.obsolete != obsolete and e.msgctxt is not None):
            yield e
            e = _Entry()
        e.obsolete = e.obsolete or obsolete
        e.line = e.line or n
        s = _string(rest, file, n)
        if keyword.startswith("msgstr"):
            if e.msgid is None:
                raise FormatError("msgstr without msgid", file=file, location=f"line {n}")
            i = int(idx) if idx is not None else 0
            e.msgstr[i] = s
            target = ("msgstr", i)
        else:
            setattr(e, keyword, s)
            target = (keyword, 0)
    if e.msgid is not None:
        yield e


def _header_fields(msgstr: str) -> dict[str, str]:
    out = {}
    for line in msgstr.split("\n"):
        k, sep, v = line.partition(":")
        if sep and k.strip():
            out[k.strip()] = v.strip()
    return out


def _nplurals(header: dict[str, str]) -> int:
    m = re.search(r"nplurals\s*=\s*(\d+)", header.get("Plural-Forms", ""))
    return int(m.group(1)) if m else 2


def read_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    head = read_head(opts.path, 8192)
    m = _CHARSET_RE.search(head)
    charset = m.group(1).decode("ascii") if m and m.group(1).upper() != b"CHARSET" else None
    try:
        encoding, lines = iter_text_lines(opts.path, charset)
    except FormatError:
        encoding, lines = iter_text_lines(opts.path)
    if charset and encoding == charset:  # the header's charset decides (no byte-order mark overrides it)
        refuse_utf8_under_legacy(opts.path, charset, "the PO header's charset")
    info = DocumentInfo(path=opts.name, format="po", source_lang=opts.source_lang,
                        target_lang=opts.target_lang, encoding=encoding)
    return info, primed(_segments(opts, info, _entries(lines, opts.name)))


def _segments(opts: ReadOptions, info: DocumentInfo, entries: Iterator[_Entry]) -> Iterator[Segment | None]:
    nplurals = 2
    first = True
    for e in entries:
        if first:
            first = False
            if e.msgid == "" and not e.msgctxt and not e.obsolete:
                header = _header_fields(e.msgstr.get(0, ""))
                info.properties.update(header)
                nplurals = _nplurals(header)
                lang = header.get("Language") or None
                check_lang("the catalogue's", opts.target_lang, lang, file=opts.name, location=f"line {e.line}")
                info.target_lang = opts.target_lang or lang
                info.tool = header.get("X-Generator") or None
                yield None
                continue
            yield None
        if e.obsolete:
            info.skip("obsolete PO entry", f"line {e.line}")
            continue
        if e.msgid is None:
            continue
        if e.msgid == "":
            info.skip("entry with an empty msgid", f"line {e.line}")
            continue
        yield from _entry_segments(e, nplurals, opts.name)
    if first:
        yield None


def _entry_segments(e: _Entry, nplurals: int, file: str) -> Iterator[Segment]:
    assert e.msgid is not None
    fuzzy = "fuzzy" in e.flags
    base_key = f"{e.msgctxt}|{e.msgid}" if e.msgctxt is not None else e.msgid
    attrs: dict[str, str] = {}
    if e.references:
        attrs["references"] = " ".join(e.references)
    other_flags = [f for f in e.flags if f != "fuzzy"]
    if other_flags:
        attrs["flags"] = ", ".join(other_flags)
    notes = e.comments + e.extracted
    if e.msgid_plural is None:
        forms = [(base_key, e.msgid, e.msgstr.get(0, ""))]
    else:
        n = max(nplurals, len(e.msgstr))
        forms = [(f"{base_key}[{i}]", e.msgid if i == 0 else e.msgid_plural, e.msgstr.get(i, "")) for i in range(n)]
    for key, source, target in forms:
        seg = Segment(key=key, source=source, context=e.msgctxt or None, notes=list(notes),
                      location=f"line {e.line}", attributes=dict(attrs))
        if target and not fuzzy:
            seg.reference = target
        elif target:
            seg.candidates.append(Candidate(system="po-fuzzy", kind="tm", text=target, tm_source=e.previous_msgid,
                                            origin="gettext fuzzy"))
        yield seg
