"""Language codes as the Meteor 1.5 jar understands them (``-l``).

The jar accepts a short code or the full English name, case-insensitively, and
maps both to a canonical lower-case name that selects every per-language
resource (``function/<name>.words``, ``nonbreaking/<name>.prefixes``, the
Snowball stemmer, the task parameters). Learned by running the jar:

* ``en english cz cs czech de german es spanish fr french`` are fully supported;
* ``da fi hu it nl no pt ro ru se sv tr`` (and their names) use the
  language-independent parameters;
* ``ar-bw-red`` / ``arabic-buckwalter-reduced`` is experimental;
* ``other`` and, oddly, ``xx`` mean "other";
* anything else (``ar``, ``ja``, ``eng``, ``nb`` ...) is rejected with
  ``Unknown language (<code as given>)``.
"""

from __future__ import annotations

from tmtprime.errors import UsageError

_CODES: dict[str, str] = {
    "en": "english",
    "cz": "czech",
    "cs": "czech",
    "de": "german",
    "es": "spanish",
    "fr": "french",
    "da": "danish",
    "fi": "finnish",
    "hu": "hungarian",
    "it": "italian",
    "nl": "dutch",
    "no": "norwegian",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "se": "swedish",
    "sv": "swedish",
    "tr": "turkish",
    "ar-bw-red": "arabic-buckwalter-reduced",
    "xx": "other",
}

LANGUAGE_NAMES: frozenset[str] = frozenset(_CODES.values()) | {"other"}
"""Every canonical language name the jar knows."""

FULLY_SUPPORTED: tuple[str, ...] = ("english", "czech", "german", "spanish", "french")
"""Languages with their own tuned parameters, function words and normalizer rules."""


def language_name(lang: str) -> str:
    """Canonical name (``"english"``) of a jar language code or name (``"en"``, ``"EN"``, ``"English"``).

    Raises :class:`UsageError` with the jar's wording for an unknown language.
    """
    key = lang.strip().lower()
    if key in LANGUAGE_NAMES:
        return key
    try:
        return _CODES[key]
    except KeyError:
        raise UsageError(f"Unknown language ({lang})") from None
