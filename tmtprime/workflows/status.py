"""Use case "project status": which step each work document has reached, and what is behind.

A document goes imported → looked up → translated → recommended. It falls
behind when it arrives after a run over every document (imported while a
lookup ran, or after ``recommend``), when the TM changes after its lookup, or
when a lookup or translation changes candidates its picks were made from
(the picks turn stale). :func:`project_status` reads it all in one go;
:meth:`ProjectStatus.notices` words each gap with the command that closes it.
``project info``, ``report`` and ``run`` print the notices; the window calls
the same function.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tmtprime.store import Store
from tmtprime.store.steps import DocumentState

STAGES = ("imported", "looked up", "translated", "recommended")


@dataclass(frozen=True, slots=True)
class DocumentStatus:
    """One work document: its furthest step and what it lacks."""

    name: str
    imported_at: datetime
    segments: int
    with_candidates: int
    recommended: int
    stale: int
    looked_up: datetime | None
    lookup_outdated: bool
    """Looked up against TM documents that have changed since (added, removed or replaced)."""
    translated: tuple[str, ...]
    """The MT systems that translated it."""

    @property
    def not_recommended(self) -> int:
        """Segments with candidates but no pick of the model."""
        return max(self.with_candidates - self.recommended, 0)

    @property
    def stage(self) -> str:
        """The furthest step it has completed (:data:`STAGES`)."""
        if self.with_candidates and not self.not_recommended and not self.stale:
            return "recommended"
        if self.translated:
            return "translated"
        return "looked up" if self.looked_up is not None else "imported"


@dataclass(frozen=True, slots=True)
class ProjectStatus:
    """The work documents of a project, in import order, with the model the status is about."""

    location: str
    model: str | None
    has_tm: bool
    documents: tuple[DocumentStatus, ...]

    @property
    def not_recommended(self) -> int:
        return sum(d.not_recommended for d in self.documents)

    @property
    def stale(self) -> int:
        return sum(d.stale for d in self.documents)

    def render(self) -> str:
        """Plain text for ``project info``: each document's stage, then the gaps."""
        lines = [f"status:          picks of model {self.model!r}" if self.model else "status:          no recommendations yet"]
        for d in self.documents:
            done = [f"{d.recommended}/{d.with_candidates} segments picked" + (f" ({d.stale} stale)" if d.stale else "")]
            if d.looked_up is not None:
                done.append(f"looked up {d.looked_up:%Y-%m-%d %H:%M}" + (" (TM changed since)" if d.lookup_outdated else ""))
            if d.translated:
                done.append("translated by " + ", ".join(d.translated))
            lines.append(f"  {d.name}  [{d.stage}]  " + "; ".join(done))
        lines += [f"behind: {line}" for line in self.notices()]
        return "\n".join(lines) + "\n"

    def notices(self, *, commands: bool = True) -> list[str]:
        """One line per gap, each naming the documents and (``commands``) the CLI command to run;
        the window, whose buttons do the same, asks without them."""
        lines: list[str] = []
        where = self.location

        def gap(docs: list[DocumentStatus], what: str, command: str) -> None:
            if docs:
                lines.append(_line(docs, what, command if commands else None))

        # a document counts as not looked up when the project uses lookup (another document was
        # looked up) or some of its segments have no candidate at all
        used_lookup = any(d.looked_up is not None for d in self.documents)
        not_looked_up = [d for d in self.documents
                         if self.has_tm and d.looked_up is None and d.segments
                         and (used_lookup or d.with_candidates < d.segments)]
        gap(not_looked_up, "not looked up yet", f"tmtprime tm lookup {where}")
        gap([d for d in self.documents if self.has_tm and d.lookup_outdated],
            "looked up before the TM changed", f"tmtprime tm lookup {where}")
        gap([d for d in self.documents if d.segments and not d.with_candidates],
            "without any candidate", f"tmtprime tm lookup {where}' or 'tmtprime translate {where}")
        lines.extend(line for line in (self.unrecommended_notice(commands=commands),
                                       self.stale_notice(commands=commands)) if line)
        return lines

    def unrecommended_notice(self, *, commands: bool = True) -> str | None:
        """The documents with segments the model has not picked for, or None."""
        behind = [d for d in self.documents if d.not_recommended]
        counts = f"{self.not_recommended:,} segments"
        command = f"tmtprime recommend {self.location}" if commands else None
        return _line(behind, f"not recommended yet ({counts})", command) if behind else None

    def stale_notice(self, *, commands: bool = True) -> str | None:
        """The documents with stale picks, or None."""
        stale = [d for d in self.documents if d.stale]
        what = f"with stale picks ({self.stale:,} segments whose candidates changed after recommend)"
        return _line(stale, what, f"tmtprime recommend {self.location}" if commands else None) if stale else None


def _line(docs: list[DocumentStatus], what: str, command: str | None) -> str:
    names = ", ".join(d.name for d in docs[:3]) + (f" and {len(docs) - 3} more" if len(docs) > 3 else "")
    plural = "s" if len(docs) > 1 else ""
    return f"{len(docs)} document{plural} {what}: {names}" + (f"; run '{command}'" if command else "")


def project_status(store: Store, *, model: str | None = None) -> ProjectStatus:
    """Where each work document stands (picks of ``model``, default the newest with recommendations)."""
    model = model if model is not None else store.recommendations.latest_model()
    tm = dict(store.steps.tm_documents())
    states = store.steps.status(model)
    return ProjectStatus(store.location, model, bool(tm), tuple(_document(s, tm) for s in states))


def _document(state: DocumentState, tm: dict[str, str]) -> DocumentStatus:
    lookups = [s for s in state.steps if s.step == "lookup"]
    latest = max(lookups, key=lambda s: s.done_at) if lookups else None
    return DocumentStatus(
        name=state.name, imported_at=state.imported_at, segments=state.segments,
        with_candidates=state.with_candidates, recommended=state.recommended, stale=state.stale,
        looked_up=None if latest is None else latest.done_at,
        lookup_outdated=latest is not None and latest.inputs.get("tm") != tm,
        translated=tuple(sorted({s.name for s in state.steps if s.step == "translate"})),
    )

