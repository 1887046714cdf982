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
from collections import Counter

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
    return [t.lower() for t in TOKEN_RE.findall(CODE_PATTERNS["accelerator"].sub("", text))]


def inline_codes(text: str) -> dict[str, Counter[str]]:
    """The inline codes of ``text`` by class, as multisets of their surface forms."""
    return {name: Counter(p.findall(text)) for name, p in CODE_PATTERNS.items()}


def punctuation_counts(text: str) -> dict[str, int]:
    """How often each punctuation class occurs; Spanish ¿/¡ count with ?/!, so only the
    presence of the class matters for the features, not the exact count."""
    return {name: len(p.findall(text)) for name, p in _PUNCT_RE.items()}


def is_word(token: str) -> bool:
    """True for an alphabetic word (not a number, code or punctuation mark)."""
    return _WORD_RE.fullmatch(token) is not None and any(c.isalpha() for c in token)
