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
from tmtprime.meteor.resources import nonbreaking_prefixes

MODES = ("norm", "lower", "none")

NORMALIZER_LANGUAGES = frozenset({"english", "french", "german", "spanish", "czech", "russian"})

_ALNUM = "0-9A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e\u0400-\u0527\u1d00-\u1d7f\ua640-\ua66e\ua67e-\ua697"
_ALPHA = _ALNUM[3:]
_JAVA_SPACE = " \t\n\x0b\x0c\r"

_PLAIN_SPLIT = re.compile("[ \t\x0c]+")
_FINAL_SPLIT = re.compile("[ \t\x0c\u00a0\u2000-\u200a\u202f\u205f\u3000]+")

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": " - "})
_SEPARATE = re.compile(f"([^{_ALNUM}{_JAVA_SPACE}.'`,\\-])")
_MULTI_DOT = re.compile(r"\.(\.+)")
_DOTMULTI_DOT_NONDOT = re.compile(r"DOTMULTI\.([^.])")
_COMMA_NONDIGIT = re.compile(r"([^0-9]),([^0-9])")
_COMMA_AFTER_DIGIT = re.compile(r"([0-9]),([^0-9])")
_COMMA_BEFORE_DIGIT = re.compile(r"([^0-9]),([0-9])")

_A, _N = _ALPHA, "0-9"
_APOSTROPHE_RULES: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "english": [
        (re.compile(f"([^{_A}])'([^{_A}])"), r"\1 ' \2"),
        (re.compile(f"([^{_A}{_N}])'([{_A}])"), r"\1 ' \2"),
        (re.compile(f"([{_A}])'([^{_A}])"), r"\1 ' \2"),
        (re.compile(f"([{_A}])'([{_A}])"), r"\1 '\2"),
        (re.compile(f"([{_N}])'(s)"), r"\1 '\2"),
    ],
    "french": [
        (re.compile(f"([^{_A}])'([^{_A}])"), r"\1 ' \2"),
        (re.compile(f"([^{_A}])'([{_A}])"), r"\1 ' \2"),
        (re.compile(f"([{_A}])'([^{_A}])"), r"\1 ' \2"),
        (re.compile(f"([{_A}])'([{_A}])"), r"\1' \2"),
    ],
}
_APOSTROPHE_ANY = [(re.compile("'"), " ' ")]

_HYPHEN = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
_WORD_SPLIT = re.compile("[ \t\x0c]+")
_NEXT_LOWER = re.compile("[a-z]")
_NEXT_DIGIT = re.compile("[0-9]")
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_NON_ALNUM = re.compile(f"[^{_ALNUM}]+")


def _java_trim(line: str) -> str:
    """``String.trim()``: strip every character <= U+0020 at both ends."""
    start, end = 0, len(line)
    while start < end and line[start] <= " ":
        start += 1
    while end > start and line[end - 1] <= " ":
        end -= 1
    return line[start:end]


def _restore_dots(text: str) -> str:
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    return text.replace("DOTMULTI", ".")


def _moses_words(text: str, prefixes: dict[str, int]) -> list[str]:
    """Moses' word loop (detach a final full stop unless a rule keeps it), then the acronym rule."""
    words = [w for w in _WORD_SPLIT.split(text) if w]
    if "." not in text:  # nothing for the loop below to change (a segment without a full stop)
        return words
    out: list[str] = []
    last = len(words) - 1
    for i, word in enumerate(words):
        if word[-1] != "." or len(word) < 2:
            out.append(word)
            continue
        pre = word[:-1]
        if "." in pre and _HAS_ALPHA.search(pre) is not None:
            out.append(word.replace(".", ""))  # kept, and an acronym: U.S. -> US
            continue
        nxt = words[i + 1] if i < last else ""
        flag = prefixes.get(pre)
        if flag == 1 or _NEXT_LOWER.match(nxt) or (flag == 2 and _NEXT_DIGIT.match(nxt)):
            out.append(word)
        else:
            out.append(pre)
            out.append(".")
    return out


def _normalize(line: str, lang: str, no_punct: bool) -> list[str]:
    prefixes = nonbreaking_prefixes(lang)
    text = " " + _java_trim(line).translate(_QUOTES) + " "
    # = _SEPARATE.sub(r" \1 ", text) (the group is the whole match), without a Python call per match
    text = " ".join(_SEPARATE.split(text))
    if ".." in text:
        text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
        while "DOTMULTI." in text:
            text = _DOTMULTI_DOT_NONDOT.sub(r"DOTDOTMULTI \1", text)
            text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    if "," in text:
        text = _COMMA_NONDIGIT.sub(r"\1 , \2", text)
        text = _COMMA_AFTER_DIGIT.sub(r"\1 , \2", text)
        text = _COMMA_BEFORE_DIGIT.sub(r"\1 , \2", text)
    text = text.replace("--", "-")
    if "`" in text or "'" in text:
        text = text.replace("`", "'").replace("''", ' " ')
        for pattern, repl in _APOSTROPHE_RULES.get(lang, _APOSTROPHE_ANY):
            text = pattern.sub(repl, text)
    if "-" in text:
        text = _HYPHEN.sub(r"\1 \2", text)
    text = " ".join(_moses_words(text, prefixes))
    if "DOTMULTI" in text:
        text = _restore_dots(text)
    if no_punct:
        text = _NON_ALNUM.sub(" ", text)
    return [t for t in _FINAL_SPLIT.split(_java_lower(text)) if t]


# Characters Python lower-cases but Java 17 (Unicode 13) does not: new in Unicode 14.
_JAVA_UNCASED = frozenset("\u2c2f\ua7c0\ua7d0\ua7d6\ua7d8")


def _java_lower(text: str) -> str:
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
        return _normalize(line, name, no_punct)
    if mode == "lower":
        return [t for t in _PLAIN_SPLIT.split(_java_lower(_java_trim(line))) if t]
    if mode == "none":
        return [t for t in _PLAIN_SPLIT.split(_java_trim(line)) if t]
    raise UsageError(f"unknown tokenization mode {mode!r}; expected one of {', '.join(MODES)}")
