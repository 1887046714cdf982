"""The syntax stage of Meteor++ 2.0 (seed 001): skip-gram paraphrases such as ``protect _ from`` / ``protect _ against``.

Table format, one pair per line, tokens separated by spaces, ``_`` the
placeholder (a gap of one to ``max_gap`` words that belong to neither
element; a run of k placeholders is a gap of at least k words)::

    get _ ready ||| prepare
    protect _ from ||| protect _ against ||| 0.8      (a third field is ignored)

At least one element of a pair must have a placeholder inside it (pairs of
consecutive phrases belong in the paraphrase table); lines starting with
``#`` are comments. The two elements match in both directions.

What the stage does, as the seed describes it:

* matching: a hypothesis occurrence of one element and a reference
  occurrence of the other form a candidate when their first words are at
  most ``max_distance`` apart;
* weights: inside a syntax match each word gets the weight of the module
  that relates it to a word of the other element (exact, then stem, then
  synonym, in module order), else the syntax weight: in (``get _ ready``,
  ``prepare``) ``ready``/``prepare`` count as synonyms, ``get`` as syntax.
  The statistics express this by counting each word in that module's stage,
  so P and R, and tuning, need nothing new;
* search: a syntax candidate is offered when the walk over the reference
  reaches its *last* word, and taken only if its earlier words (both
  sentences) are still free; otherwise the search is the jar's
  (:mod:`tmtprime.meteor.aligner`), which is re-run here in Python, for
  the pairs that have syntax candidates only, with the same ranking.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from tmtprime.errors import InputError
from tmtprime.meteor.stats import MeteorStats

if TYPE_CHECKING:
    from tmtprime.meteor.scorer import Meteor

PLACEHOLDER = "_"
WORD_MODULES = ("exact", "stem", "synonym")
"""Modules whose one-word matches give a word inside a syntax match its weight."""


class SyntaxMatch(NamedTuple):
    """A syntax match. The first five fields are the bounding spans and the stage, like a
    :data:`~tmtprime.meteor.matchers.Match` (so alignments sort and chunk the same way); the words
    themselves, and the stage each word is counted in, follow."""

    hs: int
    hl: int
    rs: int
    rl: int
    stage: int
    hyp_words: tuple[int, ...]
    ref_words: tuple[int, ...]
    hyp_stages: tuple[int, ...] = ()
    ref_stages: tuple[int, ...] = ()

    @classmethod
    def of(cls, hyp_words: Sequence[int], ref_words: Sequence[int], stage: int,
           hyp_stages: Sequence[int] = (), ref_stages: Sequence[int] = ()) -> SyntaxMatch:  # fmt: skip
        h, r = tuple(hyp_words), tuple(ref_words)
        return cls(h[0], h[-1] - h[0] + 1, r[0], r[-1] - r[0] + 1, stage, h, r, tuple(hyp_stages), tuple(ref_stages))


Pattern = tuple[tuple[str, int], ...]
"""Literal words with the smallest gap before each (0: adjacent; the first word's is 0)."""


def parse_pattern(text: str) -> Pattern:
    """``get _ ready`` -> ``(("get", 0), ("ready", 1))``; leading and trailing placeholders carry no position."""
    out: list[tuple[str, int]] = []
    gap = 0
    for token in text.lower().split():
        if token == PLACEHOLDER:
            gap += 1 if out else 0
        else:
            out.append((token, gap))
            gap = 0
    return tuple(out)


def occurrences(pattern: Pattern, tokens: Sequence[str], max_gap: int) -> list[tuple[int, ...]]:
    """Every tuple of positions of the pattern's words in ``tokens`` (a gap of k placeholders: k to
    max(k, max_gap) words)."""
    found: list[tuple[int, ...]] = []

    def extend(k: int, at: tuple[int, ...]) -> None:
        if k == len(pattern):
            found.append(at)
            return
        word, gap = pattern[k]
        lo = at[-1] + 1 + gap
        hi = at[-1] + 1 + (max(gap, max_gap) if gap else 0)
        for q in range(lo, min(hi, len(tokens) - 1) + 1):
            if tokens[q] == word:
                extend(k + 1, at + (q,))

    first = pattern[0][0]
    for i, token in enumerate(tokens):
        if token == first:
            extend(1, (i,))
    return found


class SyntaxTable:
    """Skip-gram paraphrase pairs, indexed by the first word of each element."""

    def __init__(self, pairs: Sequence[tuple[str, str]], name: str = "table") -> None:
        self.pairs = [(parse_pattern(a), parse_pattern(b)) for a, b in pairs]
        digest = hashlib.sha256(repr(self.pairs).encode()).hexdigest()[:10]
        self.name = f"{name}:{len(self.pairs)}:{digest}"
        """What the signature shows: source name, size, digest of the pairs (equal tables, equal names)."""
        self._by_first: dict[str, list[tuple[Pattern, Pattern]]] = defaultdict(list)
        for a, b in self.pairs:
            self._by_first[a[0][0]].append((a, b))
            if b != a:
                self._by_first[b[0][0]].append((b, a))

    def __len__(self) -> int:
        return len(self.pairs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SyntaxTable) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    @classmethod
    def read(cls, path: str | Path) -> SyntaxTable:
        """Read a table file (format in the module docstring); a bad line is named."""
        pairs: list[tuple[str, str]] = []
        try:
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, start=1):
                    text = line.strip()
                    if not text or text.startswith("#"):
                        continue
                    fields = [x.strip() for x in text.split("|||")]
                    if len(fields) < 2:
                        raise InputError("expected 'element A ||| element B'", file=path, location=f"line {number}")
                    a, b = fields[0], fields[1]
                    if not parse_pattern(a) or not parse_pattern(b):
                        raise InputError("an element has no word besides placeholders", file=path, location=f"line {number}")
                    if not (_has_gap(a) or _has_gap(b)):
                        raise InputError(f"neither element has a placeholder '{PLACEHOLDER}' inside it "
                                         "(consecutive pairs belong in the paraphrase table)", file=path,
                                         location=f"line {number}")  # fmt: skip
                    pairs.append((a, b))
        except OSError as error:
            raise InputError(f"syntax table cannot be read ({error.strerror or error})", file=path) from None
        except UnicodeDecodeError:
            raise InputError("syntax table is not UTF-8 text", file=path) from None
        return cls(pairs, Path(path).name)

    def candidates(self, hyp: Sequence[str], ref: Sequence[str], max_gap: int, max_distance: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(hyp positions, ref positions) of every match of a pair's elements, start distance <= ``max_distance``."""
        out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        ref_words = set(ref)
        for word in dict.fromkeys(hyp):
            for h_pat, r_pat in self._by_first.get(word, ()):
                if r_pat[0][0] not in ref_words:
                    continue
                for hp in occurrences(h_pat, hyp, max_gap):
                    for rp in occurrences(r_pat, ref, max_gap):
                        if abs(hp[0] - rp[0]) <= max_distance:
                            out.append((hp, rp))
        return sorted(set(out), key=lambda m: (m[1][-1], m[0], m[1]))


def _has_gap(text: str) -> bool:
    return any(gap for _word, gap in parse_pattern(text))


@dataclass(frozen=True)
class SyntaxStage:
    """The syntax stage for a scorer: its table, weight, start-distance threshold and longest gap."""

    table: SyntaxTable
    weight: float = 0.4
    max_distance: int = 3
    max_gap: int = 3

    @classmethod
    def open(cls, path: str | Path, weight: float = 0.4, max_distance: int = 3, max_gap: int = 3) -> SyntaxStage:
        return cls(SyntaxTable.read(path), weight, max_distance, max_gap)

    def identity(self) -> str:
        return f"{self.table.name},w={self.weight:g},d={self.max_distance},g={self.max_gap}"

    def matches(self, hyp: Sequence[str], ref: Sequence[str], word_candidates: np.ndarray | Sequence,
                stage: int, word_stages: Sequence[int]) -> list[SyntaxMatch]:  # fmt: skip
        """The syntax candidates of a pair, each word with the stage it counts in (module docstring)."""
        found = self.table.candidates(hyp, ref, self.max_gap, self.max_distance)
        if not found:
            return []
        related: dict[tuple[int, int], int] = {}
        allowed = set(word_stages)
        for hs, hl, rs, rl, st in np.asarray(word_candidates, dtype=np.int64).reshape(-1, 5).tolist():
            if hl == 1 and rl == 1 and st in allowed:
                key = (hs, rs)
                related[key] = min(st, related.get(key, st))
        out = []
        for hp, rp in found:
            h_st = [min([related[(i, j)] for j in rp if (i, j) in related], default=stage) for i in hp]
            r_st = [min([related[(i, j)] for i in hp if (i, j) in related], default=stage) for j in rp]
            out.append(SyntaxMatch.of(hp, rp, stage, h_st, r_st))
        return out

    def realign(self, meteor: Meteor, pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
                candidates: Sequence[np.ndarray], stats: list[MeteorStats], alignments: list) -> tuple[list, list]:  # fmt: skip
        """Re-align, with syntax candidates, the pairs that have some; statistics of those pairs recounted."""
        modules = meteor.config.modules
        stage = len(modules)
        word_stages = [i for i, m in enumerate(modules) if m in WORD_MODULES]
        exact = {i for i, m in enumerate(modules) if m == "exact"}
        function = meteor.function_words
        stats, alignments = list(stats), list(alignments)
        for k, (hyp, ref) in enumerate(pairs):
            if not hyp or not ref or (exact and list(hyp) == list(ref)):
                continue
            syntax = self.matches(hyp, ref, candidates[k], stage, word_stages)
            if not syntax:
                continue
            chosen = search(candidates[k], syntax, len(hyp), len(ref), exact, meteor.beam_size)
            alignments[k] = chosen
            stats[k] = pair_stats(chosen, [t.lower() in function for t in hyp], [t.lower() in function for t in ref],
                                  meteor._stages)  # fmt: skip
        return stats, alignments


class _Cand(NamedTuple):
    hyp_mask: int
    ref_mask: int
    hs: int
    he: int
    rs: int
    re: int
    value: int
    distance: int
    offer_at: int
    match: tuple


def _cands(spans: np.ndarray | Sequence, syntax: Sequence[SyntaxMatch], exact_stages) -> list[_Cand]:
    out = []
    for hs, hl, rs, rl, st in np.asarray(spans, dtype=np.int64).reshape(-1, 5).tolist():
        value = hl + rl if st in exact_stages else hl // 2 + rl // 2
        out.append(_Cand(((1 << hl) - 1) << hs, ((1 << rl) - 1) << rs, hs, hs + hl, rs, rs + rl, value, abs(hs - rs), rs,
                         (hs, hl, rs, rl, st)))  # fmt: skip
    for m in syntax:
        hm = sum(1 << i for i in m.hyp_words)
        rm = sum(1 << j for j in m.ref_words)
        value = len(m.hyp_words) // 2 + len(m.ref_words) // 2
        out.append(_Cand(hm, rm, m.hs, m.hs + m.hl, m.rs, m.rs + m.rl, value, abs(m.hs - m.rs), m.ref_words[-1], m))
    return out


def search(spans: np.ndarray | Sequence, syntax: Sequence[SyntaxMatch], hyp_len: int, ref_len: int,
           exact_stages, beam: int) -> list:  # fmt: skip
    """The aligner's beam search (:func:`tmtprime.meteor.aligner.search`, same ranking) with syntax candidates
    offered at their last reference word; the chosen matches sorted by hypothesis position."""
    cands = _cands(spans, syntax, exact_stages)
    if not cands:
        return []
    hyp_cover = [0] * hyp_len
    ref_cover = [0] * ref_len
    for c in cands:
        for i in range(hyp_len):
            hyp_cover[i] += (c.hyp_mask >> i) & 1
        for j in range(ref_len):
            ref_cover[j] += (c.ref_mask >> j) & 1
    fixed_at: dict[int, int] = {}
    offered: dict[int, list[int]] = defaultdict(list)
    for k, c in enumerate(cands):
        alone = all(hyp_cover[i] == 1 for i in range(hyp_len) if (c.hyp_mask >> i) & 1) and all(
            ref_cover[j] == 1 for j in range(ref_len) if (c.ref_mask >> j) & 1)
        if alone:
            fixed_at[c.offer_at] = k
        else:
            offered[c.offer_at].append(k)
    # a path: (cover, closed, passing, last, node, used_hyp, used_ref); node = (candidate, parent node) or None
    paths: list[tuple] = [(0, 0, 0, -1, None, 0, 0)]

    def major(path: tuple, p: int) -> tuple[int, int]:
        cover, closed, last = path[0], path[1], path[3]
        return (-cover, closed + (1 if last >= 0 and cands[last].re <= p else 0))

    for p in range(ref_len):
        f = fixed_at.get(p)
        offers = [f] if f is not None else offered.get(p, [])
        kids: list[tuple] = []
        for cover, closed, passing, last, node, used_h, used_r in paths:
            passed = 0
            for k in offers:
                c = cands[k]
                if f is None and (used_h & c.hyp_mask or used_r & c.ref_mask):
                    continue
                extends = last >= 0 and cands[last].he == c.hs and cands[last].re == c.rs
                kids.append((cover + c.value, closed + (1 if last >= 0 and not extends else 0), passing + passed, k,
                             (k, node), used_h | c.hyp_mask, used_r | c.ref_mask))  # fmt: skip
                passed += c.distance
            if f is None:
                kids.append((cover, closed, passing + passed, last, node, used_h, used_r))
        kids.sort(key=lambda kid: (major(kid, p), kid[2]))
        paths = kids[:beam]
    best = min(paths, key=lambda kid: (major(kid, ref_len), kid[2]))
    out = []
    node = best[4]
    while node is not None:
        out.append(cands[node[0]].match)
        node = node[1]
    return sorted(out, key=lambda m: tuple(m[:5]))


def pair_stats(alignment: Sequence, hyp_function: Sequence[bool], ref_function: Sequence[bool], stages: int) -> MeteorStats:
    """The jar's statistics of one pair (:func:`tmtprime.meteor.stats.segment_stats`) when syntax matches,
    whose words are counted each in its own stage, may be among the (sorted) matches."""
    st = MeteorStats(test_content_matches=[0.0] * stages, ref_content_matches=[0.0] * stages,
                     test_function_matches=[0.0] * stages, ref_function_matches=[0.0] * stages)  # fmt: skip
    st.test_length, st.ref_length = float(len(hyp_function)), float(len(ref_function))
    st.test_function, st.ref_function = float(sum(hyp_function)), float(sum(ref_function))
    last_h = last_r = -1
    for m in alignment:
        hs, hl, rs, rl, stage = m[:5]
        if isinstance(m, SyntaxMatch):
            hyp_words = zip(m.hyp_words, m.hyp_stages)
            ref_words = zip(m.ref_words, m.ref_stages)
        else:
            hyp_words = ((i, stage) for i in range(hs, hs + hl))
            ref_words = ((j, stage) for j in range(rs, rs + rl))
        n_h = n_r = 0
        for i, s in hyp_words:
            (st.test_function_matches if hyp_function[i] else st.test_content_matches)[s] += 1.0
            n_h += 1
        for j, s in ref_words:
            (st.ref_function_matches if ref_function[j] else st.ref_content_matches)[s] += 1.0
            n_r += 1
        if hs != last_h or rs != last_r:
            st.chunks += 1.0
        last_h, last_r = hs + hl, rs + rl
        st.test_word_matches += n_h
        st.ref_word_matches += n_r
    return st


def extract_pairs(
    aligned: Sequence[tuple[Sequence[str], Sequence[str], Sequence]],
    function_words: frozenset[str] | set[str],
    max_run: int = 2,
    max_gap: int = 3,
    max_length_difference: int = 2,
) -> Counter[tuple[str, str]]:
    """Skip-gram paraphrase pairs seen in aligned paraphrase pairs (hyp tokens, ref tokens, Meteor alignment).

    Wherever, in one sentence, unaligned words ``U1`` and ``U2`` (runs of 1 to
    ``max_run`` words) enclose a block of 1 to ``max_gap`` words aligned, as one
    chunk, to a block of the other sentence, the unaligned words next to that
    block there (``V1`` before, ``V2`` after) paraphrase them: ``U1 _ U2``
    pairs with ``V1``, ``V2`` and ``V1 _ V2``. Pairs need a content word on
    each side (seed 001) and lengths at most ``max_length_difference`` apart.
    Counted once per distinct reference (several outputs of one sentence that
    agree are one observation); keys are ordered (element A <= B).
    """
    seen: dict[tuple[str, str], set[tuple[str, ...]]] = defaultdict(set)
    for hyp, ref, alignment in aligned:
        links: dict[int, int] = {}
        for m in alignment:
            hs, hl, rs, rl = m[:4]
            if hl == rl and not isinstance(m, SyntaxMatch):
                links.update(zip(range(rs, rs + rl), range(hs, hs + hl)))
        found: set[tuple[str, str]] = set()
        for side, other, link in ((ref, hyp, links), (hyp, ref, {v: k for k, v in links.items()})):
            found |= _skip_grams(side, other, link, function_words, max_run, max_gap, max_length_difference)
        for pair in found:
            seen[pair].add(tuple(ref))
    return Counter({pair: len(refs) for pair, refs in seen.items()})


def _skip_grams(side, other, link, function_words, max_run, max_gap, max_length_difference) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    n = len(side)
    for start in range(1, n):
        for length in range(1, max_gap + 1):
            end = start + length
            if end >= n or any(q not in link for q in range(start, end)):
                break
            targets = [link[q] for q in range(start, end)]
            if targets != list(range(targets[0], targets[0] + length)) or start - 1 in link or end in link:
                continue
            u1 = _run(side, link, start - 1, -1, max_run)
            u2 = _run(side, link, end, 1, max_run)
            aligned_other = set(link.values())
            v1 = _run(other, {q: 0 for q in aligned_other}, targets[0] - 1, -1, max_run)
            v2 = _run(other, {q: 0 for q in aligned_other}, targets[-1] + 1, 1, max_run)
            a = f"{' '.join(u1)} {PLACEHOLDER} {' '.join(u2)}"
            for b in {" ".join(v1), " ".join(v2), f"{' '.join(v1)} {PLACEHOLDER} {' '.join(v2)}" if v1 and v2 else ""}:
                if not b or not _content(a, function_words) or not _content(b, function_words):
                    continue
                if abs(len(parse_pattern(a)) - len(parse_pattern(b))) > max_length_difference or a == b:
                    continue
                out.add((a, b) if a <= b else (b, a))
    return out


def _run(tokens: Sequence[str], aligned: dict[int, int], at: int, step: int, max_run: int) -> list[str]:
    """Up to ``max_run`` unaligned words from ``at`` going ``step`` (-1: leftwards), in sentence order."""
    out: list[str] = []
    while 0 <= at < len(tokens) and at not in aligned and len(out) < max_run:
        out.append(tokens[at])
        at += step
    return out[::-1] if step < 0 else out


def _content(element: str, function_words) -> bool:
    return any(word not in function_words and any(ch.isalpha() for ch in word) for word, _gap in parse_pattern(element))


def write_table(counts: Counter[tuple[str, str]], path: str | Path, min_count: int = 2) -> int:
    """Write the pairs seen at least ``min_count`` times (most frequent first); returns how many."""
    kept = [(pair, c) for pair, c in counts.most_common() if c >= min_count]
    with open(path, "w", encoding="utf-8") as f:
        f.write("# skip-gram paraphrase pairs (tmtprime.meteor.syntax.extract_pairs): A ||| B ||| count\n")
        for (a, b), c in kept:
            f.write(f"{a} ||| {b} ||| {c}\n")
    return len(kept)
