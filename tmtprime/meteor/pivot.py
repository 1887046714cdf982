"""Paraphrase tables by pivoting through a foreign language (Meteor-NEXT, seed 000; filters of seed 003).

A native phrase ``n1`` and another native phrase ``n2`` that translate the
same foreign phrase ``f`` are paraphrases with probability
``P(n2|n1) = sum_f P(f|n1) P(n2|f)`` (Bannard and Callison-Burch 2005). Each
instance ``(n1, f, n2)`` is discarded when ``P(f|n1) P(n2|f) < 0.001``, when
``n1``, ``f`` or ``n2`` contains a punctuation character, or consists only
of common words (relative frequency >= 0.001 in the corpus), and (seed 003)
when one of ``n1``/``n2`` is a contiguous part of the other (word
accumulation). Tables from several corpora are merged as the mean of their
probabilities weighted by corpus size; pairs under the final threshold (0.01)
are dropped. The result is written in Meteor's paraphrase file format (three
lines per pair: probability, phrase, paraphrase) and compiled into the index
:class:`tmtprime.meteor.paraphrase.ParaphraseTable` opens, so ``-a FILE`` works.

Input: a bilingual phrase table in Moses format (:func:`read_moses`) or a
bitext, word-aligned and phrase-extracted by :mod:`tmtprime.meteor.phrase_extract`.
"""

from __future__ import annotations

import gzip
import io
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tmtprime.errors import InputError, ResourceError, UsageError
from tmtprime.meteor.funcwords import frequent_words, scorer_tokens
from tmtprime.meteor.phrase_extract import PhraseCounts, align, count_phrases
from tmtprime.progress import Reporter

MIN_INSTANCE = 0.001
COMMON_FREQUENCY = 0.001
FINAL_THRESHOLD = 0.01
_CROSS_CHUNK = 1 << 22  # instances materialized at a time

Paraphrases = dict[tuple[str, str], float]
"""(phrase, paraphrase) -> probability; phrases are space-joined tokens."""


@dataclass
class BilingualTable:
    """Phrase translation probabilities between native and foreign phrases, one entry per (n, f)."""

    native: list[str]
    foreign: list[str]
    n_id: np.ndarray
    f_id: np.ndarray
    p_f_given_n: np.ndarray
    p_n_given_f: np.ndarray
    corpus_size: int
    common_native: frozenset[str] = frozenset()
    common_foreign: frozenset[str] = frozenset()


class _Ids(dict):
    """phrase -> id, the next id for a new phrase."""

    def __missing__(self, key: str) -> int:
        self[key] = len(self)
        return self[key]


def table_from_counts(counts: PhraseCounts, *, native: str = "target", common_frequency: float = COMMON_FREQUENCY) -> BilingualTable:
    """Relative-frequency phrase probabilities of extracted phrase pairs; ``native`` is the side paraphrased."""
    if native not in ("source", "target"):
        raise UsageError(f"native side must be 'source' or 'target', got {native!r}")
    n_ids, f_ids = _Ids(), _Ids()
    n_col, f_col, c_col = [], [], []
    for (src, tgt), c in counts.pairs.items():
        n, f = (tgt, src) if native == "target" else (src, tgt)
        n_col.append(n_ids[" ".join(n)])
        f_col.append(f_ids[" ".join(f)])
        c_col.append(c)
    n_arr, f_arr = np.asarray(n_col, dtype=np.int64), np.asarray(f_col, dtype=np.int64)
    c_arr = np.asarray(c_col, dtype=np.float64)
    n_total = np.bincount(n_arr, weights=c_arr, minlength=len(n_ids))
    f_total = np.bincount(f_arr, weights=c_arr, minlength=len(f_ids))
    native_words, foreign_words = (counts.target_words, counts.source_words) if native == "target" else (counts.source_words, counts.target_words)
    return BilingualTable(
        list(n_ids), list(f_ids), n_arr, f_arr, c_arr / n_total[n_arr], c_arr / f_total[f_arr], counts.sentence_pairs,
        frozenset(frequent_words(native_words, common_frequency)), frozenset(frequent_words(foreign_words, common_frequency)),
    )  # fmt: skip


