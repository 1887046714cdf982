"""Snowball stemmers as the Meteor 1.5 jar applies them (stem matcher).

The jar ships the 2010-era Java Snowball stemmers for danish dutch english
finnish french german hungarian italian norwegian portuguese romanian
russian spanish swedish turkish (all available here); Czech and "other" have
none (``No stemmer for language (czech)``). English is our own
(:mod:`tmtprime.meteor.english_stemmer`). Most others come from the
``snowballstemmer`` package (imports in milliseconds), set back to the jar's
older algorithms where Snowball has changed since (:data:`_OLDER`,
:func:`_snowball`); they are case-sensitive like the jar. French, German
and Finnish still use NLTK's ``SnowballStemmer`` with the corrections below
(NLTK's import costs most of a second; moving them is open work). Number-like tokens are stemmed as the jar's stem matcher does.
Each correction and the measured agreement with the jar:
docs/experiments/meteor-alignment.md and ``bench/meteor_stemmers.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from tmtprime.errors import ResourceError
from tmtprime.meteor import english_stemmer
from tmtprime.meteor.languages import language_name

SNOWBALL_LANGUAGES = frozenset(
    {"danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian", "norwegian",
     "portuguese", "romanian", "russian", "spanish", "swedish", "turkish"}
)  # fmt: skip

Stemmer = Callable[[str], str]

_PLACEHOLDER = "\ue000"  # a private-use character: a consonant for every stemmer


def _german(nltk_stem: Stemmer) -> Stemmer:
    def stem(word: str) -> str:
        result = nltk_stem(word)
        if result.endswith("nis") and word.lower().endswith(("nisse", "nissen", "nisses")):
            return result + "s"
        return result

    return stem


_FRENCH_VOWELS = frozenset("aeiouyâàëéêèïîôûù")


def _french(nltk_stem: Stemmer) -> Stemmer:
    def stem(word: str) -> str:
        lower = word.lower()
        if _french_initial_y_is_consonant(lower):
            result = nltk_stem(_PLACEHOLDER + lower[1:]).replace(_PLACEHOLDER, "y")
        else:
            result = nltk_stem(word)
        if len(result) > 1 and result[0] in "éè" and not any(c in _FRENCH_VOWELS for c in result[1:]):
            result = "e" + result[1:]
        return result

    return stem


def _french_initial_y_is_consonant(word: str) -> bool:
    """The prelude marks a word-initial ``y`` before a vowel as a consonant, unless it marks the next letter.

    (``yue``: the ``u`` between the vowels ``y`` and ``e`` is marked instead.)
    """
    if len(word) < 2 or word[0] != "y" or word[1] not in _FRENCH_VOWELS:
        return False
    return not (word[1] in "ui" and len(word) > 2 and word[2] in _FRENCH_VOWELS)


_FINNISH_VOWELS = frozenset("aeiouyäö")


class _NonVowels(str):
    """A "consonant" set for NLTK that, like the jar, holds every non-vowel (``š``, ``ž``, digits...)."""

    vowels: frozenset[str] = frozenset()

    def __contains__(self, char: object) -> bool:
        return isinstance(char, str) and len(char) == 1 and char not in self.vowels


class _DoubleNonVowels(tuple):
    """NLTK's tuple of double consonants, extended to any doubled non-vowel (``00`` in ``pack200``)."""

    vowels: frozenset[str] = frozenset()

    def __contains__(self, pair: object) -> bool:
        return isinstance(pair, str) and len(pair) == 2 and pair[0] == pair[1] and pair[0] not in self.vowels


class _FinnishNonVowels(_NonVowels):
    vowels = _FINNISH_VOWELS


class _FinnishDoubles(_DoubleNonVowels):
    vowels = _FINNISH_VOWELS


# How the jar's (older) algorithms differ from NLTK's, as settings of NLTK's stemmer instance:
# attribute -> suffixes NLTK has and the jar does not (a tuple), or a replacement value.
_NLTK_SETTINGS: dict[str, dict[str, object]] = {
    # The jar never removes the case endings guarded by a condition routine (-siin -seen -den -tten):
    # it falls back to the shorter ending -n, as NLTK does when the condition fails.
    "finnish": {
        "step3_suffixes": ("siin", "seen", "den", "tten"),
        "consonants": _FinnishNonVowels("bcdfghjklmnpqrstvwxz"),
        "double_consonants": _FinnishDoubles(),
    },
}


