"""Snowball stemmers as the Meteor 1.5 jar applies them (stem matcher).

The jar ships the 2010-era Java Snowball stemmers for danish dutch english
finnish french german hungarian italian norwegian portuguese romanian
russian spanish swedish turkish (all available here); Czech and "other" have
none (``No stemmer for language (czech)``). We use NLTK's ``SnowballStemmer``
corrected where the jar differs (English is our own,
:mod:`tmtprime.meteor.english_stemmer`; Turkish comes from ``snowballstemmer``),
stem number-like tokens as the jar's stem matcher does, and keep case as the
jar does (:func:`_keep_case`). Each correction and the measured agreement
with the jar: docs/experiments/meteor-alignment.md.
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

_PLACEHOLDER = "\ue000"  # a private-use character: a consonant for every NLTK stemmer


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


_ITALIAN_VOWELS = "aeiouàèìòù"
_ITALIAN_ACCENTS = str.maketrans("áéíóú", "àèìòù")


def _italian(nltk_stem: Stemmer, r1r2: Callable[[str, str], tuple[str, str]]) -> Stemmer:
    def stem(word: str) -> str:
        lower = word.lower()
        if lower.endswith(("enza", "enze")):
            marked = _italian_prelude(lower)
            if r1r2(marked, _ITALIAN_VOWELS)[1].endswith(marked[-4:]):
                return (marked[:-4] + "ent").replace("I", "i").replace("U", "u")
        return nltk_stem(word)

    return stem


def _italian_prelude(word: str) -> str:
    """Snowball Italian prelude: accents to grave, ``qu`` -> ``qU``, ``u``/``i`` between vowels upper-cased."""
    chars = list(word.translate(_ITALIAN_ACCENTS).replace("qu", "qU"))
    for i in range(1, len(chars) - 1):
        if chars[i] in "ui" and chars[i - 1] in _ITALIAN_VOWELS and chars[i + 1] in _ITALIAN_VOWELS:
            chars[i] = chars[i].upper()
    return "".join(chars)


_DANISH_VOWELS = frozenset("aeiouyæåø")


def _danish(nltk_stem: Stemmer) -> Stemmer:
    """Undouble a final double non-vowel (digits too: ``pack200`` -> ``pack20``) only inside R1."""

    def stem(word: str) -> str:
        result = nltk_stem(word)
        lower = word.lower()
        double = len(result) >= 2 and result[-1] == result[-2] and result[-1] not in _DANISH_VOWELS
        if double and len(result) - 1 >= _danish_r1(lower):
            return result[:-1]
        return result

    return stem


def _danish_r1(word: str) -> int:
    """Start of R1: after the first non-vowel following a vowel, at least 3; the end if there is no vowel."""
    for i in range(1, len(word)):
        if word[i] not in _DANISH_VOWELS and word[i - 1] in _DANISH_VOWELS:
            return max(i + 1, 3)
    return len(word)


_PORTUGUESE_VOWELS = "aeiouáéíóúâêô"


def _portuguese(nltk_stem: Stemmer, r1r2: Callable[[str, str], tuple[str, str]]) -> Stemmer:
    """Keep ``ü`` (NLTK folds it to ``u``); after ``-mente`` strip ``ível`` but not ``ivel`` (NLTK: the reverse)."""

    def stem(word: str) -> str:
        lower = word.lower()
        if "ü" in lower:
            return nltk_stem(lower.replace("ü", _PLACEHOLDER)).replace(_PLACEHOLDER, "ü")
        result = nltk_stem(word)
        if lower.endswith("ivelmente") and result == lower[:-9]:
            return lower[:-5]
        if lower.endswith("ívelmente") and result == lower[:-5]:
            r2 = r1r2(lower.replace("ã", "a~").replace("õ", "o~"), _PORTUGUESE_VOWELS)[1]
            if len(r2) >= 9:
                return lower[:-9]
        return result

    return stem


_RUSSIAN_VOWELS = frozenset("аеиоуыэюя")
# Letters in no suffix rule whose transliteration NLTK confuses: ё (a consonant for the jar), ъ (comes
# back as ь), ч (ш + ч comes back as щ).
_RUSSIAN_PROTECTED = frozenset("ёъч")
_RUSSIAN_ADJECTIVE_ENDINGS = (
    "ее", "ие", "ые", "ое", "ими", "ыми", "ей", "ий", "ый", "ой", "ем", "им", "ым", "ом", "его", "ого", "ему",
    "ому", "их", "ых", "ую", "юю", "ая", "яя", "ою", "ею",
)  # fmt: skip


def _russian(nltk_stem: Stemmer) -> Stemmer:
    """NLTK stems a Latin transliteration: protect what it would mangle, and redo what it misses.

    ``ё`` is not a vowel for the jar (NLTK folds it to ``е``), ``ъ`` and ``шч`` come
    back as ``ь`` and ``щ``, Latin letters in a Cyrillic token come back as Cyrillic; a word without a vowel has an
    empty RV, so nothing is removed (NLTK still undoubles ``нн``); and the
    participle ``-ующ-`` before an adjective ending is lost in transliteration.
    """

    def stem(word: str) -> str:
        lower = word.lower()
        if not any(c in _RUSSIAN_VOWELS for c in lower):
            return lower
        protected = "".join(chr(0xE000 + ord(c)) if c in _RUSSIAN_PROTECTED or c.isascii() and c.isalpha() else c
                            for c in lower)
        result = "".join(chr(ord(c) - 0xE000) if "\ue000" <= c <= "\ue4ff" else c for c in nltk_stem(protected))
        if result.endswith("ующ") and any(lower == result + e for e in _RUSSIAN_ADJECTIVE_ENDINGS):
            rv = next(i + 1 for i, c in enumerate(lower) if c in _RUSSIAN_VOWELS)
            if len(result) - 3 >= rv:
                return result[:-3]
        return result

    return stem


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
    "spanish": {"step1_suffixes": ("acion", "ucion"), "step2b_suffixes": ("éamos",)},
    "portuguese": {"step1_suffixes": ("ança", "anças", "uça~o", "uço~es")},
    "danish": {"double_consonants": ()},  # undoubling is redone by _danish, inside R1
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
_CASE_MARKERS = {"german": "UY", "french": "IUY", "italian": "IU", "dutch": "IY", "romanian": "IU"}
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


_FIXES = {"german": _german, "french": _french, "danish": _danish, "russian": _russian}
_FIXES_WITH_REGIONS = {"italian": _italian, "portuguese": _portuguese}


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
    from nltk.stem.snowball import SnowballStemmer

    snowball = SnowballStemmer(name)
    _configure(snowball, name)
    base: Stemmer = snowball.stem
    if name in _FIXES_WITH_REGIONS:
        base = _FIXES_WITH_REGIONS[name](base, snowball.stemmer._r1r2_standard)
    elif name in _FIXES:
        base = _FIXES[name](base)
    return lru_cache(maxsize=1 << 16)(_keep_case(base, _CASE_MARKERS.get(name, "")))
