"""The tables of a project store, as SQLAlchemy 2.0 typed ORM classes.

One database holds one project. The data path writes these tables in order:
imports fill ``documents``/``segments``/``candidates``/``tm_units`` (and
``systems``), TM lookup and MT add ``candidates``, the recommender writes
``feature_rows``, ``models`` and ``recommendations``, the cost module reads and
writes ``cost_schemes``. Deleting a document cascades to everything derived
from it, so a re-import never leaves orphans.

Every ORM class is named ``...Row`` (``SegmentRow``, ``CandidateRow``...), so
that none is mistaken for the domain dataclasses of :mod:`tmtprime.formats.model` (``Segment``,
``Candidate``, ``TMUnit``) that the store hands out, and from
:class:`tmtprime.cost.CostScheme`. The store modules import this one as ``db``::

    from tmtprime.store import schema as db
    session.scalars(select(db.SegmentRow).where(db.SegmentRow.document_id == doc_id))

``SCHEMA_VERSION`` is the version this code writes; :mod:`tmtprime.store.migrations`
upgrades older project files to it when they are opened.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

SCHEMA_VERSION = 8
"""Version of the table layout written by this code (see migrations.py for the history)."""

JsonDict = dict[str, Any]
# None is stored as SQL NULL (not the JSON literal null), as the bulk-insert path does.
_JSON = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")

ROLES = ("tm", "dev", "document")
"""Document roles: a translation memory, development data (with references), or work to translate."""
KINDS = ("tm", "mt", "repair")
"""System kinds: translation memory, machine translation, or TM matches repaired by MT (:mod:`tmtprime.tm.repair`)."""


def utcnow() -> datetime:
    """Timestamps are stored in UTC so that a team database reads the same everywhere."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that always reads back timezone-aware in UTC.

    SQLite has no time zones and returns naive values; PostgreSQL returns
    aware ones. Normalising here spares every caller the difference.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
            if dialect.name == "sqlite":
                value = value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base of every TMTprime table."""

    type_annotation_map = {JsonDict: _JSON, datetime: UTCDateTime()}


class ProjectRow(Base):
    """The single row describing the project: its language pair and schema version."""

    __tablename__ = "project"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    source_lang: Mapped[str] = mapped_column(String(35))
    target_lang: Mapped[str] = mapped_column(String(35))
    schema_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DocumentRow(Base):
    """One imported file. ``content_hash`` (SHA-256 of the file bytes) makes re-import idempotent."""

    __tablename__ = "documents"
    __table_args__ = (
        CheckConstraint("role IN ('tm', 'dev', 'document')", name="ck_documents_role"),
        UniqueConstraint("content_hash", "role", name="uq_documents_hash_role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(500), unique=True)
    """Unique display name, the file name (with ``#2``... when two files share one)."""
    role: Mapped[str] = mapped_column(String(16))
    format: Mapped[str] = mapped_column(String(32))
    content_hash: Mapped[str] = mapped_column(String(64))
    path: Mapped[str] = mapped_column(Text)
    """The path the file was imported from (informative only)."""
    original: Mapped[str | None] = mapped_column(Text)
    """Original file name as recorded by the CAT tool, if any."""
    source_lang: Mapped[str | None] = mapped_column(String(35))
    target_lang: Mapped[str | None] = mapped_column(String(35))
    unit_count: Mapped[int] = mapped_column(Integer, default=0)
    """Number of segments (or TM units) the file contributed."""
    details: Mapped[JsonDict | None]
    """How the file was read and what the reader learnt: ``mapping`` (CSV/TSV column
    mapping), ``tool``, ``properties`` (file-level header data), ``skipped`` (counts by reason)."""
    imported_at: Mapped[datetime] = mapped_column(default=utcnow)

    segments: Mapped[list[SegmentRow]] = relationship(
        back_populates="document", cascade="all, delete-orphan", passive_deletes=True, order_by="SegmentRow.position"
    )


class DocumentFileRow(Base):
    """The bytes of an imported document (zlib-compressed), kept so an export can fill in
    the targets of the file itself and leave everything else as it was."""

    __tablename__ = "document_files"

    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    """``zlib.compress`` of the file's bytes (decompressed when the file was ``.gz``)."""
    size: Mapped[int] = mapped_column(BigInteger)
    """Length of the uncompressed bytes."""


class SegmentRow(Base):
    """One translatable unit of a dev or document file, in file order (``position`` 0-based)."""

    __tablename__ = "segments"
    __table_args__ = (UniqueConstraint("document_id", "position", name="uq_segments_document_position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text)
    context: Mapped[str | None] = mapped_column(Text)
    reference: Mapped[str | None] = mapped_column(Text)
    attributes: Mapped[JsonDict | None]
    """Per-unit data the file carried (``doc_id``, ``seg_id``, XLIFF attributes...)."""
    tags: Mapped[JsonDict | None]
    """Placeholder -> original inline markup, so that an export restores the markup."""
    tags_dialect: Mapped[str | None] = mapped_column(String(16))
    """Markup vocabulary of ``tags`` (``tmx``, ``xliff12``, ``xliff2``)."""
    notes: Mapped[list[str] | None] = mapped_column(_JSON)

    document: Mapped[DocumentRow] = relationship(back_populates="segments")
    candidates: Mapped[list[CandidateRow]] = relationship(
        back_populates="segment", cascade="all, delete-orphan", passive_deletes=True
    )


class SystemRow(Base):
    """A producer of candidates: a TM (kind ``tm``), an MT engine (kind ``mt``) or TM repair (kind ``repair``)."""

    __tablename__ = "systems"
    __table_args__ = (CheckConstraint("kind IN ('tm', 'mt', 'repair')", name="ck_systems_kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    engine: Mapped[str | None] = mapped_column(Text)
    """How the candidates were made (``apertium eng-spa``, ``imported``, a TM document name...)."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CandidateRow(Base):
    """One suggestion for a segment. ``rank`` 0 is the system's best; TM top-k uses 1, 2..."""

    __tablename__ = "candidates"
    __table_args__ = (
        UniqueConstraint("segment_id", "system_id", "rank", name="uq_candidates_segment_system_rank"),
        Index("ix_candidates_system", "system_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    segment_id: Mapped[int] = mapped_column(ForeignKey("segments.id", ondelete="CASCADE"))
    system_id: Mapped[int] = mapped_column(ForeignKey("systems.id", ondelete="CASCADE"))
    rank: Mapped[int] = mapped_column(Integer, default=0)
    text: Mapped[str] = mapped_column(Text)
    tm_source: Mapped[str | None] = mapped_column(Text)
    fuzzy: Mapped[float | None] = mapped_column(Float)
    """TM fuzzy match score 0-100 (TM candidates only)."""
    origin: Mapped[str | None] = mapped_column(Text)
    attributes: Mapped[JsonDict | None]

    segment: Mapped[SegmentRow] = relationship(back_populates="candidates")
    system: Mapped[SystemRow] = relationship()


class PostEditRow(Base):
    """One editor's post-editing of a candidate: edited text, time, keystrokes, effort score (each optional).

    ``effort_more`` records the direction stated at import (True: a higher score means
    more effort), so labels read every file's scores the same way round.
    """

    __tablename__ = "post_edits"
    __table_args__ = (Index("ix_post_edits_candidate", "candidate_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id", ondelete="CASCADE"))
    text: Mapped[str | None] = mapped_column(Text)
    time_ms: Mapped[float | None] = mapped_column(Float)
    keystrokes: Mapped[float | None] = mapped_column(Float)
    effort: Mapped[float | None] = mapped_column(Float)
    effort_more: Mapped[bool] = mapped_column(default=False)
    editor: Mapped[str | None] = mapped_column(String(200))


class CorpusRow(Base):
    """A language resource beside the TM: monolingual target text or a parallel corpus, for features."""

    __tablename__ = "corpora"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(500), unique=True)
    parallel: Mapped[bool] = mapped_column(default=False)
    """True: (source, target) pairs; False: target-language sentences only."""
    content_hash: Mapped[str] = mapped_column(String(64), unique=True)
    path: Mapped[str] = mapped_column(Text)
    lines: Mapped[int] = mapped_column(Integer, default=0)
    imported_at: Mapped[datetime] = mapped_column(default=utcnow)


class CorpusLineRow(Base):
    """One sentence (monolingual) or sentence pair (parallel) of a corpus, in file order."""

    __tablename__ = "corpus_lines"
    __table_args__ = (Index("ix_corpus_lines_corpus", "corpus_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"))
    source: Mapped[str | None] = mapped_column(Text)
    target: Mapped[str] = mapped_column(Text)


class TMUnitRow(Base):
    """One source/target pair of an imported translation memory.

    ``source_hash`` (see :func:`tmtprime.store.tm.source_hash`) is indexed for
    exact-match lookups without indexing long texts (PostgreSQL refuses b-tree
    entries over ~2.7 kB); ``source_words`` lets fuzzy lookup prefilter by length.
    """

    __tablename__ = "tm_units"
    __table_args__ = (
        Index("ix_tm_units_source_hash", "source_hash"),
        Index("ix_tm_units_source_words", "source_words"),
        Index("ix_tm_units_document", "document_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(Text)
    target: Mapped[str] = mapped_column(Text)
    source_hash: Mapped[int] = mapped_column(BigInteger)
    source_words: Mapped[int] = mapped_column(Integer)
    properties: Mapped[JsonDict | None]
    tags: Mapped[JsonDict | None]
    tags_dialect: Mapped[str | None] = mapped_column(String(16))


class FeatureSetRow(Base):
    """A named, versioned list of feature names; rows of one set share its column order."""

    __tablename__ = "feature_sets"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    feature_names: Mapped[list[str]] = mapped_column(_JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class FeatureRow(Base):
    """The feature vector of one candidate under one feature set (float64 little-endian bytes)."""

    __tablename__ = "feature_rows"
    __table_args__ = (UniqueConstraint("candidate_id", "feature_set_id", name="uq_feature_rows_candidate_set"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    feature_set_id: Mapped[int] = mapped_column(ForeignKey("feature_sets.id", ondelete="CASCADE"))
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id", ondelete="CASCADE"))
    vector: Mapped[bytes] = mapped_column(LargeBinary)


class ModelRow(Base):
    """A trained recommender: the skops-serialised estimator and its model card."""

    __tablename__ = "models"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    blob: Mapped[bytes] = mapped_column(LargeBinary)
    card: Mapped[JsonDict]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RecommendationRow(Base):
    """A model's pick for a segment, with its confidence and the user's override if any."""

    __tablename__ = "recommendations"
    __table_args__ = (
        UniqueConstraint("segment_id", "model_id", name="uq_recommendations_segment_model"),
        # Child-side indexes so that deleting a model or a document's candidates stays fast.
        Index("ix_recommendations_model", "model_id"),
        Index("ix_recommendations_candidate", "candidate_id"),
        Index("ix_recommendations_override", "override_candidate_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    segment_id: Mapped[int] = mapped_column(ForeignKey("segments.id", ondelete="CASCADE"))
    model_id: Mapped[int] = mapped_column(ForeignKey("models.id", ondelete="CASCADE"))
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id", ondelete="CASCADE"))
    confidence: Mapped[float | None] = mapped_column(Float)
    override_candidate_id: Mapped[int | None] = mapped_column(ForeignKey("candidates.id", ondelete="SET NULL"))
    """The candidate the user chose instead of the model's pick (None = accepted)."""
    stale: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    """True once the segment's candidates changed after the pick (a lookup or translation
    added, changed or removed one): the pick stands until ``recommend`` runs again."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    scores: Mapped[list[CandidateScoreRow]] = relationship(cascade="all, delete-orphan", passive_deletes=True)


class DocumentStepRow(Base):
    """A step a document has been through (``lookup``, ``translate``, ``recommend``), by what and with which inputs.

    ``name`` is the system (lookup, translate) or the model (recommend); re-running
    the step overwrites the row, so ``done_at`` is the latest run. ``inputs`` says
    what it used (the TM documents' hashes, the engine, thresholds), so a later
    change of them shows the document as behind.
    """

    __tablename__ = "document_steps"
    __table_args__ = (UniqueConstraint("document_id", "step", "name", name="uq_document_steps_document_step_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    step: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(200))
    inputs: Mapped[JsonDict | None]
    done_at: Mapped[datetime] = mapped_column(default=utcnow)


class CandidateScoreRow(Base):
    """What a model predicted for each candidate of a recommended segment."""

    __tablename__ = "candidate_scores"
    __table_args__ = (
        UniqueConstraint("recommendation_id", "candidate_id", name="uq_candidate_scores_rec_candidate"),
        Index("ix_candidate_scores_candidate", "candidate_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    recommendation_id: Mapped[int] = mapped_column(ForeignKey("recommendations.id", ondelete="CASCADE"))
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id", ondelete="CASCADE"))
    probability: Mapped[float | None] = mapped_column(Float)
    predicted_ter: Mapped[float | None] = mapped_column(Float)
    confidence: Mapped[float | None] = mapped_column(Float)
    """This candidate's confidence on the scale of ``RecommendationRow.confidence``."""
    predicted_effort: Mapped[float | None] = mapped_column(Float)
    """The model's prediction in its label's own unit (the model card names label and unit)."""


class CostSchemeRow(Base):
    """A user-editable cost scheme (rates per system and per band), stored as JSON."""

    __tablename__ = "cost_schemes"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    scheme: Mapped[JsonDict]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class EstimateCacheRow(Base):
    """A cost estimate kept under its key; emptied by triggers on any change to its data (store/estimate_cache.py)."""

    __tablename__ = "estimate_cache"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    estimate: Mapped[JsonDict | None]
    """None while reserved (being computed)."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