def _configure(snowball, name: str) -> None:
    """Apply :data:`_NLTK_SETTINGS` to this stemmer instance (NLTK's attributes are name-mangled)."""
    algorithm = type(snowball.stemmer)
    for attr, setting in _NLTK_SETTINGS.get(name, {}).items():
        mangled = f"_{algorithm.__name__}__{attr}"
        if type(setting) is tuple:  # suffixes to drop (an empty tuple drops them all)
            current = getattr(algorithm, mangled)
            setting = tuple(x for x in current if x not in setting) if setting else ()
        setattr(snowball.stemmer, mangled, setting)


# Letters the algorithm uses as markers (a u/i/y acting as a consonant) and lower-cases at the end:
# an upper-case U, I or Y in the input is treated (and lower-cased) like one by the jar.
_CASE_MARKERS = {"german": "UY", "french": "IUY"}
_CASE_OFFSET = 0xF0000  # upper-case letters travel through NLTK as plane-15 private-use characters


def _keep_case(nltk_stem: Stemmer, markers: str) -> Stemmer:
    """Stem like the case-sensitive jar: upper-case letters are consonants and stay upper-case.

    NLTK lower-cases its input; the jar's Java stemmers do not (``Fach`` stays
    ``Fach`` in German). Upper-case letters are handed to NLTK as private-use
    characters (consonants that no suffix contains) and put back afterwards.
    """
    lower_markers = str.maketrans(markers, markers.lower())

    def stem(word: str) -> str:
        if word.islower() or not any(c.isupper() for c in word) or any(ord(c) >= _CASE_OFFSET for c in word):
            return nltk_stem(word)
        hidden = "".join(chr(_CASE_OFFSET + ord(c)) if c.isupper() else c for c in word)
        result = nltk_stem(hidden)
        return "".join(chr(ord(c) - _CASE_OFFSET) if ord(c) >= _CASE_OFFSET else c for c in result).translate(
            lower_markers
        )

    return stem


_FIXES = {"german": _german, "french": _french}


def _turkish() -> Stemmer:
    """The ``snowballstemmer`` package's Turkish stemmer, with apostrophes treated as letters.

    Its algorithm cuts a word at an apostrophe (``Ankara'da``); the jar's older
    one treats ``'`` as an ordinary consonant, so we hand it over disguised.
    """
    import snowballstemmer

    turkish = snowballstemmer.stemmer("turkish")

    def stem(word: str) -> str:
        if "'" in word:
            return turkish.stemWord(word.replace("'", _PLACEHOLDER)).replace(_PLACEHOLDER, "'")
        return turkish.stemWord(word)

    return stem


_NLTK_LANGUAGES = frozenset({"french", "german", "finnish"})


def _snowball_class(name: str) -> type:
    """A private copy of ``snowballstemmer``'s class for ``name``: its tables can be set back without
    changing the package for anyone else in the process (the generated code reads them from its own class)."""
    import importlib.util

    spec = importlib.util.find_spec(f"snowballstemmer.{name}_stemmer")
    assert spec is not None and spec.origin is not None
    copy = importlib.util.spec_from_file_location(f"snowballstemmer._tmtprime_{name}", spec.origin)
    assert copy is not None and copy.loader is not None
    module = importlib.util.module_from_spec(copy)
    copy.loader.exec_module(module)
    return next(v for k, v in vars(module).items() if isinstance(v, type) and v.__module__ == module.__name__
                and k.endswith("Stemmer"))


def _drop_suffixes(cls: type, drop: frozenset[str]) -> None:
    """Remove the suffixes ``drop`` from the class's among tables, relinking each entry to its longest
    remaining suffix (what the backward search falls back to)."""
    from snowballstemmer.among import Among

    for attr, table in list(vars(cls).items()):
        if not (isinstance(table, list) and table and isinstance(table[0], Among)):
            continue
        if not any(a.s in drop for a in table):
            continue
        kept = [a for a in table if a.s not in drop]
        index = {a.s: i for i, a in enumerate(kept)}
        setattr(cls, attr, [Among(a.s, next((index[a.s[k:]] for k in range(1, len(a.s)) if a.s[k:] in index), -1),
                                  a.result, a.method) for a in kept])


class _AnyNonVowel:
    """A Snowball grouping holding every character but the vowels (the jar's ``non-v``: digits too)."""

    def __init__(self, vowels: set[str]) -> None:
        self.vowels = frozenset(vowels)

    def __contains__(self, char: object) -> bool:
        return char not in self.vowels


def _set_result(cls: type, results: dict[str, int]) -> None:
    """Give the suffixes ``results`` another action (their ``among`` result) in the class's tables."""
    for table in vars(cls).values():
        if isinstance(table, list):
            for entry in table:
                if getattr(entry, "s", None) in results:
                    entry.result = results[entry.s]


