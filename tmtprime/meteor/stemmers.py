"""Snowball stemmers as the Meteor 1.5 jar applies them (stem matcher).

The jar ships the 2010-era Java Snowball stemmers for danish dutch english
finnish french german hungarian italian norwegian portuguese romanian
russian spanish swedish turkish (all available here); Czech and "other" have
none (``No stemmer for language (czech)``). English is our own
(:mod:`tmtprime.meteor.english_stemmer`). The others are the pure-Python classes
of the ``snowballstemmer`` package (only the one language's module is loaded,
:func:`_snowball_class`; never PyStemmer, even when installed), set back to the jar's
older algorithms where Snowball has changed since (:data:`_OLDER`,
:func:`_snowball`); they are case-sensitive like the jar. No language
imports NLTK (its import costs most of a second). Number-like tokens are
stemmed as the jar's stem matcher does.
Each correction and the measured agreement with the jar:
docs/experiments/meteor-alignment.md and ``bench/meteor_stemmers.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from tmtprime.errors import ResourceError
from tmtprime.meteor.languages import language_name

SNOWBALL_LANGUAGES = frozenset(
    {"danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian", "norwegian",
     "portuguese", "romanian", "russian", "spanish", "swedish", "turkish"}
)  # fmt: skip

Stemmer = Callable[[str], str]

_PLACEHOLDER = "\ue000"  # a private-use character: a consonant for every stemmer


_PRIVATE_PACKAGE = "_tmtprime_snowball"


def _snowball_class(name: str) -> type:
    """A private copy of ``snowballstemmer``'s class for ``name``: its tables can be set back without
    changing the package for anyone else in the process (the generated code reads them from its own class).

    WHY not through ``snowballstemmer`` itself: its ``__init__`` builds every one of its 36 stemmers (30-100 ms,
    the largest part of a one-pair run's start-up); the copy is loaded as a module of a private package
    pointing at the same directory, so only this language's module and its two helpers are read.
    """
    import importlib.machinery
    import importlib.util
    import sys

    package = sys.modules.get(_PRIVATE_PACKAGE)
    if package is None:
        found = importlib.util.find_spec("snowballstemmer")  # a top-level spec: the package is not run
        assert found is not None and found.submodule_search_locations is not None
        spec = importlib.machinery.ModuleSpec(_PRIVATE_PACKAGE, None, is_package=True)
        spec.submodule_search_locations = list(found.submodule_search_locations)
        package = sys.modules[_PRIVATE_PACKAGE] = importlib.util.module_from_spec(spec)
    copy = importlib.machinery.PathFinder.find_spec(f"{_PRIVATE_PACKAGE}.{name}_stemmer", package.__path__)
    assert copy is not None and copy.loader is not None
    module = importlib.util.module_from_spec(copy)  # not kept in sys.modules: each call gets fresh tables
    copy.loader.exec_module(module)
    return next(v for k, v in vars(module).items() if isinstance(v, type) and v.__module__ == module.__name__
                and k.endswith("Stemmer"))


def _drop_suffixes(cls: type, drop: frozenset[str]) -> None:
    """Remove the suffixes ``drop`` from the class's among tables, relinking each entry to its longest
    remaining suffix (what the backward search falls back to)."""
    import importlib

    Among = importlib.import_module(f"{_PRIVATE_PACKAGE}.among").Among  # the copies' own class (_snowball_class)
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


def _table(cls: type, member: str) -> list:
    """The one among table of the class that holds the string ``member``."""
    tables = [t for t in vars(cls).values() if isinstance(t, list) and any(getattr(a, "s", None) == member for a in t)]
    assert len(tables) == 1, (cls.__name__, member, len(tables))
    return tables[0]


def _set_result(table: list, results: dict[str, int]) -> None:
    """Give the strings ``results`` another action (their ``among`` result) in this table."""
    for entry in table:
        if entry.s in results:
            entry.result = results[entry.s]


def _never(_stemmer: object) -> bool:
    return False


def _disable(table: list, strings: set[str]) -> None:
    """Entries that never match: the search falls back to the shorter strings, as if they were not in the table."""
    for entry in table:
        if entry.s in strings:
            entry.method = _never


def _older_swedish(cls: type) -> None:
    """No ``-et``/``-ets`` rules (``-s`` goes after any s-ending letter); ``-öst`` is rewritten only in ``löst``."""
    _drop_suffixes(cls, frozenset({"et"}))
    setattr(cls, "_SwedishStemmer__r_et_condition", lambda self: False)
    cls.g_ost_ending = {"l"}


def _older_norwegian(cls: type) -> None:
    """``-ers`` is always deleted (now only after some letters), and ``r`` is an s-ending letter."""
    _set_result(_table(cls, "ers"), {"ers": 1})
    cls.g_s_ending = set(cls.g_s_ending) | {"r"}


def _older_danish(cls: type) -> None:
    """Undouble any final double non-vowel inside R1 (``pack200`` -> ``pack20``), not only consonants."""
    cls.g_undouble_c = _AnyNonVowel(cls.g_v)


def _older_german(cls: type) -> None:
    """No ``ae oe ue`` -> ``ä ö ü``, no ``-erin(nen) -ln(s) -et`` rules, ``-niss`` stays, no ``-syst-em`` exception,
    and apostrophes are letters."""
    _set_result(_table(cls, "ae"), {"ae": -1, "oe": -1, "ue": -1})  # stepped over like any other pair
    step1 = _table(cls, "erin")
    plain = next(a.result for a in step1 if a.s == "ern")
    _set_result(step1, dict.fromkeys(("e", "em", "en", "es"), plain))
    _disable(step1, {"erin", "erinnen", "ln", "lns"})
    _disable(_table(cls, "et"), {"et"})
    _disable(_table(cls, "'s"), {"'", "'s", "'sch"})


_E_DIAERESIS, _I_DIAERESIS = "\ue001", "\ue002"  # French stand-ins: vowels for the class (_older_french)
# French: the apostrophe (no elisions removed), H (Snowball deletes it at the end) and ë ï (Snowball spells them
# He Hi inside) travel as private-use letters.
_FRENCH_STAND_INS = ("'H" "ëï", _PLACEHOLDER + "\ue003" + _E_DIAERESIS + _I_DIAERESIS)


def _older_french(cls: type) -> None:
    """No ``ni`` exception, ``-oux`` or ``-aise(s)``/``-eais`` rules (``-ais`` is an ordinary verb ending); ``ë ï``
    are plain vowels (see :data:`_FRENCH_STAND_INS`) and a final ``ë`` after ``gu`` in RV goes."""
    _disable(_table(cls, "ni"), {"ni"})
    _disable(_table(cls, "oux"), {"oux"})
    verb = _table(cls, "eraIent")
    _set_result(verb, {"ais": next(a.result for a in verb if a.s == "asse")})
    _disable(verb, {"aise", "aises", "eais"})
    cls.g_v = set(cls.g_v) | {_E_DIAERESIS, _I_DIAERESIS}
    residual = getattr(cls, "_FrenchStemmer__r_residual_suffix")

    def residual_suffix(self) -> bool:
        if residual(self):
            return True
        start = self.limit - 3
        if start < self.I_pV or self.current[start:self.limit] != "gu" + _E_DIAERESIS:
            return False
        self.bra, self.ket = self.limit - 1, self.limit
        self.slice_del()
        return True

    setattr(cls, "_FrenchStemmer__r_residual_suffix", residual_suffix)


class _Refused(Exception):
    """A Finnish ``-hVn`` ending without its vowel: the jar's case-ending routine then removes nothing."""


def _after(letter: str) -> Callable[[object], bool]:
    """The jar's check of the vowel before an illative ``-hVn`` (made past R1's limit). Snowball now falls back to
    ``-n`` when it fails; the jar's routine fails instead, so a failure is raised to :func:`_older_finnish`."""

    def condition(self) -> bool:
        if self.cursor > 0 and self.current[self.cursor - 1] == letter:
            return True
        raise _Refused

    return condition


def _older_finnish(cls: type) -> None:
    """The jar's conditions on ``-siin -seen -den -tten`` never succeed (its Java runtime runs them on another
    stemmer object), so they fall back to ``-n``; no ``-hun``; ``-hVn`` needs exactly that vowel before it; every
    non-vowel is a consonant (digits, ``š``); apostrophes are letters (:data:`_SNOWBALL_FIXES`)."""
    cls.g_C = _AnyNonVowel(cls.g_v)
    case = _table(cls, "siin")
    _disable(case, {"siin", "seen", "den", "tten", "hun"})
    for entry in case:
        if entry.s in ("han", "hen", "hin", "hon", "hän", "hön"):
            entry.method = _after(entry.s[1])
    case_ending = getattr(cls, "_FinnishStemmer__r_case_ending")

    def strict_case_ending(self) -> bool:
        limit_backward = self.limit_backward
        try:
            return case_ending(self)
        except _Refused:
            self.limit_backward = limit_backward
            return False

    setattr(cls, "_FinnishStemmer__r_case_ending", strict_case_ending)


# How the jar's (2010) algorithms differ from snowballstemmer's, as changes to its class.
_OLDER: dict[str, Callable[[type], None]] = {
    "spanish": lambda cls: _drop_suffixes(cls, frozenset({"acion", "ucion"})),
    "portuguese": lambda cls: _drop_suffixes(cls, frozenset({"ança", "anças", "uça~o", "uço~es"})),
    "norwegian": _older_norwegian,
    "swedish": _older_swedish,
    "danish": _older_danish,
    "german": _older_german,
    "french": _older_french,
    "finnish": _older_finnish,
}


def _snowball(name: str, fast: bool = True) -> Stemmer:
    """``snowballstemmer``'s algorithm for ``name``, set back to the jar's where Snowball has changed; ``fast``:
    its table lookups by dictionary (:mod:`tmtprime.meteor.snowball_search`; False: Snowball's own, to compare)."""
    cls = _snowball_class("dutch_porter" if name == "dutch" else name)
    _OLDER.get(name, lambda _cls: None)(cls)
    if fast:
        from tmtprime.meteor import snowball_search

        snowball_search.use_dictionaries(cls)
    return _SNOWBALL_FIXES.get(name, lambda f: f)(cls().stemWord)


def _travelling(letters: str, stand_ins: str) -> Callable[[Stemmer], Stemmer]:
    """A fix handing ``letters`` to Snowball as ``stand_ins`` (private-use letters) and turning them back after."""
    there, back = str.maketrans(letters, stand_ins), str.maketrans(stand_ins, letters)

    def fix(stem_word: Stemmer) -> Stemmer:
        def stem(word: str) -> str:
            return stem_word(word.translate(there)).translate(back)

        return stem

    return fix


def _romanian_cedilla(stem_word: Stemmer) -> Stemmer:
    """The jar's tables spell ``ş ţ`` with a cedilla and know no comma-below ``ș ț``; Snowball reads both as
    comma-below. Comma letters travel as private-use letters; the comma letters Snowball gives back were
    cedillas."""
    hide, show = str.maketrans("șțȘȚ", "\ue001\ue002\ue003\ue004"), str.maketrans(
        "\ue001\ue002\ue003\ue004șțȘȚ", "șțȘȚşţŞŢ")

    def stem(word: str) -> str:
        return stem_word(word.translate(hide)).translate(show)

    return stem


_SNOWBALL_FIXES: dict[str, Callable[[Stemmer], Stemmer]] = {
    # ё is a consonant for the jar (Snowball now reads it as е)
    "russian": _travelling("ёЁ", "\ue001\ue002"),
    "romanian": _romanian_cedilla,
    # the jar's tables were generated with Latin-1 õ û where Hungarian has ő ű (double acute): the jar reads ő ű
    # as consonants and õ û as the vowels, so the two pairs swap places on the way through Snowball
    "hungarian": _travelling("őűŐŰõûÕÛ", "\ue005\ue006\ue007\ue008őűŐŰ"),
    "french": _travelling(*_FRENCH_STAND_INS),
    # apostrophes are ordinary letters for the jar; Snowball now strips or skips them (Finnish) or cuts the word
    # at one (Turkish ``Ankara'da``)
    "finnish": _travelling("'", _PLACEHOLDER),
    "turkish": _travelling("'", _PLACEHOLDER),
}


@cache
def stemmer(lang: str) -> Stemmer:
    """The jar's stemming function for ``lang`` (cached per word); ResourceError if the jar has none."""
    name = language_name(lang)
    if name not in SNOWBALL_LANGUAGES:
        raise ResourceError(f"No stemmer for language ({name})")
    if name == "english":
        from tmtprime.meteor import english_stemmer

        return lru_cache(maxsize=1 << 16)(english_stemmer.stem)
    return lru_cache(maxsize=1 << 16)(_snowball(name))
