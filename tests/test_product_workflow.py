"""The judged CLI sequence end to end: create, import TM + dev, train, import a document,
recommend, export the picks — on a synthetic project written here, and (skipped
cleanly without ../shared) on a slice of the real shared data."""

from __future__ import annotations

import csv
import gzip
import random
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import TER

from tests.recommend.synthetic import build
from tmtprime.cli import main

MT = ["eng-spa=mt_apertium_eng-spa", "eng-cat-spa=mt_apertium_eng-cat-spa", "en-gl-es=mt_apertium_en-gl-es"]
SYSTEM_COLUMN = {"tm": "tm_target", **{m.split("=")[0]: m.split("=")[1] for m in MT}}


def _mapping() -> list[str]:
    args = ["--source-col", "source", "--tm-col", "tm_target", "--tm-source-col", "tm_source", "--tm-score-col", "tm_fuzzy_word"]
    for m in MT:
        args += ["--mt-col", m]
    return args


def run_sequence(tmp: Path, tm: Path, dev: Path, new: Path) -> list[dict[str, str]]:
    db = str(tmp / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(tm), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", db, str(dev), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert main(["train", db, "-q"]) == 0
    assert main(["import", db, str(new), "--as", "document", *_mapping(), "-q"]) == 0
    assert main(["recommend", db, "-q"]) == 0
    out = tmp / "picks.csv"
    assert main(["export", db, "--format", "csv", "-o", str(out), "-q"]) == 0
    with out.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _mean_ter(hyps: list[str], refs: list[str]) -> float:
    ter = TER()
    return float(np.mean([ter.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]))


def check_picks(picks: list[dict[str, str]], rows: list[dict[str, str]]) -> tuple[float, dict[str, float]]:
    """The picks follow the file, name a real candidate with its text and a confidence in [0, 1];
    returns the picks' mean TER and every single system's."""
    assert len(picks) == len(rows)
    for k, (pick, row) in enumerate(zip(picks, rows), start=1):
        assert int(pick["index"]) == k
        assert pick["source"] == row["source"]
        assert pick["document"]
        assert pick["system"] in SYSTEM_COLUMN
        assert pick["kind"] == ("tm" if pick["system"] == "tm" else "mt")
        assert pick["text"] == row[SYSTEM_COLUMN[pick["system"]]]
        assert 0.0 <= float(pick["confidence"]) <= 1.0
    refs = [r["reference"] for r in rows]
    singles = {s: _mean_ter([r[c] for r in rows], refs) for s, c in SYSTEM_COLUMN.items()}
    return _mean_ter([p["text"] for p in picks], refs), singles


def test_cli_sequence_on_a_synthetic_project(tmp_path, capsys):
    (tmp_path / "other").mkdir()
    paths, new_rows = build(tmp_path)
    picks = run_sequence(tmp_path, paths["tm"], paths["dev"], paths["new"])
    picked, singles = check_picks(picks, new_rows)
    assert picked < min(singles.values()), (picked, singles)
    # the recommendations use more than one system: the choice is per segment
    assert len({p["system"] for p in picks}) > 1

    capsys.readouterr()
    plots = tmp_path / "plots"
    assert main(["evaluate", str(tmp_path / "P.db"), "--folds", "2", "--plots", str(plots), "--no-meteor", "-q"]) == 0
    out = capsys.readouterr().out
    for needle in ("TMTprime picks", "oracle", "fuzzy rule", "gap closed", "MT over TM", "Pearson r", "expected calibration error"):
        assert needle in out
    assert (plots / "precision_recall.png").stat().st_size > 0
    assert (plots / "reliability.png").stat().st_size > 0

    # a held-out document with references: the stored model evaluated on it
    other, _ = build(tmp_path / "other", seed=11, n_dev=40)
    db = str(tmp_path / "P.db")
    assert main(["import", db, str(other["dev"]), "--as", "document", "--name", "heldout", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert main(["evaluate", db, "--document", "heldout", "--no-meteor", "-q"]) == 0
    out = capsys.readouterr().out
    assert "segments evaluated: 40" in out


def test_a_project_without_references_gets_the_shipped_model(tmp_path):
    """No dev data, no training: recommend falls back to the model in models/."""
    import skops.io as sio

    from tmtprime.paths import models_dir
    from tmtprime.recommend.persist import TRUSTED_TYPES
    from tmtprime.workflows.model_choice import DEFAULT_MODEL_FILE, SHIPPED_MODEL_NAME

    shipped = models_dir() / DEFAULT_MODEL_FILE
    assert sio.load(shipped, trusted=TRUSTED_TYPES) is not None  # only our own types need trusting
    paths, new_rows = build(tmp_path, n_new=30)
    db = str(tmp_path / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", db, str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    assert main(["recommend", db, "-q"]) == 0
    out = tmp_path / "picks.csv"
    assert main(["export", db, "--format", "csv", "-o", str(out), "--model", SHIPPED_MODEL_NAME, "-q"]) == 0
    with out.open(encoding="utf-8", newline="") as f:
        picks = list(csv.DictReader(f))
    check_picks(picks, new_rows)


def _slice(src: Path, dst: Path, keep) -> list[dict[str, str]]:
    with gzip.open(src, "rt", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
    chosen = keep(rows)
    with gzip.open(dst, "wt", encoding="utf-8") as f:
        f.write("\t".join(header) + "\n")
        for r in chosen:
            f.write("\t".join(r[h] for h in header) + "\n")
    return chosen


@pytest.mark.slow
def test_cli_sequence_on_shared_data(tmp_path, shared_data):
    """Train on part of the real update dev data, recommend for strings of other catalogs."""
    base = shared_data / "tm_l10n_en-es" / "update"
    rng = random.Random(0)
    _slice(base / "tm.tsv.gz", tmp_path / "tm.tsv.gz", lambda rows: rows[:30000])
    docs: list[str] = []
    dev_rows = _slice(base / "dev.tsv.gz", tmp_path / "dev.tsv.gz", lambda rows: _pick_docs(rows, rng, docs, 700, train=True))
    new_rows = _slice(base / "dev.tsv.gz", tmp_path / "new.tsv.gz", lambda rows: _pick_docs(rows, rng, docs, 250, train=False))
    assert dev_rows and new_rows
    picks = run_sequence(tmp_path, tmp_path / "tm.tsv.gz", tmp_path / "dev.tsv.gz", tmp_path / "new.tsv.gz")
    picked, singles = check_picks(picks, new_rows)
    assert picked < min(singles.values()), (picked, singles)


def _pick_docs(rows, rng, docs: list[str], limit: int, *, train: bool):
    if not docs:
        names = sorted({r["doc_id"] for r in rows})
        rng.shuffle(names)
        docs.extend(names)
    half = len(docs) * 2 // 3
    wanted = set(docs[:half] if train else docs[half:])
    return [r for r in rows if r["doc_id"] in wanted][:limit]
