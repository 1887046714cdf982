"""The project store: SQLAlchemy 2.0 ORM over SQLite (default) or any SQLAlchemy URL.

Open or create a project, then use its sections::

    from tmtprime.store import Store, NewCandidate

    with Store.open("P.db") as store:
        for unit in store.tm.iter_units():                 # TM lookup builds its index
            ...
        segs = store.segments.list(role="dev")             # with candidates
        store.segments.add_candidates([NewCandidate(seg.id, "eng-spa", "mt", text)])

Importing and exporting files: :func:`tmtprime.store.importer.import_file`,
:func:`tmtprime.store.exporter.export_project`. Tables: :mod:`tmtprime.store.schema`.
"""

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
    RecommendationRecord,
    SegmentRecord,
    SystemRecord,
    TMRecord,
)

__all__ = [
    "CandidatePrediction",
    "CandidateRecord",
    "DocumentRecord",
    "FeatureSetRecord",
    "ModelRecord",
    "NewCandidate",
    "NewRecommendation",
    "ProjectRecord",
    "RecommendationRecord",
    "SegmentRecord",
    "Store",
    "SystemRecord",
    "TMRecord",
]