def read_moses(
    lines: Iterable[str], *, native: str = "target", corpus_size: int = 1, name: str = "phrase table",
    common_native: frozenset[str] = frozenset(), common_foreign: frozenset[str] = frozenset(),
) -> BilingualTable:
    """A Moses phrase table (``f ||| e ||| p(f|e) lex(f|e) p(e|f) lex(e|f) ...``), phrases lower-cased.

    ``native="target"`` paraphrases the ``e`` side through ``f``: P(f|n) is the
    first score and P(n|f) the third; ``"source"`` the other way round.
    Common words are not known from a phrase table: pass them (e.g. lists
    learned with :mod:`tmtprime.meteor.funcwords` from each side's corpus).
    """
    if native not in ("source", "target"):
        raise UsageError(f"native side must be 'source' or 'target', got {native!r}")
    n_ids, f_ids = _Ids(), _Ids()
    n_col, f_col, pfn, pnf = [], [], [], []
    for number, line in enumerate(lines, start=1):
        fields = line.rstrip("\n").split(" ||| ")
        try:
            scores = [float(x) for x in fields[2].split()]
            p_src_given_tgt, p_tgt_given_src = scores[0], scores[2]
        except (IndexError, ValueError):
            raise InputError(
                "expected 'source ||| target ||| p(f|e) lex(f|e) p(e|f) lex(e|f)' (Moses format)",
                file=name, location=f"line {number}",
            ) from None
        src, tgt = " ".join(fields[0].lower().split()), " ".join(fields[1].lower().split())
        n, f, p_f_n, p_n_f = (tgt, src, p_src_given_tgt, p_tgt_given_src) if native == "target" else (src, tgt, p_tgt_given_src, p_src_given_tgt)
        n_col.append(n_ids[n])
        f_col.append(f_ids[f])
        pfn.append(p_f_n)
        pnf.append(p_n_f)
    if not n_col:
        raise InputError("the phrase table is empty", file=name)
    return BilingualTable(
        list(n_ids), list(f_ids), np.asarray(n_col, dtype=np.int64), np.asarray(f_col, dtype=np.int64),
        np.asarray(pfn), np.asarray(pnf), corpus_size, common_native, common_foreign,
    )  # fmt: skip


def has_punctuation(phrase: str) -> bool:
    """Whether a phrase contains a punctuation character (Unicode category P*)."""
    return any(unicodedata.category(c).startswith("P") for c in phrase)


def _usable(phrases: Sequence[str], common: frozenset[str]) -> np.ndarray:
    """Phrases that pass seed 000's phrase filters: no punctuation, not only common words."""
    return np.fromiter(
        (not has_punctuation(p) and not all(w in common for w in p.split()) for p in phrases), dtype=bool, count=len(phrases)
    )


