"""Copy knowledge (Meteor++, seed 004): words a good translation must carry over unchanged.

Some words survive any paraphrase: names, numbers, placeholders, product
terms. A hypothesis that drops one loses information, one that adds one adds
information, and plain Meteor charges neither more than any other word. The
*copy words* are extracted from text pairs where they are kept verbatim
(paraphrase pairs; a TM's source and target, where untranslated names and
placeholders are exactly such words):

    copy words = {w : C(w) >= F and p_w >= P},  p_w = C(co_w) / C(w)

with ``C(w)`` the number of pairs in which ``w`` occurs (on either side) and
``C(co_w)`` those in which it occurs on both. Per segment, named entities are
copy words too; NLTK's NE chunker needs data that cannot be fetched here, so
the fallback takes capitalised words that do not start a sentence, and
numbers. The corrected precision and recall of the seed replace P and R:

    P~ = (P * X + sum_i m_i(h_p)) / (X + |h_p|),  R~ = (R * X + sum_i m_i(r_p)) / (X + |r_p|)

``|h_p|``: copy words in the hypothesis, ``m_i(h_p)``: those matched by
module i; ``X`` smooths (the seed used 6 to 14). Without copy words in a
segment P~ = P and R~ = R, so the score is unchanged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tmtprime.errors import InputError, UsageError
from tmtprime.meteor.stats import ScoreParts, java_div

DEFAULT_SMOOTHING = 10.0

_WORD = re.compile(r"\w+(?:['.-]\w+)*")
_SENTENCE_END = re.compile(r"[.!?:;]['\")\]]*$")


def extract_copy_words(
    pairs: Iterable[tuple[Sequence[str], Sequence[str]]], min_count: int = 2, min_probability: float = 0.8
) -> dict[str, tuple[int, float]]:
    """``{w: (C(w), p_w)}`` for the words with ``C(w) >= min_count`` (F) and ``p_w >= min_probability`` (P).

    ``pairs`` are token lists (lower-case them as the scorer will): paraphrase
    pairs, (hypothesis, reference) pairs people judged good, or a TM's
    (source, target) pairs.
    """
    seen: Counter[str] = Counter()
    both: Counter[str] = Counter()
    for a, b in pairs:
        sa, sb = set(a), set(b)
        seen.update(sa | sb)
        both.update(sa & sb)
    out: dict[str, tuple[int, float]] = {}
    for word, count in seen.items():
        p = both[word] / count
        if count >= min_count and p >= min_probability and any(ch.isalnum() for ch in word):
            out[word] = (count, p)
    return out


def named_entities(text: str) -> set[str]:
    """The capitalisation fallback for a NE tagger: lower-cased words of ``text`` written with a capital
    letter not at a sentence start (``Paris``, ``GIMP``, ``iPhone``), and words with a digit (``2016``, ``v3``)."""
    out: set[str] = set()
    sentence_start = True
    for raw in text.split():
        m = _WORD.search(raw)
        if m is not None:
            word = m.group(0)
            if any(ch.isdigit() for ch in word):
                out.add(word.lower())
            elif not sentence_start and any(ch.isupper() for ch in word):
                out.add(word.lower())
            sentence_start = False
        if _SENTENCE_END.search(raw):
            sentence_start = True
    return out


def read_copy_words(path: str | Path) -> frozenset[str]:
    """A copy-word list: one word per line, optionally followed by a tab and anything (counts); lower-cased."""
    try:
        with open(path, encoding="utf-8") as f:
            return frozenset(w for w in (line.split("\t", 1)[0].strip().lower() for line in f) if w)
    except OSError as error:
        raise InputError(f"copy-word list cannot be read ({error.strerror or error})", file=path) from None
    except UnicodeDecodeError:
        raise InputError("copy-word list is not UTF-8 text", file=path) from None


def write_copy_words(words: dict[str, tuple[int, float]], path: str | Path) -> None:
    """Write ``word<TAB>count<TAB>p`` lines, most frequent first (:func:`read_copy_words` reads them)."""
    with open(path, "w", encoding="utf-8") as f:
        for word, (count, p) in sorted(words.items(), key=lambda kv: (-kv[1][0], kv[0])):
            f.write(f"{word}\t{count}\t{p:.3f}\n")


@dataclass(frozen=True)
class CopyKnowledge:
    """Meteor++ copy knowledge for a scorer: a copy-word list and/or the NE fallback, and the smoothing X."""

    words: frozenset[str] = frozenset()
    named_entities: bool = True
    smoothing: float = DEFAULT_SMOOTHING
    source: str = "ne"
    """How the list was given (for the signature)."""

    @classmethod
    def from_spec(cls, spec: str, smoothing: float = DEFAULT_SMOOTHING) -> CopyKnowledge:
        """``ne``, ``FILE`` or ``FILE+ne`` (the ``--copy-words`` option)."""
        if smoothing < 0:
            raise UsageError(f"--copy-smoothing must be >= 0, got {smoothing}")
        if spec == "ne":
            return cls(frozenset(), True, smoothing, "ne")
        path, ne = (spec[:-3], True) if spec.endswith("+ne") else (spec, False)
        return cls(read_copy_words(path), ne, smoothing, f"{Path(path).name}:{len(read_copy_words(path))}" + ("+ne" if ne else ""))

    def identity(self) -> str:
        return f"{self.source},X={self.smoothing:g}"

    def counts(self, hyp: str, ref: str, hyp_tokens: Sequence[str], ref_tokens: Sequence[str],
               alignment: Sequence) -> tuple[float, float, float, float]:  # fmt: skip
        """(copy words of the hypothesis matched, in all, of the reference matched, in all) of one pair."""
        copy = self.words | named_entities(hyp) | named_entities(ref) if self.named_entities else self.words
        if not copy:
            return (0.0, 0.0, 0.0, 0.0)
        hyp_matched: set[int] = set()
        ref_matched: set[int] = set()
        for m in alignment:
            hyp_matched.update(_positions(m, hyp=True))
            ref_matched.update(_positions(m, hyp=False))
        h_all = [i for i, t in enumerate(hyp_tokens) if t.lower() in copy]
        r_all = [j for j, t in enumerate(ref_tokens) if t.lower() in copy]
        return (float(sum(i in hyp_matched for i in h_all)), float(len(h_all)),
                float(sum(j in ref_matched for j in r_all)), float(len(r_all)))  # fmt: skip

    def correct(self, parts: ScoreParts, counts: Sequence[float], alpha: float) -> ScoreParts:
        """The score with P~ and R~ in place of P and R (penalty unchanged)."""
        return corrected(parts, counts, self.smoothing, alpha)


def corrected(parts: ScoreParts, counts: Sequence[float], smoothing: float, alpha: float) -> ScoreParts:
    """Seed 004 eq. 8-9, then F1, Fmean and the score as the jar derives them from P and R."""
    h_matched, h_all, r_matched, r_all = counts
    if h_all == 0 and r_all == 0:
        return parts
    precision = java_div(parts.precision * smoothing + h_matched, smoothing + h_all)
    recall = java_div(parts.recall * smoothing + r_matched, smoothing + r_all)
    f1 = java_div(2.0 * precision * recall, precision + recall)
    fmean = java_div(1.0, java_div(alpha, recall) + java_div(1.0 - alpha, precision))
    score = fmean * (1.0 - parts.penalty)
    if score != score or score < 0.0:
        score = 0.0
    return ScoreParts(precision, recall, f1, fmean, parts.fragmentation, parts.penalty, score)


def _positions(match, hyp: bool) -> Iterable[int]:
    """The hypothesis (or reference) word positions a match covers: a span, or a syntax match's words."""
    words = getattr(match, "hyp_words" if hyp else "ref_words", None)
    if words is not None:
        return words
    start, length = (match[0], match[1]) if hyp else (match[2], match[3])
    return range(start, start + length)
