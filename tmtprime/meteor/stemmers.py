"""Snowball stemmers as the Meteor 1.5 jar applies them (stem matcher).

The jar ships the 2010-era Java Snowball stemmers for danish dutch english
finnish french german hungarian italian norwegian portuguese romanian
russian spanish swedish turkish; Czech and "other" have none (``No stemmer for
language (czech)``). We wrap NLTK's ``SnowballStemmer`` and correct it where
its algorithm versions differ from the jar's (measured with the jar's own
``Stemmer`` tool on every word of our test corpora, see the tests).

Stems are computed on the token as given: the jar does not lower-case before
stemming (``Running`` -> ``Run``), which only matters without ``-norm``/``-lower``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

from tmtprime.errors import ResourceError
from tmtprime.meteor.languages import language_name

SNOWBALL_LANGUAGES = frozenset(
    {"danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian", "norwegian",
     "portuguese", "romanian", "russian", "spanish", "swedish"}
)  # fmt: skip


@cache
def stemmer(lang: str) -> Callable[[str], str]:
    """The jar's stemming function for ``lang`` (cached per word); ResourceError if the jar has none."""
    name = language_name(lang)
    if name not in SNOWBALL_LANGUAGES:
        raise ResourceError(f"No stemmer for language ({name})")
    from nltk.stem.snowball import SnowballStemmer

    snowball = SnowballStemmer(name)

    @lru_cache(maxsize=1 << 16)
    def stem(word: str) -> str:
        return snowball.stem(word)

    return stem
