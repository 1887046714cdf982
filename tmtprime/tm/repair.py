"""Repair of a fuzzy TM match: the words the new source changed, machine-translated into the match.

"Could not archive the comment." has the TM match "Could not archive the
image." -> "No se ha podido archivar la imagen."; the new source differs in
one span (image -> comment), the TM's own word alignment says which target
words translate that span (la imagen, once the function word in front is taken
along for agreement), and an MT engine translates "the comment" -> "el
comentario", which replaces them. The alignments are in
:mod:`tmtprime.tm.repair_align`.

A match is left unchanged, with the reason, when a span has no trustworthy
target span (unaligned or partly unaligned words, crossing links, too wide),
when a span grows by more than :data:`MAX_GROWTH` words, when two target spans
overlap, when the TM's own lexical model does not confirm the engine's output
for a span, when that output is untranslated, lost an inline code of the span
or dropped the match's translation of a word the edit keeps ("Allow" ->
"Allows remote" must keep "Permitir"), when the result says words twice in a
row (a target span aligned too narrowly), or when it would change an inline
code, placeholder or number that the new source shares with the TM source
(such codes survive repair exactly). Spans without letters (numbers, codes, punctuation) are copied, not
translated; differences of punctuation alone keep the TM target's. Each
threshold was chosen on the shared ``update`` dev data: docs/experiments/tm-repair.md.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from tmtprime.align.ibm1 import IBMModel1
from tmtprime.tokens import inline_codes, lower_tokens
from tmtprime.parallel import batched
from tmtprime.progress import CancelOnly, Reporter
from tmtprime.tm.repair_align import Edit, Tokens, links_of_units, target_span, word_edits

if TYPE_CHECKING:  # the engine is handed in: repair needs only its translate()
    from tmtprime.mt.engine import MTEngine

REPAIRED = "repaired"
_LETTER = re.compile(r"[^\W\d_]")
_SPACES = re.compile(r" {2,}")
_SPACE_BEFORE_PUNCT = re.compile(r" +([,.;:!?)\]])")
MAX_GROWTH = 1
"""A span may gain this many tokens at most (and never more than double): a longer insertion
restructures the sentence, and translating it on its own reads worse than the match."""
MIN_COVERAGE = 0.5
"""Share of a span's content words (and of its MT's) the TM's IBM Model 1 must find translated."""
FUNCTION_WORDS = 60
MOSTLY = 0.5
"""t(the | la) is 0.79 in the shared update TM, t(the | de) 0.23: an article goes along with its noun, a preposition
whose link to "the" is a by-product of contractions and genitives ("del", "de la") does not."""


def function_words(sources: Sequence[Sequence[str]]) -> frozenset[str]:
    """Short words (at most 3 letters) among the :data:`FUNCTION_WORDS` words found in the most TM
    source units, and in at least 1 % of them: "the", "to", "of", "a"... One in front of a span is
    taken along (for agreement), and a change of such words alone is not repaired.
    Longer frequent words of a software TM are content ("file", "image")."""
    df = Counter(w for s in sources for w in set(s) if w.isalpha())
    least = 0.01 * len(sources)
    return frozenset(w for w, n in df.most_common(FUNCTION_WORDS) if len(w) <= 3 and n >= least)


@dataclass(frozen=True, slots=True)
class Span:
    """One repaired span: ``source`` (new source words) replaced ``tm_target`` by ``target``,
    which sits at characters ``start:end`` of the repaired text."""

    source: str
    tm_source: str
    tm_target: str
    target: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Repair:
    """The outcome for one match: the repaired text, or None and why the match was left as it was."""

    text: str | None
    reason: str
    spans: tuple[Span, ...] = ()
    changed_share: float = 0.0
    """Share of the TM target's tokens replaced."""
    context_spans: int = 0
    """Spans that took a function word in front along."""
    coverage: float = 0.0
    """How well the TM's lexical model confirms the spans' MT: the lowest share, over the spans, of content
    words with a likely translation on the other side (1.0 for spans that were copied, not translated)."""


@dataclass(slots=True)
class _Plan:
    source: Tokens
    tm_source: Tokens
    tm_target: Tokens
    pieces: list[tuple[Edit, tuple[int, int], bool, frozenset[str]]] = field(default_factory=list)
    """(edit, target token range, took a function word along, target words the span's MT must keep), in target order."""
    reason: str | None = None

    def texts(self) -> list[str]:
        """The new-source spans the engine must translate (spans without letters are copied)."""
        found = []
        for edit, *_ in self.pieces:
            text = _new_text(self, edit)
            if _LETTER.search(text):
                found.append(text)
        return found


