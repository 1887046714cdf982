"""The Meteor scorer: a sacrebleu-style metric object reproducing Meteor 1.5.

    >>> m = Meteor(lang="en", modules=("exact", "stem"))
    >>> m.sentence_score("the cats sat", ["the cat sat down"]).score   # doctest: +SKIP

``sentence_score(hyp, refs)`` takes the references *of that one hypothesis*;
``corpus_score(hyps, refs)`` takes reference **streams** as sacrebleu does
(``refs[k][i]`` is the k-th reference of segment i). With several references
each is scored and the best-scoring one supplies the segment's statistics
(ties: the first). The corpus score is computed from the summed statistics,
not averaged over segments.

:meth:`Meteor.sentence_scores` scores many hypotheses (reference streams,
as ``corpus_score``); :meth:`Meteor.score_each` scores each hypothesis
against its own list of references. Both work on a batch: its tokens become
word ids once (:class:`~tmtprime.meteor.matchers.PairBatch`), every module
lists the candidates of all pairs in one pass, each pair is aligned, and the
statistics of all pairs are counted in one compiled pass, about half the CPU
time of pair by pair (docs/experiments/meteor-speed.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tmtprime.errors import UsageError
from tmtprime.meteor.aligner import DEFAULT_BEAM, align, align_all
from tmtprime.meteor.compiled import want_compiled
from tmtprime.meteor.gc_pause import paused_gc
from tmtprime.meteor.matchers import BatchMatcher, Match, PairBatch, PhraseTable, build_matchers, candidates_by_pair
from tmtprime.meteor.params import MODULE_ABBREVIATIONS, MeteorConfig, resolve_config
from tmtprime.meteor.signature import MeteorSignature
from tmtprime.meteor.stats import MIN_STAGES, MeteorStats, ScoreParts, compute_score, segment_stats, sum_stats
from tmtprime.meteor.word_ids import WordIds, WordValues
from tmtprime.progress import Reporter

if TYPE_CHECKING:
    from tmtprime.meteor.copy_words import CopyKnowledge
    from tmtprime.meteor.syntax import SyntaxStage

VERSION = "1.5"
"""The Meteor version whose behaviour this scorer reproduces."""

NORM_MODES = ("norm", "lower", "none")

PAIR_CACHE = 20_000
"""Distinct (hypothesis, reference) lines whose statistics and alignment a scorer keeps (then it starts afresh)."""


@dataclass
class MeteorScore:
    """The result for one segment (or a corpus): score, its parts, statistics, alignment."""

    score: float
    precision: float
    recall: float
    f1: float
    fmean: float
    penalty: float
    """The fragmentation penalty gamma * frag ** beta."""
    fragmentation: float
    """chunks / mean number of matched words."""
    stats: MeteorStats
    """Statistics as scored (chunks already set to 0 by the full-match rule when it applied)."""
    config: MeteorConfig
    raw_stats: MeteorStats | None = None
    """Segment statistics before scoring (what ``-ssOut`` prints); None for a corpus."""
    hyp_tokens: list[str] = field(default_factory=list)
    ref_tokens: list[str] = field(default_factory=list)
    alignment: list[Match] = field(default_factory=list)
    """Matches (hyp_start, hyp_len, ref_start, ref_len, stage) over the normalized tokens."""
    ref_index: int = 0
    """Which reference won (0-based)."""
    signature: MeteorSignature | None = None
    """What reproduces the score (:meth:`Meteor.signature`)."""
    copy_counts: tuple[float, float, float, float] | None = None
    """With copy knowledge: copy words of the hypothesis matched and in all, of the reference matched and in all."""

    @property
    def chunks(self) -> float:
        return self.stats.chunks

    @property
    def modules(self) -> tuple[str, ...]:
        return self.config.modules

    def matches(self) -> dict[str, dict[str, int]]:
        """Matched words per module: ``{"exact": {"test_content": .., "test_function": .., "ref_content": .., "ref_function": ..}}``."""
        st = self.stats
        out: dict[str, dict[str, int]] = {}
        for i, module in enumerate(self.config.modules):
            key = module if module not in out else f"{module}#{i + 1}"
            out[key] = {
                "test_content": int(st.test_content_matches[i]),
                "test_function": int(st.test_function_matches[i]),
                "ref_content": int(st.ref_content_matches[i]),
                "ref_function": int(st.ref_function_matches[i]),
            }
        return out

    def word_alignment(self) -> list[tuple[int, int, str]]:
        """(hyp index, ref index, module) for every aligned word pair, phrases expanded pairwise by position."""
        out: list[tuple[int, int, str]] = []
        for hs, hl, rs, rl, stage in self.alignment:
            module = self.config.modules[stage]
            for k in range(max(hl, rl)):
                out.append((hs + min(k, hl - 1), rs + min(k, rl - 1), module))
        return out

    def stats_line(self) -> str:
        """The jar's ``-ssOut`` line for this segment."""
        from tmtprime.meteor.javafmt import java_double

        st = self.raw_stats if self.raw_stats is not None else self.stats
        return " ".join(java_double(v) for v in st.to_list())

    def as_dict(self) -> dict:
        """JSON-friendly view (for ``--json`` and tooling)."""
        return {
            "score": self.score,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "fmean": self.fmean,
            "penalty": self.penalty,
            "fragmentation": self.fragmentation,
            "chunks": self.stats.chunks,
            "matches": self.matches(),
            "stats": (self.raw_stats or self.stats).to_list(),
            "alignment": [list(m[:4]) + [self.config.modules[m[4]]] for m in self.alignment],
            "ref_index": self.ref_index,
        }

    def __str__(self) -> str:
        return f"METEOR = {self.score:.4f} (P {self.precision:.4f} R {self.recall:.4f} Frag {self.penalty:.4f})"


