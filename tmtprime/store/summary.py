"""A one-screen overview of a project (``tmtprime project info``, the GUI's project page)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from tmtprime.store import schema as db
from tmtprime.store.records import DocumentRecord, ModelRecord, ProjectRecord, SystemRecord

if TYPE_CHECKING:
    from tmtprime.store.project import Store


@dataclass(frozen=True, slots=True)
class ProjectSummary:
    """Counts of everything in a project."""

    location: str
    project: ProjectRecord
    documents: list[DocumentRecord]
    systems: list[tuple[SystemRecord, int]]
    """Each system with its number of candidates."""
    tm_units: int
    segments: int
    models: list[tuple[ModelRecord, int]]
    """Each model with its number of recommendations."""
    recommendations: int
    cost_schemes: list[str]

    def render(self) -> str:
        """Plain-text report, one fact per line."""
        p = self.project
        lines = [
            f"project:         {p.name}",
            f"location:        {self.location}",
            f"languages:       {p.source_lang} -> {p.target_lang}",
            f"schema version:  {p.schema_version}",
            f"created:         {p.created_at:%Y-%m-%d %H:%M} UTC",
            f"TM units:        {self.tm_units}",
            f"segments:        {self.segments}",
            f"documents:       {len(self.documents)}",
        ]
        for d in self.documents:
            what = "TM units" if d.role == "tm" else "segments"
            imported = f"{d.imported_at:%Y-%m-%d %H:%M}"
            lines.append(f"  {d.name}  [{d.role}, {d.format}]  {d.unit_count} {what}  imported {imported}")
        lines.append(f"systems:         {len(self.systems)}")
        for s, n in self.systems:
            engine = f", {s.engine}" if s.engine else ""
            lines.append(f"  {s.name}  [{s.kind}{engine}]  {n} candidates")
        lines.append(f"models:          {len(self.models)}")
        for m, n in self.models:
            lines.append(f"  {m.name}  created {m.created_at:%Y-%m-%d %H:%M}  {n} recommendations")
        lines.append(
            f"recommendations: {'yes, ' + str(self.recommendations) + ' segments' if self.recommendations else 'none'}"
        )
        lines.append(f"cost schemes:    {', '.join(self.cost_schemes) if self.cost_schemes else 'none'}")
        return "\n".join(lines) + "\n"


def project_summary(store: Store) -> ProjectSummary:
    """Everything ``project info`` shows, read in one go."""
    with store.session() as s:
        per_system = {
            r[0]: r[1] for r in s.execute(select(db.CandidateRow.system_id, func.count()).group_by(db.CandidateRow.system_id))
        }
        per_model = {
            r[0]: r[1]
            for r in s.execute(select(db.RecommendationRow.model_id, func.count()).group_by(db.RecommendationRow.model_id))
        }
        tm_units = s.scalar(select(func.count()).select_from(db.TMUnitRow)) or 0
        segments = s.scalar(select(func.count()).select_from(db.SegmentRow)) or 0
        recommended = s.scalar(select(func.count(func.distinct(db.RecommendationRow.segment_id)))) or 0
    return ProjectSummary(
        location=store.location,
        project=store.project(),
        documents=store.documents.list(),
        systems=[(sys, per_system.get(sys.id, 0)) for sys in store.systems.list()],
        tm_units=tm_units,
        segments=segments,
        models=[(m, per_model.get(m.id, 0)) for m in store.models.list()],
        recommendations=recommended,
        cost_schemes=store.cost_schemes.names(),
    )