def _new_text(plan: _Plan, edit: Edit) -> str:
    if edit.new[0] == edit.new[1]:
        return ""
    start, end = plan.source.chars(*edit.new)
    return plan.source.text[start:end]


def _with_function_word(edit: Edit, span: tuple[int, int], links: set[tuple[int, int]], plan: _Plan,
                        function_words: frozenset[str], previous_end: int, likely: Callable[[str, str], bool]
                        ) -> tuple[Edit, tuple[int, int], bool]:
    """Take the TM-source word in front along when it is a function word and the target word in front is
    linked to nothing but it (or nothing), and either the source word is linked to nothing but that target
    word (or nothing) or the lexical model finds the target word a ``likely`` translation of it ("the" ->
    "la": the article must agree with the new noun, whatever else a small TM's alignment linked "the" to)."""
    i, j, t = edit.tm[0] - 1, edit.new[0] - 1, span[0] - 1
    if i < previous_end or j < 0 or t < 0 or plan.tm_source.keys[i] not in function_words:
        return edit, span, False
    if plan.source.keys[j] != plan.tm_source.keys[i] or not {a for a, b in links if b == t} <= {i}:
        return edit, span, False
    if not {b for a, b in links if a == i} <= {t} and not likely(plan.tm_source.keys[i], plan.tm_target.keys[t]):
        return edit, span, False
    return Edit((i, edit.tm[1]), (j, edit.new[1])), (t, span[1]), True


def _same_stem(a: str, b: str) -> bool:
    """One word, or two forms of it ("allow"/"allows", "export"/"exporting"): a long common beginning."""
    common = len(os.path.commonprefix((a, b)))
    return a == b or (common >= 4 and common >= 0.6 * max(len(a), len(b)))


def _kept_words(edit: Edit, span: tuple[int, int], links: set[tuple[int, int]], plan: _Plan,
                function_words: frozenset[str]) -> frozenset[str]:
    """Target words of the span linked to a content word the edit keeps ("Text" in "Text" -> "Export Text",
    "Allow" in "Allow" -> "Allows remote"):
    the span's MT must still hold them, or it translated the kept word differently from the match."""
    new = [w for w in plan.source.keys[edit.new[0]:edit.new[1]] if _LETTER.search(w)]
    kept = {s for s in range(*edit.tm) if (w := plan.tm_source.keys[s]) not in function_words and _LETTER.search(w)
            and any(_same_stem(w, v) for v in new)}
    return frozenset(plan.tm_target.keys[t] for s, t in links if s in kept and span[0] <= t < span[1])


def _grew_too_much(edit: Edit) -> bool:
    old, new = edit.tm[1] - edit.tm[0], edit.new[1] - edit.new[0]
    return new > min(2 * old, old + MAX_GROWTH)


def plan_repair(source: str, tm_source: str, tm_target: str, links: set[tuple[int, int]],
                function_words: frozenset[str] = frozenset(), likely: Callable[[str, str], bool] = lambda s, t: False
                ) -> _Plan:
    """Which target tokens each differing span replaces, or why the match cannot be repaired
    (``likely(source word, target word)``: the TM's lexical model takes one for a translation of the other)."""
    plan = _Plan(Tokens.of(source), Tokens.of(tm_source), Tokens.of(tm_target))
    edits = word_edits(plan.tm_source, plan.source, function_words)
    if not edits:
        plan.reason = "identical"
        return plan
    previous_end = 0
    for edit in edits:
        if edit.punct:  # the TM target's own punctuation conventions stand
            continue
        if _grew_too_much(edit):
            plan.reason, plan.pieces = "a span grew too much", []
            return plan
        span = target_span(edit, links, plan.tm_source)
        if isinstance(span, str):
            plan.reason = span
            plan.pieces = []
            return plan
        plan.pieces.append((*_with_function_word(edit, span, links, plan, function_words, previous_end, likely),
                            _kept_words(edit, span, links, plan, function_words)))
        previous_end = edit.tm[1]
    if not plan.pieces:
        plan.reason = "punctuation only"
        return plan
    plan.pieces.sort(key=lambda p: p[1])
    if any(a[1][1] > b[1][0] for a, b in zip(plan.pieces, plan.pieces[1:])):
        plan.reason, plan.pieces = "overlapping target spans", []
    return plan


