"""Filling the ``msgstr`` of a gettext catalogue in place.

Entries are keyed as :mod:`tmtprime.formats.po` keys them (``ctxt|msgid``,
``[n]`` per plural form). A filled entry gets its ``msgstr`` lines rewritten
and its ``fuzzy`` flag set or cleared (see
:func:`tmtprime.formats.po_writer.needs_review`); clearing it also drops the
stale ``#|`` previous-msgid lines, as ``msgattrib --clear-fuzzy
--clear-previous`` would. Every other line (comments, references, other
flags, ``msgctxt``/``msgid``, obsolete entries, the header) is copied byte for
byte, in the catalogue's charset and line endings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from tmtprime.errors import FormatError

from ..model import Segment
from ..po_writer import needs_review, string_lines
from . import FillOptions, FillReport

_CHARSET = re.compile(rb"charset=([A-Za-z0-9_.:-]+)")
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+"')
_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")


def _value(lines: list[str]) -> str:
    """The string of a keyword line and its continuation lines."""
    from ..po import _string  # the reader's unescaping

    first = lines[0]
    out = [_string(first[first.index('"'):], "", 0)]
    out += [_string(line.strip(), "", 0) for line in lines[1:]]
    return "".join(out)


@dataclass
class _Entry:
    start: int  # first line index
    end: int = 0  # one past the last line
    fields: dict[str, list[int]] = field(default_factory=dict)  # keyword -> its line indexes
    order: list[str] = field(default_factory=list)
    flags: int | None = None
    previous: list[int] = field(default_factory=list)
    obsolete: bool = False


def _entries(lines: list[str], file: str) -> list[_Entry]:
    """Group the catalogue's lines into entries (blank lines and stray comments belong to none)."""
    entries: list[_Entry] = []
    cur: _Entry | None = None
    last: str | None = None  # keyword that continuation lines extend
    seen_keyword = False
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            if cur is not None and seen_keyword:
                entries.append(cur)
                cur, last, seen_keyword = None, None, False
            continue
        obsolete = line.startswith("#~")
        is_comment = line.startswith("#") and not obsolete
        m = _KEYWORD.match(line[2:].strip() if obsolete else line)
        starts = (is_comment or (m is not None and m.group(1) in ("msgctxt", "msgid") and
                                 (last or "").startswith("msgstr")))
        if cur is not None and seen_keyword and starts:
            entries.append(cur)
            cur, last, seen_keyword = None, None, False
        if cur is None:
            cur = _Entry(start=i)
        cur.end = i + 1
        cur.obsolete = cur.obsolete or obsolete
        if is_comment:
            if line.startswith("#,"):
                cur.flags = i
            elif line.startswith("#|"):
                cur.previous.append(i)
            continue
        if m is not None:
            last = m.group(1)
            seen_keyword = True
            cur.fields[last] = [i]
            cur.order.append(last)
        elif line.startswith('"') and last is not None:
            cur.fields[last].append(i)
        elif not obsolete:
            raise FormatError(f"not PO syntax: {line[:60]!r}", file=file, location=f"line {i + 1}")
    if cur is not None and seen_keyword:
        entries.append(cur)
    return entries


