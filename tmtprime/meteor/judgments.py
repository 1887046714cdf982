"""Tables of segment-level human judgments, the data Meteor is meta-evaluated and tuned on.

One row per (source segment, system output): columns ``doc_id``, ``seg_id``,
``system``, ``source``, ``reference``, ``hypothesis``, ``human_score``
(higher is better), tab-separated with a header row, optionally gzipped, as
in ``../shared/data/human_judgments/``. Other columns are ignored. Rows of one
source segment (same ``doc_id`` and ``seg_id``) form a *group*: metrics are
also compared within groups, where the systems translated the same sentence.
"""

from __future__ import annotations

import gzip
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tmtprime.errors import InputError

COLUMNS = ("doc_id", "seg_id", "system", "source", "reference", "hypothesis", "human_score")


@dataclass(frozen=True)
class Judgments:
    """The rows of a judgment table, column by column."""

    doc_ids: list[str]
    seg_ids: list[str]
    systems: list[str]
    sources: list[str]
    references: list[str]
    hypotheses: list[str]
    human: np.ndarray
    """Human scores (float64), higher is better."""

    def __len__(self) -> int:
        return len(self.hypotheses)

    @property
    def groups(self) -> np.ndarray:
        """Per row, the index (0-based, in order of first appearance) of its source segment."""
        index: dict[tuple[str, str], int] = {}
        return np.array([index.setdefault(key, len(index)) for key in zip(self.doc_ids, self.seg_ids)], np.int64)

    @property
    def documents(self) -> np.ndarray:
        """Per row, the index of its document (for cross-validation by document)."""
        index: dict[str, int] = {}
        return np.array([index.setdefault(d, len(index)) for d in self.doc_ids], np.int64)

    def subset(self, rows: np.ndarray) -> Judgments:
        """The rows ``rows`` (indexes), in that order."""
        pick = rows.tolist()
        return Judgments(*([col[i] for i in pick] for col in (self.doc_ids, self.seg_ids, self.systems, self.sources,
                                                             self.references, self.hypotheses)),
                         human=self.human[rows])  # fmt: skip


def read_judgments(path: str | Path) -> Judgments:
    """Read a judgment table; a missing column, a short row or a non-numeric score names the line."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            missing = [c for c in COLUMNS if c not in header]
            if missing:
                raise InputError(
                    f"missing column(s) {', '.join(missing)}; a judgment table needs the tab-separated header "
                    + " ".join(COLUMNS), file=path, location="line 1")  # fmt: skip
            at = [header.index(c) for c in COLUMNS]
            cols: list[list[str]] = [[] for _ in COLUMNS]
            for number, line in enumerate(f, start=2):
                cells = line.rstrip("\n").split("\t")
                if len(cells) < len(header):
                    raise InputError(f"{len(cells)} cells, the header has {len(header)}", file=path, location=f"line {number}")
                for col, i in zip(cols, at):
                    col.append(cells[i])
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror or error})", file=path) from None
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile) as error:
        raise InputError(f"is not UTF-8 text or a gzip file of it ({error})", file=path) from None
    human = np.empty(len(cols[0]))
    for k, text in enumerate(cols[6]):
        try:
            human[k] = float(text)
        except ValueError:
            human[k] = math.nan
        if not math.isfinite(human[k]):
            raise InputError(f"human_score {text!r} is not a number", file=path, location=f"line {k + 2}")
    if not len(human):
        raise InputError("has no rows below its header", file=path)
    return Judgments(*cols[:6], human=human)
