"""The domain model: what every reader yields, the store returns and every writer takes.

Readers of all formats (TMX, XLIFF 1.2/2.x, PO, CSV/TSV, plain text) produce
these plain dataclasses; the store imports them and hands the same classes
back, with their store ids filled in (``Segment.id``, ``Candidate.id``,
``TMUnit.id``...: ``None`` on what a reader made); features, the recommender,
the GUI and the writers consume them as they come. A segment's :class:`Pick`
(which candidate it gets, and why) lives here too, so the store can hand it
out and the writers read it without knowing where it was decided. Keeping one small model
means a new format touches neither the store nor the recommender. Inline
markup is kept as placeholders inside the text (see ``Segment.tags``) so that
it survives a round trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

CandidateKind = Literal["tm", "mt", "repair"]
PickReason = Literal["model", "override", "file"]
DocumentRole = Literal["tm", "dev", "document"]
STORE_FIELDS = frozenset({"id", "document_id", "document", "role", "position", "segment_id", "rank"})
"""Fields the store fills (identity and order inside a project): no file carries them."""


MAX_SCORE = 102.0
"""Highest match score a file may give: 100 % plus the context (101) and double-context (102) matches."""


@dataclass(slots=True)
class PostEdit:
    """One editor's post-edit of a candidate: any of the edited text, the time, the keystrokes, an effort score.

    ``effort_more`` says which way the score runs: True when a higher score means more
    effort, False when it means less (WMT12's 1-5, 5 = no edit needed). Labels read the
    score through it, so scores of either kind train the same way.
    """

    text: str | None = None
    time_ms: float | None = None
    keystrokes: float | None = None
    effort: float | None = None
    effort_more: bool = False
    editor: str | None = None


@dataclass(slots=True)
class Candidate:
    """One translation suggestion for a segment: a TM match, an MT output or a repaired TM match."""

    system: str
    """Name of the system: an MT engine (``eng-spa``) or a TM name (``tm``)."""
    kind: CandidateKind
    text: str
    fuzzy: float | None = None
    """TM fuzzy match score 0-100, up to :data:`MAX_SCORE` for context matches (TM candidates only)."""
    tm_source: str | None = None
    """Source text of the TM unit that produced this match (TM candidates only)."""
    origin: str | None = None
    """Where the candidate came from as the file says it (tool, TM file, engine)."""
    attributes: dict[str, Any] = field(default_factory=dict)
    """Anything else the file carried (match type, tool id...), kept for export: strings
    from files; TM lookup adds numbers (``tm_unit_id``, ``content_score``...)."""
    id: int | None = None
    """Store id (``None`` until stored)."""
    segment_id: int | None = None
    """Store id of the candidate's segment."""
    rank: int = 0
    """0 is the system's best; TM top-k matches use 1, 2..."""
    post_edits: list[PostEdit] = field(default_factory=list)
    """What post-editors made of this candidate (several editors: several entries)."""


@dataclass(frozen=True, slots=True)
class CandidatePrediction:
    """What a model predicted for one candidate.

    ``probability``: of being (one of) the best candidates; ``predicted_ter``: the
    post-editing effort expected; ``confidence``: the candidate's confidence on the
    same scale as the pick's own ``confidence`` (what exports show next to each
    alternative; when None they show ``probability``); ``predicted_effort``: the
    prediction in the model's label unit (TER, HTER, ms per word, effort score: see its card).
    """

    probability: float | None = None
    predicted_ter: float | None = None
    confidence: float | None = None
    predicted_effort: float | None = None

    @property
    def shown_confidence(self) -> float | None:
        """The confidence an export or the window shows: the confidence if recorded, else the probability."""
        return self.confidence if self.confidence is not None else self.probability


@dataclass(frozen=True, slots=True)
class Pick:
    """The pick: which candidate a segment gets, why, and how sure the model is of it.

    The one representation of a pick that the store hands out (mapping its
    recommendation rows inside ``tmtprime.store``), the readers of TMTprime's
    own exports build, and the exports, the report and the window read.
    ``reason``: ``model`` (the recommender's pick), ``override`` (the user
    chose ``candidate`` instead of the model's ``recommended``), ``file`` (read
    back from an export). The confidence of an override is the model's
    confidence for that candidate, never that of its own pick (None when it
    recorded none). ``predictions``: the model's prediction of each of the
    segment's candidates, in their order (None where it made none).
    """

    candidate: Candidate
    reason: PickReason = "model"
    confidence: float | None = None
    predicted_effort: float | None = None
    model: str | None = None
    """Name of the model that made the pick (None when read from a file)."""
    recommended: Candidate | None = None
    """The model's own pick (differs from ``candidate`` only for an override)."""
    stale: bool = False
    """The segment's candidates changed after the pick: ``recommend`` again to refresh it."""
    predictions: tuple[CandidatePrediction | None, ...] = ()

    @property
    def overridden(self) -> bool:
        return self.reason == "override"

    @property
    def band(self) -> str:
        """``high`` (>= 0.8), ``medium`` (>= 0.5), ``low``, or ``unknown``: the band a picks TMX carries."""
        if self.confidence is None:
            return "unknown"
        return "high" if self.confidence >= 0.8 else "medium" if self.confidence >= 0.5 else "low"

    def prediction_of(self, index: int) -> CandidatePrediction | None:
        """The model's prediction of the segment's candidate ``index``, if it made one."""
        return self.predictions[index] if 0 <= index < len(self.predictions) else None

    def confidence_of(self, index: int) -> float | None:
        """The model's confidence in candidate ``index`` (its confidence if recorded, else its probability)."""
        prediction = self.prediction_of(index)
        return prediction.shown_confidence if prediction is not None else None


@dataclass(slots=True)
class Segment:
    """One translatable unit of a document, with its candidates."""

    key: str
    """Stable id inside the document (XLIFF unit/segment id, PO msgctxt+msgid, line number)."""
    source: str
    reference: str | None = None
    """A human translation, when the file has one (dev data, confirmed targets)."""
    context: str | None = None
    """Disambiguating context (PO msgctxt, XLIFF resname/note)."""
    candidates: list[Candidate] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    """Placeholder -> original inline markup, e.g. ``{"{1}": '<bpt id="1">&lt;b&gt;</bpt>'}``.

    Placeholders are ``{N}`` (opening code), ``{/N}`` (its closing code) and
    ``{N/}`` (a standalone code); the same placeholder stands for the same code
    in source, reference and every candidate. See ``tmtprime.formats.inline``."""
    tags_dialect: str | None = None
    """Vocabulary of the markup in ``tags``: ``tmx``, ``xliff12`` or ``xliff2``.
    A writer of the same dialect restores the markup verbatim; another writer
    converts it to its own generic codes."""
    notes: list[str] = field(default_factory=list)
    location: str | None = None
    """Where the unit sits in the file (``line 12``, ``unit "u42"``), for error messages."""
    attributes: dict[str, str] = field(default_factory=dict)
    """Other per-unit data the file carried (unmapped CSV columns, XLIFF attributes).
    A ``doc_id`` attribute (the shared TSV data has one) groups segments of one
    original document, e.g. for cross-validation by document."""
    pick: Pick | None = None
    """The candidate this segment gets and why (the store sets it from the stored
    recommendation, a reader from a TMTprime export); ``None`` = no recommendation."""
    id: int | None = None
    """Store id (``None`` until stored); the store fills the fields below too."""
    document_id: int | None = None
    document: str | None = None
    """Name of the stored document the segment belongs to."""
    role: str | None = None
    """Role of that document: ``dev`` or ``document``."""
    position: int = 0
    """0-based order in the imported file."""

    def confidence_of(self, index: int) -> float | None:
        """The model's confidence in ``candidates[index]`` (the pick's own for the pick); None without a pick."""
        if self.pick is None:
            return None
        if self.candidates[index] is self.pick.candidate:
            return self.pick.confidence
        return self.pick.confidence_of(index)

    @property
    def best_fuzzy(self) -> float | None:
        """The highest TM fuzzy score among the candidates."""
        scores = [c.fuzzy for c in self.candidates if c.kind == "tm" and c.fuzzy is not None]
        return max(scores) if scores else None


@dataclass(slots=True)
class TMUnit:
    """One translation unit of a translation memory (a source/target pair)."""

    source: str
    target: str
    properties: dict[str, str] = field(default_factory=dict)
    """TMX props/notes, creation data, catalogue names..."""
    location: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    """Placeholder -> original inline markup, as in ``Segment.tags``."""
    tags_dialect: str | None = None
    """Vocabulary of the markup in ``tags``, as in ``Segment.tags_dialect``."""
    id: int | None = None
    """Store id (``None`` until stored)."""
    document_id: int | None = None
    """Store id of the TM document the unit came from."""
    position: int = 0
    """0-based order in the imported file."""


@dataclass(slots=True)
class DocumentInfo:
    """What a reader learns about a file before (or while) streaming its units."""

    path: str
    format: str
    """Detected format name: ``tmx``, ``xliff12``, ``sdlxliff``, ``mqxliff``, ``mxliff``
    (Phrase), ``xliff2``, ``po``, ``csv``, ``tsv``, ``json``, ``jsonl``, ``text``."""
    source_lang: str | None = None
    target_lang: str | None = None
    original: str | None = None
    """Name of the original file as the CAT tool recorded it."""
    encoding: str | None = None
    tool: str | None = None
    """The tool that wrote the file, when it says so (TMX creationtool, XLIFF tool/namespace)."""
    properties: dict[str, str] = field(default_factory=dict)
    """File-level data the reader learnt (TMX header props, PO header fields, XLIFF version...)."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Units the reader skipped on purpose, by reason (``"obsolete PO entry": 3``).
    Filled while streaming: complete once the iterator is exhausted."""
    first_skipped: dict[str, str] = field(default_factory=dict)
    """Where the first unit skipped for each reason is (``"line 12"``), when the reader
    knows: one place to look is what turns "3 units skipped" into something a user can fix."""
    systems: list[str] | None = None
    """Candidate systems of the document when known before streaming (a column
    mapping knows them), TM first; writers of tables use it to order columns."""

    def skip(self, reason: str, location: str | None = None) -> None:
        """Count one unit skipped for ``reason`` (at ``location``, the first one is kept)."""
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        if location is not None:
            self.first_skipped.setdefault(reason, location)


def file_pick(seg: Segment, index: int | None, confidences: Mapping[int, float]) -> Pick | None:
    """The pick a TMTprime export recorded: candidate ``index``, with the confidences the file gave by candidate index."""
    if index is None:
        return None
    predictions = tuple(
        CandidatePrediction(confidence=confidences[i]) if i in confidences else None for i in range(len(seg.candidates))
    )
    chosen = seg.candidates[index]
    return Pick(chosen, "file", confidences.get(index), recommended=chosen, predictions=predictions)
