"""Learning from real post-editing effort, through the product's use cases, on the shared post-editing sets.

* ``wmt12``: WMT12 QE en-es training set (1,832 segments, one SMT output each), imported with its
  post-edits and effort scores (1-5, higher = less effort) into a project without a TM; the whole
  training procedure with ``--label effort`` cross-validated (5 folds): MAE, RMSE, Spearman, DeltaAvg
  against the task's targets (the official test labels are held out).
* ``mlqe``: MLQE-PE en-de, ``--label hter`` trained on the 7,000 training segments (timed, ``-j``),
  recommended on the 1,000 dev segments: r(confidence, HTER).
* ``ape``: WMT16/17 APE en-de IT: TM = the first 8,000 pairs (source -> post-edit), dev = the next
  4,000, test = the rest; ``--label hter`` on dev, r(confidence, HTER) on test.

    python3 bench/effort_quality.py [--only wmt12,mlqe,ape] [--jobs 2] [--work DIR] [--wmt12-corpus TSV]
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tmtprime.features.general_corpus import general_bitext_path  # noqa: E402
from tmtprime.formats import ColumnMapping  # noqa: E402
from tmtprime.store import Store  # noqa: E402
from tmtprime.workflows.effort_evaluation import evaluate_effort  # noqa: E402
from tmtprime.workflows.importing import import_corpora, import_files  # noqa: E402
from tmtprime.workflows.recommendation import recommend  # noqa: E402
from tmtprime.workflows.training import train  # noqa: E402

TARGETS = {"wmt12 MAE": 0.69, "wmt12 Spearman": 0.58, "train seconds": 300.0}


def data_dir() -> Path | None:
    for c in (os.environ.get("TMTPRIME_SHARED_DIR"), Path(__file__).resolve().parents[2] / "shared", "/work/shared"):
        if c and (Path(c) / "data" / "post_editing").is_dir():
            return Path(c) / "data" / "post_editing"
    return None


def _project(work: Path, name: str, source: str, target: str) -> Store:
    db = work / f"{name}.db"
    db.unlink(missing_ok=True)
    return Store.create(db, source_lang=source, target_lang=target)


def wmt12(data: Path, work: Path, jobs: int, corpus: Path | None = None) -> None:
    mapping = ColumnMapping(mt={"smt": "mt"}, post_edit={"smt": "post_edit"}, effort={"smt": "effort"},
                            reference="reference", key="id")
    with _project(work, "wmt12", "en", "es") as store:
        import_files(store, [data / "wmt12_qe_en-es_train.tsv.gz"], role="dev", mapping=mapping)
        if corpus is not None:
            import_corpora(store, [corpus], mapping=ColumnMapping(source="source", target="target"))
        rep = evaluate_effort(store, label="effort", n_splits=5, n_jobs=jobs)
    fit = rep.effort_fit
    general = general_bitext_path("en", "es")
    print(f"wmt12 effort, 5-fold CV on the training set (no TM; shipped general corpus: "
          f"{general.name if general else 'none'}; project corpus: {corpus.name if corpus else 'none'}): {fit.render()}")
    print(f"  target (WMT12 baseline on the official test): MAE <= {TARGETS['wmt12 MAE']}, Spearman >= "
          f"{TARGETS['wmt12 Spearman']} -> MAE {'met' if fit.mae <= TARGETS['wmt12 MAE'] else 'NOT met'}, "
          f"Spearman {'met' if fit.spearman >= TARGETS['wmt12 Spearman'] else 'NOT met'}")
    print("  " + rep.render().replace("\n", "\n  ").rstrip())


def _hter_run(store: Store, dev: Path, test: Path, mt_col: str, jobs: int, what: str) -> None:
    mapping = ColumnMapping(mt={"mt": mt_col}, post_edit={"mt": "post_edit"})
    import_files(store, [dev], role="dev", mapping=mapping)
    (doc,) = import_files(store, [test], role="document", mapping=mapping)
    t0 = time.perf_counter()
    outcome = train(store, name="hter", label="hter", n_jobs=jobs)
    seconds = time.perf_counter() - t0
    done = recommend(store, model="hter", n_jobs=jobs)
    rep = evaluate_effort(store, document=doc.document.name, model="hter", n_jobs=jobs)
    n, r, rho = rep.correlations["HTER"]
    cv = outcome.card["cross_validated"]
    print(f"{what}: trained --label hter on {outcome.card['data']['segments']} segments in {seconds:.0f} s "
          f"(-j {jobs}; target < {TARGETS['train seconds']:.0f} s: {'met' if seconds < TARGETS['train seconds'] else 'NOT met'}); "
          f"in-training CV Pearson(pred, HTER) {cv['pearson']:+.3f}")
    print(f"  held-out: r(confidence, HTER) {r:+.3f}, Spearman {rho:+.3f} (n = {n}); warnings: {list(done.warnings) or 'none'}")


def mlqe(data: Path, work: Path, jobs: int) -> None:
    with _project(work, "mlqe", "en", "de") as store:
        _hter_run(store, data / "mlqe_pe_en-de_train.tsv.gz", data / "mlqe_pe_en-de_dev.tsv.gz", "mt", jobs,
                  "MLQE-PE en-de (no TM)")


def ape(data: Path, work: Path, jobs: int) -> None:
    with gzip.open(data / "ape_en-de_it.tsv.gz", "rt", encoding="utf-8") as f:
        header, *rows = f.read().splitlines()
    parts = {"tm": rows[:8000], "dev": rows[8000:12000], "test": rows[12000:]}
    files = {}
    for name, lines in parts.items():
        files[name] = work / f"ape_{name}.tsv"
        files[name].write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    with _project(work, "ape", "en", "de") as store:
        import_files(store, [files["tm"]], role="tm", mapping=ColumnMapping(source="source", target="post_edit"))
        _hter_run(store, files["dev"], files["test"], "mt", jobs, "APE en-de IT (TM = 8,000 post-edited pairs)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="wmt12,mlqe,ape")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--wmt12-corpus", type=Path,
                        help="an en-es bitext TSV (source, target) imported as a corpus into the WMT12 project "
                        "(bench/prepare_qe_corpus.py writes one)")
    parser.add_argument("--work", help="directory for the benchmark projects (default: a temporary one)")
    ns = parser.parse_args()
    data = data_dir()
    if data is None:
        print("shared post-editing data not found (../shared/data/post_editing): nothing to measure")
        return 0
    work = Path(ns.work or tempfile.mkdtemp(prefix="effort-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"load: {os.getloadavg()[0]:.1f} (1-min average) on {os.cpu_count()} cores")
    for name in ns.only.split(","):
        if name == "wmt12":
            wmt12(data, work, ns.jobs, ns.wmt12_corpus)
        else:
            {"mlqe": mlqe, "ape": ape}[name](data, work, ns.jobs)
    print(f"load: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
