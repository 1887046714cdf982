r"""Meteor 1.5 tokenization: ``-norm``, ``-lower``, plain whitespace splitting, ``-noPunct``.

Everything here was learned by black-box comparison with the reference jar
(``-writeAlignments`` prints the normalized tokens): a sweep of every BMP
character, ~100,000 random lines of tricky characters and ~390,000 real lines
in six languages, all token-for-token identical. The steps of ``-norm`` (trim,
quote mapping, Moses tokenization with the jar's narrow notion of letters,
hyphens, final full stops and non-breaking prefixes, acronyms, ``-noPunct``,
Java lower-casing, the jar's notion of spaces), in the order that matters, are
written out in ``docs/meteor-normalizer.md``.

Languages with a normalizer: english, french, german, spanish, czech and
russian; any other fails like the jar (``No normalizer for language (danish)``).
``-lower`` lower-cases and splits on space/tab/form feed only; without either
flag the line is only split.
"""

from __future__ import annotations

import re

from tmtprime.errors import ResourceError, UsageError
from tmtprime.meteor.languages import language_name

MODES = ("norm", "lower", "none")

NORMALIZER_LANGUAGES = frozenset({"english", "french", "german", "spanish", "czech", "russian"})

_PLAIN_SPLIT = re.compile("[ \t\x0c]+")


def java_trim(line: str) -> str:
    """``String.trim()``: strip every character <= U+0020 at both ends."""
    start, end = 0, len(line)
    while start < end and line[start] <= " ":
        start += 1
    while end > start and line[end - 1] <= " ":
        end -= 1
    return line[start:end]


# Characters Python lower-cases but Java 17 (Unicode 13) does not: new in Unicode 14.
_JAVA_UNCASED = frozenset("\u2c2f\ua7c0\ua7d0\ua7d6\ua7d8")


def java_lower(text: str) -> str:
    """Java 17's ``String.toLowerCase`` (Unicode 13): Python's, except for the letters Java does not know yet."""
    if text.isascii():
        return text.lower()
    if _JAVA_UNCASED.isdisjoint(text):
        return text.lower()
    return "".join(c if c in _JAVA_UNCASED else c.lower() for c in text)


def tokenize(line: str, lang: str, mode: str, *, no_punct: bool = False) -> list[str]:
    """The tokens the jar scores for ``line`` (one segment, no newline).

    ``mode`` is ``"norm"`` (``-norm``), ``"lower"`` (``-lower``) or ``"none"``
    (neither flag); ``no_punct`` is ``-noPunct``, which the jar only applies
    together with ``-norm``. ``lang`` is any code or name the jar accepts
    (``en``, ``cz``, ``german`` ...). Errors mirror the jar's:
    ``Unknown language (xy)`` (:class:`UsageError`) and ``No normalizer for
    language (danish)`` (:class:`ResourceError`).
    """
    if mode == "norm":
        name = language_name(lang)
        if name not in NORMALIZER_LANGUAGES:
            raise ResourceError(f"No normalizer for language ({name})")
        from tmtprime.meteor.moses_norm import normalize_line  # its rules compile on import: only for -norm

        return normalize_line(line, name, no_punct)
    if mode == "lower":
        return [t for t in _PLAIN_SPLIT.split(java_lower(java_trim(line))) if t]
    if mode == "none":
        return [t for t in _PLAIN_SPLIT.split(java_trim(line)) if t]
    raise UsageError(f"unknown tokenization mode {mode!r}; expected one of {', '.join(MODES)}")
