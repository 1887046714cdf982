"""Tokenization and the inline-code classes of software strings.

Localisation strings carry code that a translation must keep intact: printf
conversions (``%s``, ``%1$d``, ``%(name)s``), brace placeholders (``{0}``,
``{name}``), XML entities (``&amp;``), markup (``<b>``), keyboard accelerators
(``_File``, ``&File``, ``~File``) and escapes (``\\n``). The tokenizer keeps each
of them as one token so that n-gram and lexical models see them as words, and
:func:`inline_codes` counts them by class for the mismatch features.
"""

from __future__ import annotations

import re
from functools import lru_cache
_PRINTF = r"%(?:\d+\$|\([A-Za-z_]\w*\))?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGaAcspnSC%]|%\d+"
_BRACE = r"\{[A-Za-z0-9_.:]*\}"
_ENTITY = r"&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);"
_TAG = r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>"
_ESCAPE = r"\\[ntr\"\\]"
_WORD = r"\w+(?:['’]\w+)*"

_WORD_RE = re.compile(_WORD)
TOKEN_RE = re.compile(f"{_PRINTF}|{_BRACE}|{_ENTITY}|{_TAG}|{_ESCAPE}|{_WORD}|[^\\w\\s]", re.UNICODE)

CODE_PATTERNS: dict[str, re.Pattern[str]] = {
    "printf": re.compile(_PRINTF),
    "brace": re.compile(_BRACE),
    "entity": re.compile(_ENTITY),
    "tag": re.compile(_TAG),
    "escape": re.compile(_ESCAPE),
    # An accelerator marker glued to the start of a letter: _File, &File, ~File
    # (but not an entity such as &amp;, which the pattern above takes first).
    "accelerator": re.compile(r"(?:(?<!\w)[_&~]|(?<=[^\W\d_])[&~])(?=[^\W\d_])(?!\w+;)"),
    "number": re.compile(r"(?<![\w%{])\d+(?:[.,]\d+)*(?![\w}])"),
}
"""Inline-code classes whose counts must agree between a source and its translation."""

PUNCT_CLASSES = ("colon", "ellipsis", "period", "question", "exclamation", "paren", "quote")
_PUNCT_RE: dict[str, re.Pattern[str]] = {
    "colon": re.compile(r":"),
    "ellipsis": re.compile(r"\.\.\.|…"),
    "period": re.compile(r"(?<!\.)\.(?!\.)"),
    "question": re.compile(r"[?¿]"),
    "exclamation": re.compile(r"[!¡]"),
    "paren": re.compile(r"[()\[\]]"),
    "quote": re.compile(r"[\"“”«»]"),
}


def tokenize(text: str) -> list[str]:
    """Split ``text`` into words, punctuation and whole inline codes."""
    return TOKEN_RE.findall(text)


def lower_tokens(text: str) -> list[str]:
    """Lower-cased tokens without accelerator markers: the unit of the n-gram and
    lexical models (``_File`` and ``File`` are the same word to them)."""
    if "_" in text or "&" in text or "~" in text:  # an accelerator marker is one of these: most strings skip the scan
        text = CODE_PATTERNS["accelerator"].sub("", text)
    return [t.lower() for t in TOKEN_RE.findall(text)]


_ANY_CODE = re.compile("|".join(f"(?P<{name}>{p.pattern})" for name, p in CODE_PATTERNS.items()))
_CODE_CHAR = re.compile(r"[%{&<\\_~\d]")
"""Every inline code holds one of these characters (see :data:`CODE_PATTERNS`): a text
without any has no codes, found by one quick scan instead of the alternation at every position."""


def inline_codes(text: str) -> dict[tuple[str, str], int]:
    """Multiset of the inline codes of ``text`` as ``{(class, surface form): count}``.

    One left-to-right scan: a code is counted once, under the first class
    (in :data:`CODE_PATTERNS` order) that matches at its position.
    """
    found: dict[tuple[str, str], int] = {}
    if _CODE_CHAR.search(text) is None:
        return found
    for m in _ANY_CODE.finditer(text):
        key = (m.lastgroup or "", m.group())
        found[key] = found.get(key, 0) + 1
    return found


def code_mismatches(source: dict[tuple[str, str], int], candidate: dict[tuple[str, str], int]) -> list[float]:
    """Per code class, how many codes are missing from or extra in the candidate."""
    per_class = dict.fromkeys(CODE_PATTERNS, 0.0)
    for key in source.keys() | candidate.keys():
        per_class[key[0]] += abs(source.get(key, 0) - candidate.get(key, 0))
    return list(per_class.values())


def punctuation_counts(text: str) -> dict[str, int]:
    """How often each punctuation class occurs; Spanish ¿/¡ count with ?/!, so only the
    presence of the class matters for the features, not the exact count."""
    return {name: len(p.findall(text)) for name, p in _PUNCT_RE.items()}


@lru_cache(maxsize=1 << 16)
def is_word(token: str) -> bool:
    """True for an alphabetic word (not a number, code or punctuation mark)."""
    return _WORD_RE.fullmatch(token) is not None and any(c.isalpha() for c in token)