def fill(fmt: str, data: bytes, segments: Mapping[str, Segment], options: FillOptions, report: FillReport,
         file: str) -> bytes:
    m = _CHARSET.search(data[:8192])
    charset = m.group(1).decode("ascii") if m and m.group(1).upper() != b"CHARSET" else "utf-8"
    try:
        text = data.decode(charset)
    except (UnicodeDecodeError, LookupError) as exc:
        raise FormatError(f"cannot decode the stored catalogue as {charset}: {exc}", file=file) from None
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    entries = _entries(lines, file)
    nplurals = 2
    replace: dict[int, str] = {}  # line index -> new text ("" removes it)
    insert: dict[int, str] = {}  # line index -> text to put before it
    done: set[str] = set()
    for e in entries:
        if e.obsolete or "msgid" not in e.fields:
            continue
        msgid = _value([lines[i] for i in e.fields["msgid"]])
        if msgid == "" and "msgctxt" not in e.fields:
            found = _NPLURALS.search(_value([lines[i] for i in e.fields.get("msgstr", [e.fields["msgid"][0]])]))
            nplurals = int(found.group(1)) if found else nplurals
            continue
        base = msgid
        if "msgctxt" in e.fields:
            base = f"{_value([lines[i] for i in e.fields['msgctxt']])}|{msgid}"
        forms = _forms(e, lines, msgid, base, nplurals)
        fills = {k: segments[k] for k, *_ in forms if k in segments}
        if not fills:
            continue
        fuzzy = _flag_fuzzy(lines, e)
        new_lines, any_fuzzy = _msgstr_lines(forms, fills, options, report, newline)
        done.update(fills)
        msgstr_idx = sorted(i for k, v in e.fields.items() if k.startswith("msgstr") for i in v)
        for i in msgstr_idx:
            replace[i] = ""
        if msgstr_idx:
            replace[msgstr_idx[0]] = new_lines
        else:
            insert[e.end] = new_lines
        _set_fuzzy(lines, e, any_fuzzy, fuzzy, replace, insert, newline)
        report.marked_fuzzy += any_fuzzy
    report.filled += len(done)
    report.not_found += [k for k in segments if k not in done]
    out = []
    for i, line in enumerate(lines):
        out.append(insert.get(i, ""))
        out.append(replace.get(i, line))
    out.append(insert.get(len(lines), ""))
    try:
        return "".join(out).encode(charset)
    except UnicodeEncodeError as exc:
        raise FormatError(f"a pick has characters the catalogue's charset {charset} cannot hold "
                          f"({exc.object[exc.start:exc.end]!r}); convert the catalogue to UTF-8 (msgconv)",
                          file=file) from None


def _forms(e: _Entry, lines: list[str], msgid: str, base: str, nplurals: int) -> list[tuple[str, str, str, str]]:
    """(key, source, keyword, current msgstr) of each form of the entry."""
    if "msgid_plural" not in e.fields:
        current = _value([lines[i] for i in e.fields["msgstr"]]) if "msgstr" in e.fields else ""
        return [(base, msgid, "msgstr", current)]
    plural = _value([lines[i] for i in e.fields["msgid_plural"]])
    present = {int(k[7:-1]): _value([lines[i] for i in v]) for k, v in e.fields.items() if k.startswith("msgstr[")}
    n = max(nplurals, len(present))
    return [(f"{base}[{i}]", msgid if i == 0 else plural, f"msgstr[{i}]", present.get(i, "")) for i in range(n)]


def _msgstr_lines(forms: list[tuple[str, str, str, str]], fills: dict[str, Segment], options: FillOptions,
                  report: FillReport, newline: str) -> tuple[str, bool]:
    out, any_fuzzy = [], False
    for key, source, keyword, current in forms:
        seg = fills.get(key)
        pick = seg.pick if seg is not None else None
        if pick is None:
            out.append(string_lines(keyword, current, newline))
            continue
        fuzzy, broken = needs_review(source, pick.candidate.text, pick.confidence, options.fuzzy_below)
        report.format_breaks += broken
        any_fuzzy = any_fuzzy or fuzzy
        out.append(string_lines(keyword, pick.candidate.text, newline))
    return "".join(out), any_fuzzy


def _flag_fuzzy(lines: list[str], e: _Entry) -> bool:
    return e.flags is not None and "fuzzy" in [f.strip() for f in lines[e.flags].strip()[2:].split(",")]


def _set_fuzzy(lines: list[str], e: _Entry, want: bool, has: bool, replace: dict[int, str], insert: dict[int, str],
               newline: str) -> None:
    if want == has:
        return
    if want:
        if e.flags is not None:
            flags = [f.strip() for f in lines[e.flags].strip()[2:].split(",") if f.strip()]
            replace[e.flags] = "#, " + ", ".join(["fuzzy", *flags]) + newline
        else:
            first = min([*e.previous, *(v[0] for v in e.fields.values())])
            insert[first] = insert.get(first, "") + "#, fuzzy" + newline
        return
    assert e.flags is not None
    flags = [f.strip() for f in lines[e.flags].strip()[2:].split(",") if f.strip() and f.strip() != "fuzzy"]
    replace[e.flags] = "#, " + ", ".join(flags) + newline if flags else ""
    for i in e.previous:
        replace[i] = ""
