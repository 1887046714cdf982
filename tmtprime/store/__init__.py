"""The project store: SQLAlchemy 2.0 ORM over SQLite (default) or any SQLAlchemy URL.

Open or create a project, then use its sections (each call is one unit of
work; what it returns is detached from sessions: segments, candidates and TM
units as the domain dataclasses of :mod:`tmtprime.formats.model` with their ids,
the rest as frozen records)::

    from tmtprime.store import Store, NewCandidate, NewRecommendation, CandidatePrediction

    with Store.open("P.db") as store:                      # upgrades an older schema in place
        store.project()                                     # languages, schema version
        store.documents.list(role="dev")                    # imported files
        store.tm.count(); store.tm.iter_units()             # TM units, streamed in id order
        store.tm.exact("Open the file")                     # indexed exact match (whitespace-insensitive)
        for seg in store.segments.iter(role="document"):    # file order, candidates attached
            ...
        store.segments.add_candidates([NewCandidate(seg.id, "eng-spa", "mt", text)])
        store.features.define("bb-1", names); store.features.save("bb-1", [(cand_id, vector)])
        ids, X = store.features.load("bb-1")
        store.models.save("svm-1", skops_bytes, card)
        store.recommendations.save("svm-1", [NewRecommendation(seg.id, cand_id, 0.83, {...})])
        store.recommendations.fill(segments)                # each segment's pick (override, else the model's)
        store.cost_schemes.save("default", scheme)
        store.steps.status()                                # per work document: steps done, picks, stale picks
        with store.job_lock("lookup", reporter): ...        # one lookup/translate/recommend at a time (PostgreSQL)

Sections: :class:`~tmtprime.store.documents.Documents`,
:class:`~tmtprime.store.segments.Segments` and ``Systems``,
:class:`~tmtprime.store.tm.TranslationMemory`,
:class:`~tmtprime.store.features.Features`, :class:`~tmtprime.store.models.Models`,
:class:`~tmtprime.store.recommendations.Recommendations`,
:class:`~tmtprime.store.schemes.CostSchemes`, :class:`~tmtprime.store.steps.DocumentSteps`.
Candidates written again are merged (:mod:`~tmtprime.store.merge`), and a newer
version of a document takes the older one's place (:mod:`~tmtprime.store.versions`),
so picks survive re-runs. Own queries: ``store.session()``
(ORM, tables in :mod:`tmtprime.store.schema`) or ``store.connection()`` (Core),
``write=True`` for units of work that write.

Files: :func:`import_file` (one transaction per file, idempotent); exporting
is :func:`tmtprime.report.exporter.export_project` (it writes the picks).
"""

from tmtprime.store.importer import ImportResult, import_file
from tmtprime.store.project import Store
from tmtprime.store.records import (
    CandidatePrediction,
    CandidateRecord,
    DocumentRecord,
    FeatureSetRecord,
    ModelRecord,
    NewCandidate,
    NewRecommendation,
    ProjectRecord,
    SegmentRecord,
    SystemRecord,
    TMRecord,
)

__all__ = [
    "CandidatePrediction",
    "CandidateRecord",
    "DocumentRecord",
    "FeatureSetRecord",
    "ImportResult",
    "ModelRecord",
    "NewCandidate",
    "NewRecommendation",
    "ProjectRecord",
    "SegmentRecord",
    "Store",
    "SystemRecord",
    "TMRecord",
    "import_file",
]
