"""Word differences as HTML: what a candidate changes against the TM match, as CAT tools colour it."""

from __future__ import annotations

import html
import re
from difflib import SequenceMatcher

_TOKENS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)

INSERTED = "background-color:#ffe08a;color:#000"
DELETED = "background-color:#ffb3b3;color:#000;text-decoration:line-through"


def tokens(text: str) -> list[str]:
    """Words, punctuation and runs of spaces, so joining them gives ``text`` back."""
    return _TOKENS.findall(text)


def changed_words(text: str, against: str) -> list[str]:
    """The words of ``text`` that are not in ``against`` at the aligned place (case-sensitive)."""
    a, b = tokens(against), tokens(text)
    out = []
    for op, _i1, _i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("replace", "insert"):
            out.extend(t for t in b[j1:j2] if t.strip())
    return out


def highlight(text: str, against: str | None, *, show_deleted: bool = False) -> str:
    """``text`` as HTML with the words that differ from ``against`` marked (and, if asked, what it lacks)."""
    if against is None:
        return html.escape(text)
    a, b = tokens(against), tokens(text)
    parts: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        new = "".join(b[j1:j2])
        if op == "equal":
            parts.append(html.escape(new))
            continue
        if show_deleted and op in ("replace", "delete"):
            old = "".join(a[i1:i2]).strip()
            if old:
                parts.append(f"<span style='{DELETED}'>{html.escape(old)}</span>")
                if new:
                    parts.append(" ")
        if new:
            parts.append(f"<span style='{INSERTED}'>{html.escape(new)}</span>" if new.strip() else new)
    return "".join(parts)
