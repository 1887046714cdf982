"""Feature vectors of candidates, stored per named feature set.

A feature set (``blackbox-v1``...) fixes the names and order of the columns;
each candidate has at most one vector per set, kept as float64 little-endian
bytes so that any backend stores it as an opaque blob and it loads straight
into a numpy matrix. Changing the feature extractor means a new set name, so
models trained on an older set keep working with their own vectors.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import delete, insert, select

from tmtprime.errors import StoreError
from tmtprime.parallel import batched
from tmtprime.store import schema as db
from tmtprime.store.bulk import insert_rows
from tmtprime.store.records import FeatureSetRecord

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike

    from tmtprime.store.project import Store

_SETS = db.FeatureSetRow.__table__
_ROWS = db.FeatureRow.__table__
_DTYPE = "<f8"


class Features:
    """Feature sets and per-candidate feature vectors."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def define(self, name: str, feature_names: Sequence[str]) -> FeatureSetRecord:
        """Register a feature set, or check that an existing one has exactly these names."""
        names = [str(n) for n in feature_names]
        if not names or len(set(names)) != len(names):
            raise StoreError(f"feature set {name!r} needs a non-empty list of distinct feature names")
        with self._store.connection(write=True) as conn:
            row = conn.execute(select(_SETS).where(_SETS.c.name == name)).one_or_none()
            if row is None:
                conn.execute(insert(_SETS).values(name=name, feature_names=names, created_at=db.utcnow()))
                row = conn.execute(select(_SETS).where(_SETS.c.name == name)).one()
            elif list(row.feature_names) != names:
                raise StoreError(
                    f"feature set {name!r} already exists with other features; "
                    "give a changed feature extractor a new feature-set name"
                )
        return FeatureSetRecord(id=row.id, name=row.name, feature_names=tuple(row.feature_names))

    def exists(self, name: str) -> bool:
        """True when a feature set called ``name`` is defined."""
        with self._store.connection() as conn:
            return conn.execute(select(_SETS.c.id).where(_SETS.c.name == name)).first() is not None

    def get(self, name: str) -> FeatureSetRecord:
        """The feature set called ``name``."""
        with self._store.connection() as conn:
            row = conn.execute(select(_SETS).where(_SETS.c.name == name)).one_or_none()
        if row is None:
            raise StoreError(f"no feature set named {name!r}; compute features first")
        return FeatureSetRecord(id=row.id, name=row.name, feature_names=tuple(row.feature_names))

    def save(self, name: str, rows: Iterable[tuple[int, ArrayLike]]) -> int:
        """Store ``(candidate_id, vector)`` pairs under feature set ``name`` (replacing older vectors).

        One transaction for the whole call; returns the number of vectors stored.
        """
        import numpy as np

        feature_set = self.get(name)
        width = len(feature_set.feature_names)
        total = 0
        with self._store.connection(write=True) as conn:
            for chunk in batched(rows, 2000):
                values = []
                for candidate_id, vector in chunk:
                    array = np.asarray(vector, dtype=_DTYPE)
                    if array.shape != (width,):
                        raise StoreError(
                            f"feature set {name!r} has {width} features, got a vector of shape "
                            f"{array.shape} for candidate {candidate_id}"
                        )
                    values.append(
                        {
                            "feature_set_id": feature_set.id,
                            "candidate_id": int(candidate_id),
                            "vector": array.tobytes(),
                        }
                    )
                ids = [v["candidate_id"] for v in values]
                conn.execute(
                    delete(_ROWS).where(_ROWS.c.feature_set_id == feature_set.id, _ROWS.c.candidate_id.in_(ids))
                )
                insert_rows(conn, _ROWS, values)
                total += len(values)
        return total

    def load(self, name: str, candidate_ids: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(candidate_ids, matrix)`` of the stored vectors of set ``name``, ordered by candidate id.

        With ``candidate_ids``, only those (missing ones are simply absent: compare
        the returned ids to see which still need features).
        """
        import numpy as np

        feature_set = self.get(name)
        query = select(_ROWS.c.candidate_id, _ROWS.c.vector).where(_ROWS.c.feature_set_id == feature_set.id)
        found: list[tuple[int, bytes]] = []
        with self._store.connection() as conn:
            if candidate_ids is None:
                found = [(r.candidate_id, r.vector) for r in conn.execute(query)]
            else:
                # plain ints: numpy integers bind as blobs on SQLite and would match nothing
                for chunk in batched([int(i) for i in candidate_ids], 900):
                    rows = conn.execute(query.where(_ROWS.c.candidate_id.in_(chunk)))
                    found.extend((r.candidate_id, r.vector) for r in rows)
        found.sort()
        width = len(feature_set.feature_names)
        ids = np.fromiter((i for i, _ in found), dtype=np.int64, count=len(found))
        matrix = np.frombuffer(b"".join(v for _, v in found), dtype=_DTYPE).reshape(len(found), width)
        return ids, matrix.astype(np.float64)
