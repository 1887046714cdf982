"""Per-language Meteor resources, loaded lazily and cached.

Scoring one English sentence must not pay for German prefixes or the
synonym table, so every accessor loads its file on first use only.

* :func:`function_words` — the jar's ``function/<language>.words`` (one word per
  line; en 93, fr 85, de 92, es 66, cz 68, ru 62 words, every other language
  none). The words are compared with normalized (lower-cased) tokens.
* :func:`nonbreaking_prefixes` — the jar's Moses-format
  ``nonbreaking/<language>.prefixes`` (``#`` comments, ``X #NUMERIC_ONLY#``);
  Czech has none.
* :func:`stemmer` (from :mod:`tmtprime.meteor.stemmers`) — Snowball stems as the
  jar computes them; ``ResourceError("No stemmer for language (czech)")``.
* :func:`synonyms` — the English :class:`~tmtprime.meteor.synonyms.SynonymDictionary`
  (see that module for exactly how the jar's synonym matcher decides).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tmtprime.errors import ResourceError
from tmtprime.meteor.languages import language_name
from tmtprime.meteor.stemmers import stemmer
from tmtprime.paths import resources_dir

if TYPE_CHECKING:
    from tmtprime.meteor.synonyms import SynonymDictionary

__all__ = [
    "SynonymDictionary", "function_words", "load_function_words", "meteor_resource", "nonbreaking_prefixes",
    "stemmer", "synonyms",
]  # fmt: skip


def meteor_resource(*parts: str) -> Path:
    """Path of a file under ``resources/meteor/`` (may not exist)."""
    return resources_dir().joinpath("meteor", *parts)


@cache
def function_words(lang: str) -> frozenset[str]:
    """The jar's function words of ``lang`` (empty for languages it has none for)."""
    path = meteor_resource("function", f"{language_name(lang)}.words")
    return load_function_words(path) if path.exists() else frozenset()


def load_function_words(path: str | Path) -> frozenset[str]:
    """A function-word list in the jar's format (one word per line), e.g. for ``-s FILE`` or ``-new DIR``."""
    try:
        with open(path, encoding="utf-8") as f:
            return frozenset(w for w in (line.strip() for line in f) if w)
    except (OSError, UnicodeDecodeError) as error:
        raise ResourceError(f"function word list {path} cannot be read ({error})") from None


@cache
def nonbreaking_prefixes(lang: str) -> dict[str, int]:
    """Moses non-breaking prefixes of ``lang``: prefix -> 1 (always) or 2 (only before a digit)."""
    path = meteor_resource("nonbreaking", f"{language_name(lang)}.prefixes")
    prefixes: dict[str, int] = {}
    if not path.exists():
        return prefixes
    with open(path, encoding="utf-8") as f:
        for raw in f:
            item = raw.strip()
            if not item or item.startswith("#"):
                continue
            word, _, flag = item.partition(" ")
            if flag.strip() == "#NUMERIC_ONLY#":
                prefixes[word] = 2
            else:
                prefixes[item] = 1
    return prefixes


def __getattr__(name: str) -> Any:
    """``resources.SynonymDictionary`` without importing numpy for callers that only tokenize."""
    if name == "SynonymDictionary":
        from tmtprime.meteor.synonyms import SynonymDictionary

        return SynonymDictionary
    raise AttributeError(name)


@cache
def synonyms() -> SynonymDictionary:
    """The English synonym dictionary (WordNet 3.0 via the jar), loaded on first use."""
    from tmtprime.meteor.synonyms import SynonymDictionary

    path = meteor_resource("synonym", "english-synonyms.npz")
    if not path.exists():
        raise ResourceError(
            f"Synonym dictionary could not be loaded: {path} is missing "
            "(rebuild with python -m tmtprime.meteor.build_resources)"
        )
    return SynonymDictionary.load(path)