def _match_case(replaced: str, translation: str) -> str:
    """The translation with the first letter cased as the replaced text's first letter."""
    if not replaced or not translation or not replaced[0].isalpha() or not translation[0].isalpha():
        return translation
    first = translation[0].upper() if replaced[0].isupper() else translation[0].lower()
    return first + translation[1:]


def _codes_kept(source_span: str, translation: str) -> bool:
    """Every inline code and number of the translated span is in its translation."""
    wanted, got = inline_codes(source_span), inline_codes(translation)
    return all(got.get(k, 0) >= n for k, n in wanted.items())


def _shared_codes_intact(plan: _Plan, text: str) -> bool:
    """Codes the new source shares with the TM source occur as often as in the TM target."""
    shared = inline_codes(plan.source.text).keys() & inline_codes(plan.tm_source.text).keys()
    before, after = inline_codes(plan.tm_target.text), inline_codes(text)
    return all(before.get(k, 0) == after.get(k, 0) for k in shared)


def apply_repair(plan: _Plan, translations: Mapping[str, str], coverage: Mapping[str, float] | None = None) -> Repair:
    """Put the translated spans into the TM target (see the module docstring for when it refuses);
    ``coverage`` is each translated span's lexical confirmation (:meth:`Repairer.confirmed`)."""
    if plan.reason is not None:
        return Repair(None, plan.reason)
    target = plan.tm_target
    out: list[str] = []
    spans: list[Span] = []
    pos = 0
    replaced_tokens = 0
    for edit, (t0, t1), _, kept in plan.pieces:
        new = _new_text(plan, edit)
        letters = _LETTER.search(new) is not None
        translation = translations.get(new) if letters else new
        if translation is None:
            return Repair(None, "the TM's lexical model does not confirm a span's MT")
        if not _codes_kept(new, translation):
            return Repair(None, "the engine lost an inline code")
        if letters and translation.strip().casefold() == new.strip().casefold():
            return Repair(None, "the engine left a span untranslated")
        if not kept <= set(lower_tokens(translation)):
            return Repair(None, "the span's MT translates a kept word differently")
        start, end = target.chars(t0, t1)
        replaced = target.text[start:end]
        translation = _match_case(replaced, translation.strip())
        out.append(target.text[pos:start])
        at = sum(map(len, out))
        out.append(translation)
        tm_start, tm_end = plan.tm_source.chars(*edit.tm)
        spans.append(Span(new, plan.tm_source.text[tm_start:tm_end], replaced, translation, at, at + len(translation)))
        pos = end
        replaced_tokens += t1 - t0
    out.append(target.text[pos:])
    text = _tidy("".join(out), target.text)
    if text != "".join(out):
        spans = _relocate(spans, text)
    if _repeats(text) > _repeats(target.text):
        return Repair(None, "the repair repeats the words next to a span")
    if not _shared_codes_intact(plan, text):
        return Repair(None, "would change a shared inline code or number")
    if text == target.text:
        return Repair(None, "no change")
    confirmed = [(coverage or {}).get(s.source, 1.0) for s in spans]
    return Repair(text, REPAIRED, tuple(spans), replaced_tokens / max(len(target.keys), 1),
                  sum(p[2] for p in plan.pieces), min(confirmed, default=1.0))


def _repeats(text: str) -> int:
    """Words or word pairs said twice in a row ("de flecha de flecha"): a target span aligned too narrowly."""
    words = [w for w in lower_tokens(text) if _LETTER.search(w)]
    return sum(words[i] == words[i + n] and words[i:i + n] == words[i + n:i + 2 * n]
               for n in (1, 2) for i in range(len(words) - 2 * n + 1))


def _tidy(text: str, original: str) -> str:
    """No double spaces, no space before closing punctuation, no edge spaces the TM target did not have."""
    if "  " not in original:
        text = _SPACES.sub(" ", text)
    if not _SPACE_BEFORE_PUNCT.search(original):
        text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    if original == original.strip():
        text = text.strip()
    return text


def _relocate(spans: list[Span], text: str) -> list[Span]:
    """Span offsets after tidying: each span's translation found again, left to right."""
    moved, pos = [], 0
    for span in spans:
        at = text.find(span.target, pos) if span.target else pos
        at = max(at, pos) if at >= 0 else pos
        moved.append(Span(span.source, span.tm_source, span.tm_target, span.target, at, at + len(span.target)))
        pos = at + len(span.target)
    return moved


