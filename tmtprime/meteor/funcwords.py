"""Function-word lists learned from a monolingual corpus (Meteor 1.3, seed 003).

Any word whose relative frequency in the corpus is at least 1e-3 is a
function word; punctuation rises to the top of such lists as it does in the
paper. The same definition gives the "common words" of the pivot filters of
seed 000, so :mod:`tmtprime.meteor.pivot` uses :func:`frequent_words` too.
Words are counted as the scorer tokenizes them (``-norm`` tokens, or
lower-cased whitespace tokens for a language without a normalizer), so a
learned list is usable as is with ``Meteor(function_words_file=...)`` / ``-s FILE``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from tmtprime.errors import ResourceError
from tmtprime.meteor.languages import language_name
from tmtprime.meteor.normalize import NORMALIZER_LANGUAGES, tokenize
from tmtprime.progress import Reporter

MIN_RELATIVE_FREQUENCY = 1e-3


def scorer_tokens(line: str, lang: str) -> list[str]:
    """``line`` as the scorer with ``-norm`` tokenizes it (``-lower`` for a language without a normalizer)."""
    mode = "norm" if language_name(lang) in NORMALIZER_LANGUAGES else "lower"
    return tokenize(line, lang, mode)


def frequent_words(counts: Counter, min_frequency: float = MIN_RELATIVE_FREQUENCY) -> list[str]:
    """Words of relative frequency >= ``min_frequency``, most frequent first (ties alphabetical)."""
    total = sum(counts.values())
    if total == 0:
        return []
    floor = min_frequency * total
    return [w for w, c in sorted(counts.items(), key=lambda wc: (-wc[1], wc[0])) if c >= floor]


def count_words(lines: Iterable[str], lang: str, reporter: Reporter | None = None) -> Counter:
    """Token counts of a corpus (one segment per item), tokenized as the scorer does."""
    reporter = reporter or Reporter()
    counts: Counter = Counter()
    reporter.status("counting words")
    for n, line in enumerate(lines, start=1):
        counts.update(scorer_tokens(line, lang))
        if n % 10_000 == 0:
            reporter.check()
            reporter.progress(n, None)
    reporter.finish_phase()
    return counts


def learn_function_words(
    lines: Iterable[str], lang: str, min_frequency: float = MIN_RELATIVE_FREQUENCY, reporter: Reporter | None = None
) -> list[str]:
    """The function words of a monolingual corpus: relative frequency >= ``min_frequency`` (1e-3 in seed 003)."""
    if not 0 < min_frequency < 1:
        raise ResourceError(f"the minimum relative frequency must be between 0 and 1, got {min_frequency}")
    return frequent_words(count_words(lines, lang, reporter), min_frequency)


def write_word_list(words: Iterable[str], path: str | Path) -> None:
    """One word per line, the format of the jar's ``function/*.words`` and of ``-s FILE``."""
    try:
        Path(path).write_text("".join(w + "\n" for w in words), encoding="utf-8")
    except OSError as error:
        raise ResourceError(f"cannot write the word list {path} ({error.strerror})") from None