class Meteor:
    """Meteor 1.5 as the reference jar computes it.

    ``lang`` any code the jar accepts; ``task`` one of rank adq hter li tune util
    (default: the jar's default for the language); ``modules``/``params``
    (alpha beta gamma delta)/``weights`` override the task like ``-m``/``-p``/``-w``;
    ``normalize`` selects ``-norm`` (True), or with False ``lowercase`` selects
    ``-lower``; ``no_punct`` is ``-noPunct``. ``paraphrase_table`` is a path or
    an object with ``paraphrases(phrase)`` / ``max_phrase_len`` (default: the
    language's table, opened on first use).
    """

    def __init__(
        self,
        lang: str = "en",
        task: str | None = None,
        modules: Sequence[str] | None = None,
        params: Sequence[float] | None = None,
        weights: Sequence[float] | None = None,
        normalize: bool = True,
        lowercase: bool = True,
        no_punct: bool = False,
        beam_size: int = DEFAULT_BEAM,
        paraphrase_table: str | Path | PhraseTable | None = None,
        function_words_file: str | Path | None = None,
        copy_knowledge: CopyKnowledge | None = None,
        syntax: SyntaxStage | None = None,
    ) -> None:
        if isinstance(modules, str):
            modules = modules.split()
        self._spec = (
            lang, task, None if modules is None else tuple(modules), None if params is None else tuple(params),
            None if weights is None else tuple(weights), normalize, lowercase, no_punct, beam_size,
            str(paraphrase_table) if isinstance(paraphrase_table, (str, Path)) else None,
            None if function_words_file is None else str(function_words_file), copy_knowledge, syntax,
        )  # fmt: skip
        self.config = resolve_config(lang, task, modules, params, weights)
        self.lang = lang
        self.norm_mode = "norm" if normalize else ("lower" if lowercase else "none")
        self.no_punct = no_punct
        self.beam_size = beam_size
        self._paraphrase_source = paraphrase_table
        self._exact_stages = frozenset(i for i, m in enumerate(self.config.modules) if m == "exact")
        self.copy_knowledge = copy_knowledge
        self.syntax = syntax
        # the syntax stage (Meteor++ 2.0) is one more stage after the modules, with its own weight
        self._weights = self.config.weights + ((syntax.weight,) if syntax is not None else ())
        self._stages = max(MIN_STAGES, len(self._weights))
        self._function_words: frozenset[str] | None = None
        self._function_words_file = function_words_file
        self._token_cache: dict[str, list[str]] = {}
        self._pair_cache: dict[tuple[str, str], tuple[MeteorStats, list[Match]]] = {}
        self._word_ids = WordIds()
        self._load_reporter: Reporter | None = None

    # -- resources -------------------------------------------------------------------
    @cached_property
    def _matchers(self) -> list[BatchMatcher]:
        return build_matchers(self.config.modules, self.config.language, self._open_paraphrases)

    def _open_paraphrases(self) -> PhraseTable:
        source = self._paraphrase_source
        if source is not None and not isinstance(source, (str, Path)):
            return source
        from tmtprime.meteor.paraphrase import ParaphraseTable

        table = ParaphraseTable.open(self.config.language, path=source, reporter=self._load_reporter)
        self._paraphrase_source = table
        return table

    @property
    def function_words(self) -> frozenset[str]:
        """The function words that split matches into content and function words.

        The jar uses its *English* list for every language (``-l fr`` counts
        ``the``/``of`` and ``.`` but not ``le``/``du`` as function words; measured),
        unless ``-s`` gives a file, so we do the same: ``function_words_file``.
        """
        if self._function_words is None:
            if self._function_words_file is not None:
                self._function_words = _read_word_list(self._function_words_file)
            else:
                from tmtprime.meteor.resources import function_words

                self._function_words = function_words("english")
        return self._function_words

    def spec(self) -> tuple:
        """The constructor arguments, to rebuild an equal scorer in another process (:meth:`from_spec`)."""
        return self._spec

    @classmethod
    def from_spec(cls, spec: tuple) -> Meteor:
        return cls(*spec)

    def load(self, reporter: Reporter | None = None) -> Meteor:
        """Load every resource now (paraphrase table included) instead of on the first segment.

        ``reporter`` sees the one long step, compiling a paraphrase table on its first use, and can cancel it.
        """
        self._load_reporter = reporter
        try:
            _ = self._matchers
            _ = self.function_words
        finally:
            self._load_reporter = None
        return self

    # -- tokens ----------------------------------------------------------------------
    def tokenize(self, line: str) -> list[str]:
        """The tokens the jar scores for ``line`` in this scorer's normalization mode."""
        cache = self._token_cache
        toks = cache.get(line)
        if toks is None:
            from tmtprime.meteor.normalize import tokenize

            toks = tokenize(line, self.config.language, self.norm_mode, no_punct=self.no_punct)
            if len(cache) > 200_000:
                cache.clear()
            cache[line] = toks
        return toks

    # -- scoring ---------------------------------------------------------------------
    def candidates(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[np.ndarray]:
        """Every candidate match of each (hyp tokens, ref tokens) pair, module by module: rows of ``(n, 5)`` arrays."""
        return self._candidates(PairBatch.of(pairs, self._word_ids))

    def _candidates(self, batch: PairBatch) -> list[np.ndarray]:
        want_compiled(len(batch.hyp_ids) + len(batch.ref_ids), len(self._matchers))
        return candidates_by_pair([match(batch, stage) for stage, match in enumerate(self._matchers)], len(batch.pairs))

    def align_tokens(self, hyp: Sequence[str], ref: Sequence[str], candidates: Sequence[Match] | np.ndarray | None = None) -> list[Match]:
        """The jar's alignment of two token lists."""
        if not hyp or not ref:
            return []
        if candidates is None:
            candidates = self.candidates([(hyp, ref)])[0]
        return align(hyp, ref, candidates, self._exact_stages, self.beam_size)

    def token_stats(
        self, hyp: Sequence[str], ref: Sequence[str], candidates: Sequence[Match] | np.ndarray | None = None
    ) -> tuple[MeteorStats, list[Match]]:
        """Statistics and alignment of two token lists (before scoring)."""
        alignment = self.align_tokens(hyp, ref, candidates)
        return self._pair_stats(PairBatch.of([(hyp, ref)], self._word_ids), [alignment])[0], alignment

    @cached_property
    def _function_word_flags(self) -> WordValues:
        # the jar looks function words up lower-cased ("The" is one even without -lower/-norm)
        return WordValues(lambda word: word.lower() in self.function_words)

    def _pair_stats(self, batch: PairBatch, alignments: Sequence[Sequence[Match]]) -> list[MeteorStats]:
        """Each pair's statistics before scoring, from its (sorted) alignment."""
        function = self._function_word_flags.of(batch.words)
        offsets = np.zeros(len(alignments) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, alignments), dtype=np.int64, count=len(alignments)), out=offsets[1:])
        matches = np.array(list(chain.from_iterable(alignments)), dtype=np.int64).reshape(-1, 5)
        rows = segment_stats(
            function[batch.hyp_ids], batch.hyp_offsets, function[batch.ref_ids], batch.ref_offsets, matches, offsets,
            self._stages,
        )  # fmt: skip
        return [MeteorStats.from_list(row, self._stages) for row in rows.tolist()]

    def score_stats(self, stats: MeteorStats) -> ScoreParts:
        """Score statistics (may set ``stats.chunks`` to 0, as the jar does)."""
        c = self.config
        return compute_score(stats, self._weights, c.alpha, c.beta, c.gamma, c.delta)

    def sentence_score(self, hyp: str, refs: Sequence[str] | str) -> MeteorScore:
        """Score one hypothesis against its reference(s); the best-scoring reference wins."""
        if isinstance(refs, str):
            refs = [refs]
        if not refs:
            raise UsageError("sentence_score needs at least one reference")
        return self.score_each([hyp], [list(refs)])[0]

    def score_each(self, hyps: Sequence[str], refs_per_segment: Sequence[Sequence[str]]) -> list[MeteorScore]:
        """Score each hypothesis against its own list of references (``refs_per_segment[i]``), in one batch."""
        with paused_gc():  # many short-lived lists and tuples, no cycles (gc_pause)
            hyp_tokens = [self.tokenize(h) for h in hyps]
            ref_tokens = [[self.tokenize(r) for r in refs] for refs in refs_per_segment]
            pairs = [(h, r) for h, rs in zip(hyp_tokens, ref_tokens) for r in rs]
            if self.syntax is not None:
                batch = PairBatch.of(pairs, self._word_ids)
                candidates = self._candidates(batch)
                alignments = align_all(pairs, candidates, self._exact_stages, self.beam_size)
                stats = self._pair_stats(batch, alignments)
                found = zip(*self.syntax.realign(self, pairs, candidates, stats, alignments))
            else:
                found = self._aligned([(h, r) for h, refs in zip(hyps, refs_per_segment) for r in refs], pairs)
            results: list[MeteorScore] = []
            for hyp, refs, h, rs in zip(hyps, refs_per_segment, hyp_tokens, ref_tokens):
                best: MeteorScore | None = None
                for k, r in enumerate(rs):
                    raw, alignment = next(found)
                    scored = raw.copy()
                    parts = self.score_stats(scored)
                    counts = None
                    if self.copy_knowledge is not None:
                        counts = self.copy_knowledge.counts(hyp, refs[k], h, r, alignment)
                        parts = self.copy_knowledge.correct(parts, counts, self.config.alpha)
                    if best is None or parts.score > best.score:
                        best = self._result(parts, scored, raw, h, r, alignment, k)
                        best.copy_counts = counts
                if best is None:
                    raise UsageError("every segment needs at least one reference")
                results.append(best)
            return results

    def _aligned(self, texts: Sequence[tuple[str, str]], pairs: Sequence[tuple[list[str], list[str]]]
                 ) -> Iterator[tuple[MeteorStats, list[Match]]]:
        """Statistics and alignment of each pair (``texts``: its lines, ``pairs``: their tokens), each distinct
        pair matched and aligned once. WHY: systems often agree (a quarter of the WMT22 bench segments repeat
        an earlier segment's hypothesis and reference) and a pair's result depends on its lines alone."""
        known = self._pair_cache
        todo: dict[tuple[str, str], int] = {}
        for k, text in enumerate(texts):
            if text not in known and text not in todo:
                todo[text] = k
        if todo:
            new = [pairs[k] for k in todo.values()]
            batch = PairBatch.of(new, self._word_ids)
            alignments = align_all(new, self._candidates(batch), self._exact_stages, self.beam_size)
            if len(known) + len(todo) > PAIR_CACHE:  # start afresh, keeping this batch's
                kept = {text: known[text] for text in texts if text in known}
                known.clear()
                known.update(kept)
            known.update(zip(todo, zip(self._pair_stats(batch, alignments), alignments)))
        return ((st.copy(), list(al)) for st, al in map(known.__getitem__, texts))

    def sentence_scores(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list[MeteorScore]:
        """:meth:`sentence_score` of every hypothesis; ``refs`` are reference streams (sacrebleu style)."""
        streams = _check_streams(hyps, refs)
        return self.score_each(hyps, [[s[i] for s in streams] for i in range(len(hyps))])

    def score_segments(self, hyps: Sequence[str], refs_per_segment: Sequence[Sequence[str]]) -> list[MeteorScore]:
        """Deprecated name of :meth:`score_each`."""
        _deprecated("score_segments", "score_each")
        return self.score_each(hyps, refs_per_segment)

    def segment_scores(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list[MeteorScore]:
        """Deprecated name of :meth:`sentence_scores`."""
        _deprecated("segment_scores", "sentence_scores")
        return self.sentence_scores(hyps, refs)

    def corpus_score(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> MeteorScore:
        """System-level score from summed statistics; ``refs`` are reference streams."""
        return self.aggregate(self.sentence_scores(hyps, refs))

    def aggregate(self, segments: Sequence[MeteorScore]) -> MeteorScore:
        """The corpus score of already scored segments (summed statistics)."""
        total = sum_stats(s.stats for s in segments)
        if total.stages < self._stages:
            total.add(MeteorStats(test_content_matches=[0.0] * self._stages, ref_content_matches=[0.0] * self._stages,
                                  test_function_matches=[0.0] * self._stages, ref_function_matches=[0.0] * self._stages))  # fmt: skip
        scored = total.copy()
        parts = self.score_stats(scored)
        counts = None
        if self.copy_knowledge is not None:
            counts = tuple(float(sum((s.copy_counts or (0.0,) * 4)[i] for s in segments)) for i in range(4))
            parts = self.copy_knowledge.correct(parts, counts, self.config.alpha)
        result = self._result(parts, scored, None, [], [], [], 0)
        result.copy_counts = counts
        return result

    def _result(
        self,
        parts: ScoreParts,
        scored: MeteorStats,
        raw: MeteorStats | None,
        hyp_tokens: list[str],
        ref_tokens: list[str],
        alignment: list[Match],
        ref_index: int,
    ) -> MeteorScore:
        return MeteorScore(
            score=parts.score,
            precision=parts.precision,
            recall=parts.recall,
            f1=parts.f1,
            fmean=parts.fmean,
            penalty=parts.penalty,
            fragmentation=parts.fragmentation,
            stats=scored,
            config=self.config,
            raw_stats=raw,
            hyp_tokens=list(hyp_tokens),
            ref_tokens=list(ref_tokens),
            alignment=alignment,
            ref_index=ref_index,
            signature=self._signature_cached(),
        )

    # -- reproducibility -------------------------------------------------------------
    def eval_id(self) -> str:
        """The jar's ``Eval ID`` line value."""
        c = self.config
        norm = {"norm": "norm_nopunct" if self.no_punct else "norm", "lower": "lc_only", "none": "no_norm"}[self.norm_mode]
        mods = "_".join(MODULE_ABBREVIATIONS[m] for m in c.modules)
        from tmtprime.meteor.javafmt import java_double as jd

        params = "_".join(jd(x) for x in c.params)
        weights = "_".join(jd(x) for x in c.weights)
        return f"meteor-{VERSION}-wo-{c.short_code}-{norm}-{params}-{mods}-{weights}"

    def _signature_cached(self) -> MeteorSignature:
        sig = self.__dict__.get("_signature")
        if sig is None:
            sig = self.__dict__["_signature"] = self.signature()
        return sig

    def signature(self) -> MeteorSignature:
        """Everything that decides the score: version, language, task, modules, weights, params, norm, tables."""
        from tmtprime import __version__

        c = self.config
        info = [
            ("meteor", VERSION),
            ("lang", c.short_code),
            ("task", c.task),
            ("modules", "+".join(c.modules)),
            ("weights", ",".join(f"{w:g}" for w in c.weights)),
            ("params", ",".join(f"{p:g}" for p in c.params)),
            ("norm", f"{self.norm_mode}{'+nopunct' if self.no_punct else ''}"),
            ("beam", str(self.beam_size)),
        ]
        if "paraphrase" in c.modules:
            info.append(("para", self._paraphrase_identity()))
        if self.copy_knowledge is not None:
            info.append(("copy", self.copy_knowledge.identity()))
        if self.syntax is not None:
            info.append(("syntax", self.syntax.identity()))
        info.append(("tmtprime", __version__))
        return MeteorSignature(tuple(info))

    def _paraphrase_identity(self) -> str:
        """Which table: the compiled index name (source name, size, mtime, format) once opened."""
        source = self._paraphrase_source
        index_dir = getattr(source, "index_dir", None)
        if index_dir is not None:
            return Path(index_dir).name
        ident = getattr(source, "identity", None)
        if callable(ident):
            return str(ident())
        if ident:
            return str(ident)
        if isinstance(source, (str, Path)):
            import hashlib

            return hashlib.sha256(str(Path(source).resolve()).encode()).hexdigest()[:12]
        return "default"


def _read_word_list(path: str | Path) -> frozenset[str]:
    from tmtprime.errors import ResourceError

    try:
        with open(path, encoding="utf-8") as f:
            return frozenset(w for w in (line.strip() for line in f) if w)
    except OSError as error:
        raise ResourceError(f"function word list {path} could not be read ({error.strerror})") from None


def _deprecated(old: str, new: str) -> None:
    """Warn once per call site that a renamed ``Meteor`` method was called by its old name (issue 28)."""
    warnings.warn(f"Meteor.{old} is deprecated; use Meteor.{new}", DeprecationWarning, stacklevel=3)


def _check_streams(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> list[Sequence[str]]:
    if isinstance(refs, str) or (refs and isinstance(refs[0], str)):
        raise UsageError("refs must be a list of reference streams (sacrebleu style): [[ref1 of seg1, ref1 of seg2, ...], ...]")
    streams = list(refs)
    if not streams:
        raise UsageError("at least one reference stream is needed")
    for k, s in enumerate(streams):
        if len(s) != len(hyps):
            raise UsageError(f"reference stream {k + 1} has {len(s)} segments, the hypotheses have {len(hyps)}")
    return streams