class Repairer:
    """Repairs (new source, TM source, TM target) triples with one TM's alignment models and one MT engine."""

    def __init__(self, forward: IBMModel1, reverse: IBMModel1, engine: MTEngine,
                 function_words: Iterable[str] = (), target_function_words: Iterable[str] = (), *, chunk: int = 2000) -> None:
        self.forward, self.reverse, self.engine = forward, reverse, engine
        self.function_words = frozenset(function_words)
        self.target_function_words = frozenset(target_function_words)
        self._likely: dict[tuple[str, str], bool] = {}
        self.chunk = chunk

    @classmethod
    def from_tm(cls, pairs: Iterable[tuple[str, str]], engine: MTEngine, *, reporter: Reporter | None = None,
                chunk: int = 2000) -> Repairer:
        """Train IBM Model 1 both ways on the TM's (source, target) pairs, as the features do."""
        reporter = reporter or Reporter()
        reporter.status("training the TM's word alignment")
        sources, targets = [], []
        for source, target in pairs:
            sources.append(lower_tokens(source))
            targets.append(lower_tokens(target))
        reporter.check()
        forward = IBMModel1().fit(sources, targets)
        reporter.check()
        reverse = IBMModel1().fit(targets, sources)
        return cls(forward, reverse, engine, function_words(sources), function_words(targets), chunk=chunk)

    def plan(self, items: Sequence[tuple[str, str, str]]) -> list[_Plan]:
        """Plans of (new source, TM source, TM target) triples (alignment only, no MT)."""
        units = [(Tokens.of(s), Tokens.of(t)) for _, s, t in items]
        links = links_of_units(self.forward, self.reverse, units)
        return [plan_repair(n, s, t, lk, self.function_words, self.likely) for (n, s, t), lk in zip(items, links)]

    def likely(self, source_word: str, target_word: str) -> bool:
        """The TM's lexical model takes ``target_word`` for a translation of ``source_word`` (t >= its coverage
        threshold), and ``target_word`` mostly translates ``source_word`` (t(source | target) >= :data:`MOSTLY`)."""
        key = (source_word, target_word)
        if key not in self._likely:
            forward = self.forward.translation_mass([[source_word]], [[target_word]])[0]
            reverse = self.reverse.translation_mass([[target_word]], [[source_word]])[0]
            self._likely[key] = bool(forward >= self.forward.coverage_threshold and reverse >= MOSTLY)
        return self._likely[key]

    def confirmed(self, translated: Mapping[str, str]) -> dict[str, float]:
        """The span translations the TM's own lexical model confirms, with the lower of the two shares: at
        least :data:`MIN_COVERAGE` of the span's content words have a likely translation (t >= the model's
        coverage threshold) in the MT output, and as many of the output's content words a likely source in
        the span. Function words do not count."""
        spans = [s for s in translated if translated[s].strip()]
        sources = [lower_tokens(s) for s in spans]
        targets = [lower_tokens(translated[s]) for s in spans]
        least = self.forward.coverage_threshold
        out = {}
        for span, src, tgt, table in zip(spans, sources, targets, self.forward.link_probabilities(sources, targets)):
            src_content = [i for i, w in enumerate(src) if _LETTER.search(w) and w not in self.function_words]
            tgt_content = [j for j, w in enumerate(tgt) if _LETTER.search(w) and w not in self.target_function_words]
            if not src_content or not tgt_content:
                continue
            src_cov = np.mean([table[tgt_content, i + 1].max() >= least for i in src_content])
            tgt_cov = np.mean([table[j, [i + 1 for i in src_content]].max() >= least for j in tgt_content])
            if src_cov >= MIN_COVERAGE and tgt_cov >= MIN_COVERAGE:
                out[span] = float(min(src_cov, tgt_cov))
        return out

    def repair(self, items: Sequence[tuple[str, str, str]], *, reporter: Reporter | None = None) -> list[Repair]:
        """One :class:`Repair` per triple, in order; the engine translates each chunk's distinct spans in one call."""
        reporter = reporter or Reporter()
        reporter.status(f"repairing TM matches ({self.engine.name})")
        out: list[Repair] = []
        reporter.progress(0, len(items))
        for chunk in batched(list(items), self.chunk):
            reporter.check()
            plans = self.plan(chunk)
            texts = list(dict.fromkeys(t for p in plans for t in p.texts()))
            translated = dict(zip(texts, self.engine.translate(texts, reporter=CancelOnly(reporter)))) if texts else {}
            coverage = self.confirmed(translated)
            confirmed = {span: translated[span] for span in coverage}
            out.extend(apply_repair(p, confirmed, coverage) for p in plans)
            reporter.progress(len(out), len(items))
        reporter.finish_phase()
        return out