def _older_swedish(cls: type) -> None:
    """No ``-et``/``-ets`` rules (``-s`` goes after any s-ending letter); ``-öst`` is rewritten only in ``löst``."""
    _drop_suffixes(cls, frozenset({"et"}))
    setattr(cls, "_SwedishStemmer__r_et_condition", lambda self: False)
    cls.g_ost_ending = {"l"}


def _older_norwegian(cls: type) -> None:
    """``-ers`` is always deleted (now only after some letters), and ``r`` is an s-ending letter."""
    _set_result(cls, {"ers": 1})
    cls.g_s_ending = set(cls.g_s_ending) | {"r"}


def _older_danish(cls: type) -> None:
    """Undouble any final double non-vowel inside R1 (``pack200`` -> ``pack20``), not only consonants."""
    cls.g_undouble_c = _AnyNonVowel(cls.g_v)


# How the jar's (2010) algorithms differ from snowballstemmer's, as changes to its class.
_OLDER: dict[str, Callable[[type], None]] = {
    "spanish": lambda cls: _drop_suffixes(cls, frozenset({"acion", "ucion"})),
    "portuguese": lambda cls: _drop_suffixes(cls, frozenset({"ança", "anças", "uça~o", "uço~es"})),
    "norwegian": _older_norwegian,
    "swedish": _older_swedish,
    "danish": _older_danish,
}


def _snowball(name: str) -> Stemmer:
    """``snowballstemmer``'s algorithm for ``name``, set back to the jar's where Snowball has changed."""
    algorithm = "dutch_porter" if name == "dutch" else name
    if name in _OLDER:
        cls = _snowball_class(algorithm)
        _OLDER[name](cls)
        stem_word = cls().stemWord
    else:
        import snowballstemmer

        stem_word = snowballstemmer.stemmer(algorithm).stemWord
    return _SNOWBALL_FIXES.get(name, lambda f: f)(stem_word)


def _russian_yo(stem_word: Stemmer) -> Stemmer:
    """``ё`` is a consonant for the jar (Snowball now reads it as ``е``): it travels as a private-use letter."""
    hide, show = str.maketrans("ёЁ", "\ue001\ue002"), str.maketrans("\ue001\ue002", "ёЁ")

    def stem(word: str) -> str:
        if "ё" in word or "Ё" in word:
            return stem_word(word.translate(hide)).translate(show)
        return stem_word(word)

    return stem


def _romanian_cedilla(stem_word: Stemmer) -> Stemmer:
    """The jar's tables spell ``ş ţ`` with a cedilla and know no comma-below ``ș ț``; Snowball reads both as
    comma-below. Comma letters travel as private-use letters; the comma letters Snowball gives back were
    cedillas."""
    hide, show = str.maketrans("șțȘȚ", "\ue001\ue002\ue003\ue004"), str.maketrans(
        "\ue001\ue002\ue003\ue004șțȘȚ", "șțȘȚşţŞŢ")

    def stem(word: str) -> str:
        return stem_word(word.translate(hide)).translate(show)

    return stem


def _hungarian_latin1(stem_word: Stemmer) -> Stemmer:
    """The jar's tables were generated with ``õ û`` (Latin-1) where Hungarian has ``ő ű`` (double acute): the
    jar reads ``ő ű`` as consonants and ``õ û`` as the vowels. They swap places on the way through Snowball."""
    there = str.maketrans("őűŐŰõûÕÛ", "\ue005\ue006\ue007\ue008őűŐŰ")
    back = str.maketrans("\ue005\ue006\ue007\ue008őűŐŰ", "őűŐŰõûÕÛ")

    def stem(word: str) -> str:
        return stem_word(word.translate(there)).translate(back)

    return stem


_SNOWBALL_FIXES: dict[str, Callable[[Stemmer], Stemmer]] = {
    "russian": _russian_yo, "romanian": _romanian_cedilla, "hungarian": _hungarian_latin1}


@cache
def stemmer(lang: str) -> Stemmer:
    """The jar's stemming function for ``lang`` (cached per word); ResourceError if the jar has none."""
    name = language_name(lang)
    if name not in SNOWBALL_LANGUAGES:
        raise ResourceError(f"No stemmer for language ({name})")
    if name == "english":
        return lru_cache(maxsize=1 << 16)(english_stemmer.stem)
    if name == "turkish":
        return lru_cache(maxsize=1 << 16)(_turkish())
    if name not in _NLTK_LANGUAGES:
        return lru_cache(maxsize=1 << 16)(_snowball(name))
    from nltk.stem.snowball import SnowballStemmer

    snowball = SnowballStemmer(name)
    _configure(snowball, name)
    base: Stemmer = snowball.stem
    if name in _FIXES:
        base = _FIXES[name](base)
    return lru_cache(maxsize=1 << 16)(_keep_case(base, _CASE_MARKERS.get(name, "")))
