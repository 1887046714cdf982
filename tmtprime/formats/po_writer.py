"""Writing gettext PO: a catalogue from any document (TSV, XLIFF, ...), and the string syntax.

One entry per segment: ``msgid`` the source, ``msgctxt`` the context,
``msgstr`` the reference when the segment has one, else the pick (empty
without one); notes become extracted comments (``#.``). Inline codes stay as
TMTprime's placeholders (``{1}``...``{/1}``): PO has no markup of its own.
Two segments with the same context and source would be one message to
gettext (``msgfmt`` refuses duplicates), so from the second on the segment key
is added to the context (``ctx [key]``). A pick is marked ``#, fuzzy`` when
:func:`needs_review` says so, which keeps ``msgfmt --check`` passing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from tmtprime import __version__

from .model import DocumentInfo, Segment
from .printf import breaks_format

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
            "\f": "\\f", "\v": "\\v"}


def escape(s: str) -> str:
    """``s`` as the inside of a PO string literal (other control characters as octal escapes)."""
    return "".join(_ESCAPES.get(ch) or (f"\\{ord(ch):03o}" if ord(ch) < 32 or ord(ch) == 127 else ch) for ch in s)


def string_lines(keyword: str, s: str, newline: str = "\n") -> str:
    """``keyword "s"`` as gettext writes it: one line, or ``""`` then one line per embedded newline."""
    if "\n" not in s[:-1]:
        return f'{keyword} "{escape(s)}"{newline}'
    parts = s.split("\n")
    pieces = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return f'{keyword} ""{newline}' + "".join(f'"{escape(p)}"{newline}' for p in pieces)


def newline_mismatch(source: str, translation: str) -> bool:
    """msgfmt refuses a msgstr that does not begin and end with ``\\n`` exactly when the msgid does."""
    return (source.startswith("\n") != translation.startswith("\n")
            or source.endswith("\n") != translation.endswith("\n"))


def needs_review(source: str, translation: str, confidence: float | None,
                 fuzzy_below: float | None) -> tuple[bool, bool]:
    """(mark it ``#, fuzzy``?, does it break a printf format?) for a pick put into a msgstr.

    Fuzzy when ``fuzzy_below`` is None (every pick awaits review), the confidence is
    unknown or below it, or the pick breaks a format or the newline rule.
    """
    broken = breaks_format(source, translation)
    low = fuzzy_below is None or confidence is None or confidence < fuzzy_below
    return low or broken or newline_mismatch(source, translation), broken


def header(info: DocumentInfo) -> str:
    """The header entry of a UTF-8 catalogue (every field ``msgfmt --check-header`` looks for)."""
    lang = (info.target_lang or "").replace("-", "_")
    fields = [
        f"Project-Id-Version: {info.original or 'TMTprime export'}",
        "Report-Msgid-Bugs-To: ",
        "POT-Creation-Date: ",
        "PO-Revision-Date: ",
        "Last-Translator: TMTprime",
        "Language-Team: ",
        f"Language: {lang}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        f"X-Generator: TMTprime {__version__}",
    ]
    body = "".join(f'"{escape(f + chr(10))}"\n' for f in fields)
    return f'msgid ""\nmsgstr ""\n{body}\n'


def write_document(out: IO[str], info: DocumentInfo, segments: Iterable[Segment], *,
                   fuzzy_below: float | None = None) -> None:
    """Write ``segments`` as a PO catalogue (see the module docstring)."""
    out.write(header(info))
    seen: set[tuple[str | None, str]] = set()
    for seg in segments:
        if not seg.source:
            continue  # msgid "" is the header
        context = seg.context
        if (context, seg.source) in seen:
            context = f"{context} [{seg.key}]" if context else f"[{seg.key}]"
        seen.add((context, seg.source))
        lines = [f"#. {line}\n" for note in seg.notes for line in note.splitlines()]
        pick = seg.pick
        text = seg.reference or (pick.candidate.text if pick is not None else "")
        if not seg.reference and pick is not None:
            fuzzy, _ = needs_review(seg.source, pick.candidate.text, pick.confidence, fuzzy_below)
            if fuzzy:
                lines.append("#, fuzzy\n")
        if context is not None:
            lines.append(string_lines("msgctxt", context))
        lines.append(string_lines("msgid", seg.source))
        lines.append(string_lines("msgstr", text))
        out.write("".join(lines) + "\n")
