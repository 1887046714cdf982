"""The jar's ``-norm``: Moses tokenization with its narrow notion of letters, as :mod:`~tmtprime.meteor.normalize`
applies it (the steps and how they were learned: that module and ``docs/meteor-normalizer.md``).

WHY its own module: its rules are large Unicode character classes whose compilation is a noticeable part of a
one-pair run's start-up; a run without ``-norm`` never imports them.
"""

from __future__ import annotations

import re
from operator import methodcaller

from tmtprime.meteor.normalize import java_lower, java_trim
from tmtprime.meteor.resources import nonbreaking_prefixes

_ALNUM = "0-9A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e\u0400-\u0527\u1d00-\u1d7f\ua640-\ua66e\ua67e-\ua697"
_ALPHA = _ALNUM[3:]
_JAVA_SPACE = " \t\n\x0b\x0c\r"

_FINAL_SPLIT = re.compile("[ \t\x0c\u00a0\u2000-\u200a\u202f\u205f\u3000]+")

_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": " - "})
_SEPARATE = re.compile(f"([^{_ALNUM}{_JAVA_SPACE}.'`,\\-])")
_MULTI_DOT = re.compile(r"\.(\.+)")
_DOTMULTI_DOT_NONDOT = re.compile(r"DOTMULTI\.([^.])")
_COMMA_NONDIGIT = re.compile(r"([^0-9]),([^0-9])")
_COMMA_AFTER_DIGIT = re.compile(r"([0-9]),([^0-9])")
_COMMA_BEFORE_DIGIT = re.compile(r"([^0-9]),([0-9])")
_COMMAS_CLOSE = re.compile(",.?,", re.S)
_COMMA_NOT_IN_NUMBER = re.compile("(?<![0-9]),|,(?![0-9])")

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


def _restore_dots(text: str) -> str:
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    return text.replace("DOTMULTI", ".")


def comma_rules(text: str) -> str:
    """Moses' three comma rules, each a pass over ``text`` (a match takes the characters beside its comma)."""
    text = _COMMA_NONDIGIT.sub(r"\1 , \2", text)
    text = _COMMA_AFTER_DIGIT.sub(r"\1 , \2", text)
    return _COMMA_BEFORE_DIGIT.sub(r"\1 , \2", text)


def split_commas(text: str) -> str:
    """:func:`comma_rules` of ``text`` (padded with a space at both ends), in one pass where they amount to
    "a comma not between two digits": when no two commas are within two characters, no match of a rule can
    take a character another match needs. WHY: the three passes were a third of the tokenizing time."""
    if _COMMAS_CLOSE.search(text) is None:
        return _COMMA_NOT_IN_NUMBER.sub(" , ", text)
    return comma_rules(text)


_ENDS_WITH_DOT = methodcaller("endswith", ".")


def _moses_words(text: str, prefixes: dict[str, int]) -> list[str]:
    """Moses' word loop (detach a final full stop unless a rule keeps it), then the acronym rule."""
    words = [w for w in _WORD_SPLIT.split(text) if w]
    if "." not in text:  # nothing for the loop below to change (a segment without a full stop)
        return words
    # only a word ending in a full stop can change: found by C-level scans, the others copied in slices
    dotted = list(map(_ENDS_WITH_DOT, words))
    out: list[str] = []
    last, done, i = len(words) - 1, 0, -1
    while True:
        try:
            i = dotted.index(True, i + 1)
        except ValueError:
            break
        if len(words[i]) < 2:
            continue
        out += words[done:i]
        done = i + 1
        word = words[i]
        pre = word[:-1]
        if "." in pre and _HAS_ALPHA.search(pre) is not None:
            out.append(word.replace(".", ""))  # kept, and an acronym: U.S. -> US
            continue
        nxt = words[i + 1] if i < last else ""
        flag = prefixes.get(pre)
        if flag == 1 or _NEXT_LOWER.match(nxt) or (flag == 2 and _NEXT_DIGIT.match(nxt)):
            out.append(word)
        else:
            out += (pre, ".")
    out += words[done:]
    return out


def normalize_line(line: str, lang: str, no_punct: bool) -> list[str]:
    """The tokens of ``-norm`` for one line (``lang``: a language name with a normalizer)."""
    prefixes = nonbreaking_prefixes(lang)
    line = java_trim(line)
    text = " " + (line if line.isascii() else line.translate(_QUOTES)) + " "  # _QUOTES maps no ASCII character
    # = _SEPARATE.sub(r" \1 ", text) (the group is the whole match), without a Python call per match
    text = " ".join(_SEPARATE.split(text))
    if ".." in text:
        text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
        while "DOTMULTI." in text:
            text = _DOTMULTI_DOT_NONDOT.sub(r"DOTDOTMULTI \1", text)
            text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    if "," in text:
        text = split_commas(text)
    text = text.replace("--", "-")
    if "`" in text or "'" in text:
        text = text.replace("`", "'").replace("''", ' " ')
        for pattern, repl in _APOSTROPHE_RULES.get(lang, _APOSTROPHE_ANY):
            text = pattern.sub(repl, text)
    if "-" in text:
        text = _HYPHEN.sub(r"\1 \2", text)
    words = _moses_words(text, prefixes)
    text = " ".join(words)
    if text.isascii() and not no_punct and "DOTMULTI" not in text:
        return text.lower().split(" ") if words else []  # = the split below: no word is empty or holds a space
    if "DOTMULTI" in text:
        text = _restore_dots(text)
    if no_punct:
        text = _NON_ALNUM.sub(" ", text)
    return [t for t in _FINAL_SPLIT.split(java_lower(text)) if t]
