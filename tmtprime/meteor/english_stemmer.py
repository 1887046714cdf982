"""The English (Porter2) Snowball stemmer, as compiled into the Meteor 1.5 jar.

Written from the published algorithm (snowballstem.org) because NLTK's
implementation shortens the regions R1/R2 by guesswork after a suffix is
replaced (``realization`` -> ``realiz`` for the jar, ``realize`` for NLTK).
Here R1 and R2 are positions fixed before the suffix steps; like the jar it
does not lower-case. Agreement with the jar: docs/experiments/meteor-alignment.md
(checked by ``tests/meteor/test_resources.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

_VOWELS = frozenset("aeiouy")
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI_ENDING = frozenset("cdeghkmnrt")

_EXCEPTIONS = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl",
    "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
    "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias",
    "andes": "andes",
}  # fmt: skip
_INVARIANT_AFTER_1A = frozenset({"inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"})

_STEP2 = {
    "tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent", "izer": "ize",
    "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate", "alism": "al", "aliti": "al",
    "alli": "al", "fulness": "ful", "ousli": "ous", "ousness": "ous", "iveness": "ive", "iviti": "ive",
    "biliti": "ble", "bli": "ble", "ogi": "og", "fulli": "ful", "lessli": "less", "li": "",
}  # fmt: skip
_STEP3 = {
    "tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic", "ical": "ic",
    "ful": "", "ness": "", "ative": "",
}  # fmt: skip
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti",
    "ous", "ive", "ize", "ion",
)  # fmt: skip


def _among(suffixes: Iterable[str]) -> tuple[tuple[int, ...], frozenset[str]]:
    """Suffixes to look up with :func:`_longest`: their lengths, longest first, and the suffixes."""
    found = frozenset(suffixes)
    return tuple(sorted({len(s) for s in found}, reverse=True)), found


def _longest(word: str, among: tuple[tuple[int, ...], frozenset[str]]) -> str | None:
    """The longest suffix in ``among`` (:func:`_among`) that ``word`` ends with (Snowball's ``substring among``).

    One set lookup per suffix length rather than one ``endswith`` per
    suffix: stemming the new words of each segment was a tenth of the
    scorer's time.
    """
    lengths, suffixes = among
    for n in lengths:
        if n <= len(word) and word[-n:] in suffixes:
            return word[-n:]
    return None


_APOSTROPHES = _among(("'", "'s", "'s'"))
_STEP1A = _among(("sses", "ied", "ies", "s", "us", "ss"))
_STEP1B = _among(("eed", "eedly", "ed", "edly", "ing", "ingly"))
_STEP2_AMONG, _STEP3_AMONG, _STEP4_AMONG = _among(_STEP2), _among(_STEP3), _among(_STEP4)


def _is_vowel(c: str) -> bool:
    return c in _VOWELS


def _region_after_vc(word: str, start: int) -> int:
    """Position after the first non-vowel that follows a vowel, searching from ``start``."""
    i = start
    while i < len(word) and not _is_vowel(word[i]):
        i += 1
    while i < len(word) and _is_vowel(word[i]):
        i += 1
    return min(i + 1, len(word)) if i < len(word) else len(word)


def _ends_short_syllable(word: str) -> bool:
    """Snowball ``shortv``: non-vowel (not w, x, Y), vowel, non-vowel at the end; or vowel, non-vowel = the word."""
    n = len(word)
    if n >= 3 and not _is_vowel(word[-1]) and word[-1] not in "wxY" and _is_vowel(word[-2]) and not _is_vowel(word[-3]):
        return True
    return n == 2 and _is_vowel(word[0]) and not _is_vowel(word[1])


def stem(word: str) -> str:
    """Porter2 stem of ``word`` exactly as the jar's ``englishStemmer`` computes it."""
    if word in _EXCEPTIONS:
        return _EXCEPTIONS[word]
    if len(word) < 3:
        return word
    # prelude
    word = word.removeprefix("'")
    y_found = False
    chars = list(word)
    for i, c in enumerate(chars):
        if c == "y" and (i == 0 or _is_vowel(chars[i - 1])):
            chars[i] = "Y"
            y_found = True
    word = "".join(chars)
    # regions
    if word.startswith(("gener", "arsen")):
        p1 = 5
    elif word.startswith("commun"):
        p1 = 6
    else:
        p1 = _region_after_vc(word, 0)
    p2 = _region_after_vc(word, p1)

    word = _step_1a(word)
    if word not in _INVARIANT_AFTER_1A:
        word = _step_1b(word, p1)
        word = _step_1c(word)
        word = _step_2(word, p1)
        word = _step_3(word, p1, p2)
        word = _step_4(word, p2)
        word = _step_5(word, p1, p2)
    return word.replace("Y", "y") if y_found else word


def _step_1a(word: str) -> str:
    suffix = _longest(word, _APOSTROPHES)
    if suffix:
        word = word[: -len(suffix)]
    suffix = _longest(word, _STEP1A)
    if suffix == "sses":
        return word[:-2]
    if suffix in ("ied", "ies"):
        return word[:-3] + ("i" if len(word) > 4 else "ie")
    if suffix == "s" and any(_is_vowel(c) for c in word[:-2]):
        return word[:-1]
    return word


def _step_1b(word: str, p1: int) -> str:
    suffix = _longest(word, _STEP1B)
    if suffix is None:
        return word
    if suffix in ("eed", "eedly"):
        return word[: -len(suffix)] + "ee" if len(word) - len(suffix) >= p1 else word
    stem_part = word[: -len(suffix)]
    if not any(_is_vowel(c) for c in stem_part):
        return word
    word = stem_part
    if word.endswith(("at", "bl", "iz")):
        return word + "e"
    if word.endswith(_DOUBLES):
        return word[:-1]
    if len(word) == p1 and _ends_short_syllable(word):
        return word + "e"
    return word


def _step_1c(word: str) -> str:
    if len(word) > 2 and word[-1] in "yY" and not _is_vowel(word[-2]):
        return word[:-1] + "i"
    return word


def _step_2(word: str, p1: int) -> str:
    suffix = _longest(word, _STEP2_AMONG)
    if suffix is None or len(word) - len(suffix) < p1:
        return word
    base = word[: -len(suffix)]
    if suffix == "ogi" and not base.endswith("l"):
        return word
    if suffix == "li" and (not base or base[-1] not in _LI_ENDING):
        return word
    return base + _STEP2[suffix]


def _step_3(word: str, p1: int, p2: int) -> str:
    suffix = _longest(word, _STEP3_AMONG)
    if suffix is None or len(word) - len(suffix) < p1:
        return word
    if suffix == "ative" and len(word) - len(suffix) < p2:
        return word
    return word[: -len(suffix)] + _STEP3[suffix]


def _step_4(word: str, p2: int) -> str:
    suffix = _longest(word, _STEP4_AMONG)
    if suffix is None or len(word) - len(suffix) < p2:
        return word
    base = word[: -len(suffix)]
    if suffix == "ion" and not base.endswith(("s", "t")):
        return word
    return base


def _step_5(word: str, p1: int, p2: int) -> str:
    if word.endswith("e"):
        base = word[:-1]
        if len(base) >= p2 or (len(base) >= p1 and not _ends_short_syllable(base)):
            return base
    elif word.endswith("l") and len(word) - 1 >= p2 and word[:-1].endswith("l"):
        return word[:-1]
    return word
