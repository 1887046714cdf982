"""Read the team's shared TM/MT data (../shared/data/tm_l10n_en-es) for benchmarks.

Maps the dev TSV columns the way the judged ``tmtprime import`` command does
(TM match with its source and word fuzzy score, three Apertium outputs).
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

from tmtprime.formats.model import Candidate, Segment

MT_COLUMNS = {
    "apertium_eng-spa": "mt_apertium_eng-spa",
    "apertium_eng-cat-spa": "mt_apertium_eng-cat-spa",
    "apertium_en-gl-es": "mt_apertium_en-gl-es",
}


def shared_data_dir() -> Path | None:
    for c in (os.environ.get("TMTPRIME_SHARED_DIR"), Path(__file__).resolve().parents[2] / "shared", "/work/shared"):
        if c and (Path(c) / "data" / "tm_l10n_en-es").is_dir():
            return Path(c) / "data" / "tm_l10n_en-es"
    return None


def read_tsv(path: Path) -> list[dict[str, str]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]


def load_segments(path: Path, with_reference: bool = True) -> list[Segment]:
    segments = []
    for row in read_tsv(path):
        cands = [Candidate("tm", "tm", row["tm_target"], fuzzy=float(row["tm_fuzzy_word"] or 0), tm_source=row["tm_source"])]
        cands += [Candidate(name, "mt", row[col]) for name, col in MT_COLUMNS.items()]
        segments.append(
            Segment(
                key=f"{row['doc_id']}#{row['seg_id']}",
                source=row["source"],
                reference=row["reference"] if with_reference else None,
                context=row["msgctxt"] or None,
                candidates=cands,
                attributes={"doc_id": row["doc_id"]},
            )
        )
    return segments


def load_tm(path: Path) -> list[tuple[str, str]]:
    return [(r["source"], r["target"]) for r in read_tsv(path)]
