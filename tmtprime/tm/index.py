"""Fast best-k fuzzy lookup over a translation memory.

Scoring every TM unit for every segment is ``segments x units`` edit
distances (5 billion for 10,000 segments against a 500,000-unit TM), so the
index first picks the units that *can* reach the threshold, then scores only
those, exactly, with the same formula as :func:`tmtprime.tm.fuzzy.score_pair`.
Every filter below is lossless for the content score, which bounds the final
score from above (:mod:`tmtprime.tm.fuzzy`), so the index returns exactly what
scoring every unit would (``lookup(..., exhaustive=True)``, checked in tests
and ``bench/tm_lookup.py``).

* **length window**: ``lev >= |n - m|``, so against a query of ``n`` content
  tokens a unit of ``m`` can reach ``t = threshold/100`` only if
  ``t*n <= m <= n/t``. Units are numbered in order of length, so the window is
  one contiguous id range.
* **count filter**: ``lev >= max(n, m) - overlap`` (``overlap`` = tokens in
  common, as a multiset), so the content score is at most
  ``100 * overlap / max(n, m)``. Overlaps of every unit in the window come from
  the inverted lists of the query's tokens (one ``bincount``); units whose
  bound is under the threshold are never scored.
* **best-k early stop**: candidates are scored in decreasing order of that
  bound, in growing chunks, and the search stops once the k-th best score
  found beats the bound of every candidate left.

Token sequences are stored as strings with one character per token id, so
rapidfuzz's bit-parallel Levenshtein runs over tokens at string speed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from tmtprime.errors import InputError, UsageError
from tmtprime.progress import Reporter, silent
from tmtprime.tm.fuzzy import MATCH_TYPE_RANK, MatchType, combine, match_type
from tmtprime.tm.tokenize import match_key, token_matches

_EPS = 1e-9
_FIRST_CHUNK = 64
"""Candidates scored before the first early-stop check (doubling after each chunk)."""
_SURROGATES = 0x800
_MAX_ID = 0x10FFFF - 0x20 - _SURROGATES
"""Largest token id that still fits in one Unicode character."""


@dataclass(frozen=True, slots=True)
class TMMatch:
    """One TM match of a segment: which unit, how good, and why."""

    unit: int
    """Position of the unit in the sequences the index was built from."""
    source: str
    target: str
    score: float
    """CAT fuzzy score 0-100 (see :mod:`tmtprime.tm.fuzzy`)."""
    match_type: MatchType
    content_score: float
    light_edits: int
    char_similarity: float
    """Character-level similarity 0-1 of the raw strings: breaks ties between equal scores."""


def _char(token_id: int) -> str:
    """One Unicode character per token id, skipping the surrogate block."""
    code = token_id + 0x20
    return chr(code if code < 0xD800 else code + _SURROGATES)


def _token_id(char: str) -> int:
    """Inverse of :func:`_char`."""
    code = ord(char)
    return code - 0x20 - (_SURROGATES if code >= 0xE000 else 0)


class _Encoder:
    """Token sequences as strings of one character per token id.

    Two vocabularies: surface tokens (as written) and content keys (case-folded
    words, placeholder and number classes). A surface string maps to its key
    string with one ``str.translate`` (punctuation maps to nothing), so each
    text is scanned by the tokenizer once.
    """

    def __init__(self) -> None:
        self.surface_chars: dict[str, str] = {}
        self.key_chars: dict[str, str] = {}
        self.to_key: dict[int, str | None] = {}

    def _register(self, surface: str, key: str | None) -> str:
        if len(self.surface_chars) > _MAX_ID:
            raise InputError(f"the TM has more than {_MAX_ID:,} distinct tokens: too large for one index")
        char = _char(len(self.surface_chars))
        self.surface_chars[surface] = char
        if key is not None and key not in self.key_chars:
            self.key_chars[key] = _char(len(self.key_chars))
        self.to_key[ord(char)] = None if key is None else self.key_chars[key]
        return char

    def add(self, text: str) -> tuple[str, str]:
        """``(key string, surface string)`` of a TM source, growing the vocabularies."""
        chars = self.surface_chars
        out = []
        for match in token_matches(text):
            char = chars.get(match.group())
            out.append(char if char is not None else self._register(match.group(), match_key(match)))
        surface = "".join(out)
        return surface.translate(self.to_key), surface

    def encode(self, text: str) -> tuple[str, str]:
        """``(key string, surface string)`` of a query; tokens the TM lacks get ids past the end."""
        n_surface, n_key = len(self.surface_chars), len(self.key_chars)
        local_surface: dict[str, str] = {}
        local_key: dict[str, str] = {}
        keys, surfaces = [], []
        for match in token_matches(text):
            token = match.group()
            char = self.surface_chars.get(token)
            surfaces.append(char or local_surface.setdefault(token, _char(n_surface + len(local_surface))))
            if char is not None:
                key_char = self.to_key[ord(char)]
            else:
                key = match_key(match)
                key_char = None if key is None else self.key_chars.get(key) or local_key.setdefault(key, _char(n_key + len(local_key)))
            if key_char is not None:
                keys.append(key_char)
        return "".join(keys), "".join(surfaces)


class TMIndex:
    """An index over TM sources answering "best k units at or above a fuzzy threshold".

    Built from parallel sequences of plain strings (no store needed):
    ``sources``, ``targets`` and optional ``contexts`` (PO msgctxt and the
    like, for context matches). Matches refer to units by their position in
    these sequences.
    """

    def __init__(
        self,
        sources: Sequence[str],
        targets: Sequence[str],
        contexts: Sequence[str | None] | None = None,
        *,
        reporter: Reporter | None = None,
    ) -> None:
        if len(targets) != len(sources) or (contexts is not None and len(contexts) != len(sources)):
            raise UsageError("TM sources, targets and contexts must have the same length")
        self.sources = list(sources)
        self.targets = list(targets)
        self.contexts: list[str | None] = list(contexts) if contexts is not None else [None] * len(sources)
        self._encoder = _Encoder()
        encoded: dict[str, tuple[str, str]] = {}  # identical sources are tokenized once
        keys: list[str] = []
        surfaces: list[str] = []
        for source in silent(reporter).track(self.sources, desc="indexing TM", unit="unit"):
            pair = encoded.get(source)
            if pair is None:
                pair = encoded[source] = self._encoder.add(source)
            keys.append(pair[0])
            surfaces.append(pair[1])
        n_keys = np.fromiter(map(len, keys), dtype=np.int32, count=len(keys))
        # Internal ids: units in order of content length (the length window is an id range).
        self._unit_of = np.argsort(n_keys, kind="stable").astype(np.int32)
        self._n_keys = n_keys[self._unit_of]
        self._n_surface = np.fromiter(map(len, surfaces), dtype=np.int32, count=len(surfaces))[self._unit_of]
        self._keys = _object_array(keys, self._unit_of)
        self._surfaces = _object_array(surfaces, self._unit_of)
        self._build_postings()

    def _build_postings(self) -> None:
        """Inverted lists: for each token id, the sorted internal ids of the units containing it."""
        codes = np.frombuffer("".join(self._keys.tolist()).encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
        token_ids = codes - 0x20 - np.where(codes >= 0xE000, _SURROGATES, 0)
        internal = np.repeat(np.arange(len(self._keys), dtype=np.int64), self._n_keys)
        # One (token, unit) pair per distinct token of a unit, sorted by token then unit.
        pairs = np.sort(token_ids * len(self._keys) + internal)
        pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]][: len(pairs)]]
        self._postings = (pairs % len(self._keys)).astype(np.int32)
        self._post_ptr = np.searchsorted(pairs // len(self._keys), np.arange(len(self._encoder.key_chars) + 1))

    def __len__(self) -> int:
        return len(self.sources)

    def _candidates(self, query_key: str, threshold: float) -> tuple[np.ndarray, np.ndarray]:
        """Internal ids that may reach ``threshold``, best content-score bound first, and the bounds."""
        n = len(query_key)
        t = threshold / 100.0
        lo_len = math.ceil(t * n - _EPS)
        hi_len = math.floor(n / t + _EPS) if t > 0 else int(self._n_keys[-1]) if len(self._n_keys) else 0
        start, stop = (int(x) for x in np.searchsorted(self._n_keys, np.array([lo_len, hi_len + 1], dtype=np.int32)))
        if n == 0 or stop <= start:
            # Content-free queries only meet content-free units (bound 100: scored on surfaces).
            return np.arange(start, stop, dtype=np.int32), np.full(stop - start, 100.0)
        known = len(self._encoder.key_chars)
        window = np.array([start, stop], dtype=np.int32)  # same dtype as the lists: no copy in searchsorted
        parts = []
        for char, times in Counter(query_key).items():
            tid = _token_id(char)
            if tid >= known:
                continue
            post = self._postings[self._post_ptr[tid] : self._post_ptr[tid + 1]]
            a, b = np.searchsorted(post, window)
            parts.extend([post[a:b]] * times)
        if parts:
            overlap = np.bincount(np.concatenate(parts) - start, minlength=stop - start)
        else:
            overlap = np.zeros(stop - start, dtype=np.int64)
        # overlap >= t*n is necessary whatever m is; the exact bound only for those.
        local = np.flatnonzero(overlap >= lo_len)
        m = self._n_keys[local + start]
        # Rounded like the scores (2 decimals), so that a bound equal to a score compares equal.
        bound = np.round(100.0 * np.minimum(overlap[local], np.minimum(m, n)) / np.maximum(m, n), 2)
        keep = bound >= threshold - _EPS
        local, bound = local[keep], bound[keep]
        order = np.argsort(-bound, kind="stable")
        return (local[order] + start).astype(np.int32), bound[order]

    def _score(
        self, query: str, context: str | None, key: str, surface: str, cand: np.ndarray, threshold: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Exact scores of candidates (internal ids): ``(ids, score, content, light)`` at or above ``threshold``."""
        n = len(key)
        m = self._n_keys[cand]
        max_dist = int(math.floor((1.0 - threshold / 100.0) * max(n, int(m.max())) + _EPS))
        key_dist = process.cdist([key], self._keys[cand].tolist(), scorer=Levenshtein.distance, score_cutoff=max_dist)[0]
        longest = np.maximum(n, m)
        # The content score bounds the final one: drop what cannot make it before the surface pass.
        content = np.round(100.0 * (1.0 - key_dist / np.maximum(longest, 1)), 2)
        keep = (longest == 0) | (content >= threshold - _EPS)
        cand, key_dist = cand[keep], key_dist[keep]
        surface_dist = process.cdist([surface], self._surfaces[cand].tolist(), scorer=Levenshtein.distance)[0]
        score, content, light = combine(
            key_dist.astype(np.int64), np.int64(n), self._n_keys[cand],
            surface_dist.astype(np.int64), np.int64(len(surface)), self._n_surface[cand],
        )
        keep = score >= threshold - _EPS
        return cand[keep], score[keep], content[keep], light[keep]

    def lookup(
        self,
        query: str,
        *,
        context: str | None = None,
        threshold: float = 50.0,
        k: int = 3,
        exhaustive: bool = False,
    ) -> list[TMMatch]:
        """The best ``k`` matches of ``query`` scoring at least ``threshold``, best first.

        Ranking: score, then match type (context > exact > 100 > fuzzy), then
        character similarity, then TM order. ``exhaustive=True`` scores every
        unit: the brute-force reference the index is checked against.
        """
        if not 0.0 <= threshold <= 100.0:
            raise UsageError(f"fuzzy threshold must be between 0 and 100, got {threshold}")
        if k < 1:
            raise UsageError(f"number of matches must be at least 1, got {k}")
        key, surface = self._encoder.encode(query)
        if exhaustive:
            everything = np.arange(len(self._keys), dtype=np.int32)
            found = [self._score(query, context, key, surface, everything, threshold)] if len(everything) else []
        else:
            found = self._best_first(query, context, key, surface, threshold, k)
        if not found:
            return []
        ids, score, content, light = (np.concatenate(x) for x in zip(*found))
        return self._rank(query, context, ids, score, content, light, k)

    def _best_first(
        self, query: str, context: str | None, key: str, surface: str, threshold: float, k: int
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """Score candidates in decreasing order of their bound until no unscored one can enter the top k."""
        cand, bound = self._candidates(key, threshold)
        found = []
        scores: list[float] = []
        pos, chunk = 0, _FIRST_CHUNK
        while pos < len(cand):
            part = self._score(query, context, key, surface, cand[pos : pos + chunk], threshold)
            pos += chunk
            chunk *= 2
            found.append(part)
            scores.extend(part[1].tolist())
            if len(scores) >= k and pos < len(cand):
                kth = sorted(scores, reverse=True)[k - 1]
                if bound[pos] < kth - _EPS:
                    break
        return found

    def _rank(
        self, query: str, context: str | None, ids: np.ndarray, score: np.ndarray,
        content: np.ndarray, light: np.ndarray, k: int,
    ) -> list[TMMatch]:
        if len(ids) == 0:
            return []
        units = self._unit_of[ids]
        types = [
            match_type(query, self.sources[u], s, lt, context, self.contexts[u]) if s >= 100.0 else "fuzzy"
            for u, s, lt in zip(units.tolist(), score.tolist(), light.tolist())
        ]
        rank = np.fromiter((MATCH_TYPE_RANK[x] for x in types), dtype=np.int8, count=len(types))
        # Character similarity only breaks ties, so only candidates tied with the top k need it.
        order = np.lexsort((units, -rank, -score))
        cutoff = score[order[min(k, len(order)) - 1]]
        tied = order[score[order] >= cutoff - _EPS]
        char_sim = process.cdist(
            [query], [self.sources[u] for u in units[tied].tolist()],
            scorer=Levenshtein.normalized_similarity, dtype=np.float64,
        )[0]
        best = tied[np.lexsort((units[tied], -char_sim, -rank[tied], -score[tied]))][:k]
        sim_of = dict(zip(tied.tolist(), char_sim.tolist()))
        return [
            TMMatch(
                unit=int(units[j]), source=self.sources[units[j]], target=self.targets[units[j]],
                score=float(score[j]), match_type=types[j], content_score=float(content[j]),
                light_edits=int(light[j]), char_similarity=round(sim_of[int(j)], 4),
            )
            for j in best
        ]


def _object_array(items: list[str], order: np.ndarray) -> np.ndarray:
    """``items`` reordered into a numpy object array (fancy indexing gathers candidates in C)."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out[order]