def is_accumulation(a: str, b: str) -> bool:
    """Word accumulation (seed 003): one phrase is a contiguous run of the other's words."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return f" {short} " in f" {long} "


def pivot(table: BilingualTable, *, min_instance: float = MIN_INSTANCE, reporter: Reporter | None = None) -> Paraphrases:
    """P(n2|n1) = sum over foreign f of P(f|n1) P(n2|f), with the instance and phrase filters applied."""
    reporter = reporter or Reporter()
    reporter.status("pivoting")
    keep = _usable(table.native, table.common_native)[table.n_id] & _usable(table.foreign, table.common_foreign)[table.f_id]
    left = keep & (table.p_f_given_n >= min_instance)
    right = keep & (table.p_n_given_f >= min_instance)
    l_idx = np.flatnonzero(left)[np.argsort(table.f_id[left], kind="stable")]
    r_idx = np.flatnonzero(right)[np.argsort(table.f_id[right], kind="stable")]
    n_foreign = len(table.foreign)
    r_count = np.bincount(table.f_id[r_idx], minlength=n_foreign)
    r_start = np.concatenate(([0], np.cumsum(r_count)[:-1]))
    l_f = table.f_id[l_idx]
    fan = r_count[l_f]  # instances each left entry makes
    n_native = np.int64(len(table.native))
    keys, values = [], []
    ends = np.cumsum(fan)
    lo = 0
    while lo < len(l_idx):
        reporter.check()
        hi = max(lo + 1, int(np.searchsorted(ends, (ends[lo - 1] if lo else 0) + _CROSS_CHUNK, side="right")))
        part_fan = fan[lo:hi]
        total = int(part_fan.sum())
        first = np.repeat(np.cumsum(part_fan) - part_fan, part_fan)
        rank = np.arange(total) - first
        li = np.repeat(l_idx[lo:hi], part_fan)
        ri = r_idx[np.repeat(r_start[l_f[lo:hi]], part_fan) + rank]
        value = table.p_f_given_n[li] * table.p_n_given_f[ri]
        n1, n2 = table.n_id[li], table.n_id[ri]
        ok = (value >= min_instance) & (n1 != n2)
        keys.append(n1[ok] * n_native + n2[ok])
        values.append(value[ok])
        reporter.progress(hi, len(l_idx))
        lo = hi
    reporter.finish_phase()
    if not keys:
        return {}
    unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    sums = np.bincount(inverse, weights=np.concatenate(values))
    names = table.native
    out: Paraphrases = {}
    for key, p in zip(unique.tolist(), sums.tolist()):
        a, b = names[key // int(n_native)], names[key % int(n_native)]
        if not is_accumulation(a, b):
            out[(a, b)] = p
    return out


def merge(tables: Sequence[tuple[Paraphrases, int]]) -> Paraphrases:
    """Same-language tables from several corpora: the mean of P_C weighted by corpus size |C| (absent = 0)."""
    total = sum(size for _, size in tables)
    if total <= 0:
        raise UsageError("corpus sizes must be positive to merge paraphrase tables")
    out: Paraphrases = {}
    for table, size in tables:
        for pair, p in table.items():
            out[pair] = out.get(pair, 0.0) + size * p
    return {pair: p / total for pair, p in out.items()}


def threshold(table: Paraphrases, minimum: float = FINAL_THRESHOLD) -> Paraphrases:
    """The pairs whose probability is above the final threshold (0.01 in seed 000)."""
    return {pair: p for pair, p in table.items() if p >= minimum}


def build_from_bitext(
    pairs: Iterable[tuple[str, str]], *, source_lang: str, target_lang: str, native: str = "target",
    max_phrase_len: int = 4, alignments: Sequence[list[tuple[int, int]]] | None = None,
    min_instance: float = MIN_INSTANCE, common_frequency: float = COMMON_FREQUENCY, reporter: Reporter | None = None,
) -> tuple[Paraphrases, int]:
    """The (unthresholded) pivot table of one bitext and its size in sentence pairs.

    Sentences are tokenized as the scorer tokenizes them; ``alignments`` (from
    an external aligner, Pharaoh links over those tokens) replace the built-in one.
    """
    reporter = reporter or Reporter()
    reporter.status("tokenizing")
    sources, targets = [], []
    for s, t in pairs:
        sources.append(scorer_tokens(s, source_lang))
        targets.append(scorer_tokens(t, target_lang))
    if not sources:
        raise InputError("the bitext has no sentence pairs")
    links = align(sources, targets, reporter=reporter) if alignments is None else alignments
    counts = count_phrases(sources, targets, links, max_len=max_phrase_len, reporter=reporter)
    table = table_from_counts(counts, native=native, common_frequency=common_frequency)
    return pivot(table, min_instance=min_instance, reporter=reporter), len(sources)


def format_table(table: Paraphrases) -> str:
    """Meteor's paraphrase file format: probability, phrase, paraphrase; sorted by phrase, then paraphrase."""
    buf = io.StringIO()
    for (a, b), p in sorted(table.items()):
        buf.write(f"{p!r}\n{a}\n{b}\n")
    return buf.getvalue()


def write_table(table: Paraphrases, path: str | Path) -> Path:
    """Write a table in Meteor's format (gzip if the name ends in ``.gz``), atomically."""
    path = Path(path)
    if not table:
        raise ResourceError("no paraphrase survived the filters and the threshold; nothing to write")
    data = format_table(table).encode("utf-8")
    tmp = path.with_name(path.name + ".part")
    try:
        if path.suffix == ".gz":
            with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
                f.write(data)
        else:
            tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise ResourceError(f"cannot write the paraphrase table {path} ({error.strerror})") from None
    except BaseException:  # interrupted: leave no partial file behind
        tmp.unlink(missing_ok=True)
        raise
    return path


def read_table(path: str | Path) -> Paraphrases:
    """A table in Meteor's format (plain or gzip), e.g. to merge it with others."""
    path = Path(path)
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else open(path, encoding="utf-8")) as f:
            lines = f.read().split("\n")
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ResourceError(f"paraphrase table {path} cannot be read ({error})") from None
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) % 3:
        raise InputError("ends in the middle of a pair (three lines per pair: probability, phrase, paraphrase)", file=str(path))
    out: Paraphrases = {}
    for k in range(0, len(lines), 3):
        try:
            p = float(lines[k])
        except ValueError:
            raise InputError(f"expected a probability, found {lines[k][:60]!r}", file=str(path), location=f"line {k + 1}") from None
        out[(lines[k + 1], lines[k + 2])] = p
    return out
