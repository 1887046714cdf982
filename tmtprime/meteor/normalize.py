"""Meteor 1.5 tokenization: ``-norm``, ``-lower`` and plain whitespace splitting.

Everything here was learned by black-box comparison with the reference jar
(``-writeAlignments`` prints the normalized tokens), on a sweep of every BMP
character and on ~400,000 real lines in six languages. What ``-norm`` does,
step by step (the order matters and was pinned down by probes):

1. **Trim** like Java's ``String.trim()``: strip characters ``<= U+0020`` at both
   ends (so a leading ``\\x01`` vanishes, one in the middle stays a token).
2. **Quote mapping**: ``’`` and ``‘`` become ``'`` (so ``it’s`` is split like
   ``it's``), ``“`` and ``”`` become ``"``, an en dash ``–`` becomes a
   free-standing ``-``. Nothing else is mapped: ``—``, ``―``, ``„``, ``‚``, ``«``,
   ``…``, ``´``, ``′``, HTML entities (``&amp;``) stay as they are.
3. **Moses tokenization** (the 2010 ``tokenizer.perl``) with a *narrow* notion of
   letters: "alphanumeric" is only ASCII letters and digits, Latin-1 and
   Latin Extended-A letters (``À-Ö Ø-ö ø-ž``), Cyrillic ``U+0400-U+0527`` and
   ``U+A640-A66E, A67E-A697`` and the phonetic extensions ``U+1D00-U+1D7F``.
   Every other character except whitespace, ``. ' ` , -`` is split off as its
   own token — Greek, CJK, Arabic, emoji, ``%``, ``/``, ``@`` ... (so
   ``%s`` -> ``% s`` and ``http://x.org`` -> ``http : / / x.org``).

   * runs of dots are kept together (``...``), a comma is split off unless it
     sits between two ASCII digits (``15,000``);
   * a backquote becomes ``'`` and ``''`` becomes ``"``;
   * apostrophes: English splits contractions to the right (``didn 't``,
     ``1990 's``, but ``1'é`` stays), French to the left (``l' homme``), every
     other language splits the apostrophe off on both sides;
4. **Hyphens** (Meteor 1.3): ``--`` becomes ``-`` (pairwise, left to right,
   so ``---`` -> ``--``), then a ``-`` between an alphanumeric character or a
   full stop on its left and an alphanumeric character on its right becomes a
   space (``far-off`` -> ``far off``, ``U.S.-based`` -> ``U.S. based``;
   non-overlapping, so ``3-4-5`` -> ``3 4-5``; ``-5`` and ``a - b`` stay).
5. **Sentence-final full stops** (Moses' non-breaking prefixes): a word
   ``X.`` keeps its full stop attached when ``X`` contains a full stop and a
   letter, or ``X`` is a non-breaking prefix of the language, or the next word
   starts with an ASCII lower-case letter, or ``X`` is a ``#NUMERIC_ONLY#``
   prefix and the next word starts with a digit. Otherwise it becomes
   ``X .``. Words are separated by space, tab and form feed only: a
   non-breaking space is a word of its own here (so ``Foo.<NBSP>bar`` splits).
6. **Acronyms** (Meteor 1.3): a token that ends with a full stop and contains
   another one loses all its full stops (``U.S.`` -> ``US``, ``Ph.D.`` ->
   ``PhD``, ``.a.`` -> ``a``); ``U.S`` and ``Mr.`` stay.
7. **Lower-casing** as Java does (Unicode 13: a few characters new in
   Unicode 14 are left alone, see ``_JAVA_UNCASED``).
8. Split into tokens on space, tab, form feed and the Unicode spaces the jar
   drops (``U+00A0 U+2000-U+200A U+202F U+205F U+3000``); ``U+000B`` and
   ``U+1680`` are *not* spaces for the jar.

Languages with a normalizer: english, french, german, spanish, czech (no
non-breaking prefixes at all) and russian. Any other language fails like the
jar: ``No normalizer for language (danish)``.

``-lower`` lower-cases and splits on space/tab/form feed only; without either
flag the line is only split. ``-noPunct`` (``no_punct=True``) only acts with
``-norm``: after step 6 every character outside the alphanumeric class above
(punctuation, but also Greek, CJK, ``ſ`` ...) becomes a space, then the text is
lower-cased and split (so ``1,000`` -> ``1 000`` and ``x.y`` -> ``x y``).
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
    """Moses' word loop: detach a final full stop unless a rule keeps it."""
    words = [w for w in _WORD_SPLIT.split(text) if w]
    out: list[str] = []
    last = len(words) - 1
    for i, word in enumerate(words):
        if len(word) > 1 and word.endswith("."):
            pre = word[:-1]
            nxt = words[i + 1] if i < last else ""
            keep = (
                ("." in pre and _HAS_ALPHA.search(pre) is not None)
                or prefixes.get(pre) == 1
                or _NEXT_LOWER.match(nxt) is not None
                or (prefixes.get(pre) == 2 and _NEXT_DIGIT.match(nxt) is not None)
            )
            if not keep:
                out.append(pre)
                out.append(".")
                continue
        out.append(word)
    return out


def _acronym(token: str) -> str:
    if len(token) > 1 and token.endswith(".") and "." in token[:-1]:
        return token.replace(".", "")
    return token


def _normalize(line: str, lang: str, no_punct: bool) -> list[str]:
    prefixes = nonbreaking_prefixes(lang)
    text = " " + _java_trim(line).translate(_QUOTES).replace("--", "-") + " "
    text = _SEPARATE.sub(r" \1 ", text)
    text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
    while "DOTMULTI." in text:
        text = _DOTMULTI_DOT_NONDOT.sub(r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    text = _COMMA_NONDIGIT.sub(r"\1 , \2", text)
    text = _COMMA_AFTER_DIGIT.sub(r"\1 , \2", text)
    text = _COMMA_BEFORE_DIGIT.sub(r"\1 , \2", text)
    text = text.replace("`", "'").replace("''", ' " ')
    for pattern, repl in _APOSTROPHE_RULES.get(lang, _APOSTROPHE_ANY):
        text = pattern.sub(repl, text)
    text = _HYPHEN.sub(r"\1 \2", text)
    words = _moses_words(text, prefixes)
    text = _restore_dots(" ".join(_acronym(w) for w in words))
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
