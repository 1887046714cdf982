"""Learner ablation for the effort model on WMT12 QE en-es (docs/experiments/effort.md, sessions 3 and 4).

The training matrix comes from the product's own path (import as bench/effort_quality.py does,
``fit_extractor``, ``project_rows``, ``crossfit_qe``, the ``effort`` label) and is cached in
``WORK/wmt12_effort.npz``; each learner is then cross-validated with the bench's outer folds
(GroupKFold(5) by segment; ``used_features`` and every hyper-parameter choice inside the
training fold) and, with ``--seeds``, on further shuffled 5-fold splits (one row per segment,
so a KFold is a split by segment) that no choice was made on. The ``svr`` row reproduces the
product's figure before the ridge joined it, ``svr+ridge`` session 3's product, ``product`` the
current default of the ``effort`` label (``workflows.training.default_model``).

    python3 bench/effort_learners.py [--learners product,svr+ridge,...] [--seeds 5,6,7,8] [--work DIR] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.stats import spearmanr  # noqa: E402
from sklearn.ensemble import ExtraTreesRegressor, HistGradientBoostingRegressor  # noqa: E402
from sklearn.model_selection import GroupKFold, KFold  # noqa: E402

from bench.effort_quality import data_dir  # noqa: E402
from tmtprime.recommend.applicability import used_features  # noqa: E402
from tmtprime.recommend.grouping import grouped_input  # noqa: E402
from tmtprime.recommend.regressor import EffortRegressor  # noqa: E402

Learner = Callable[[np.ndarray, np.ndarray, np.ndarray, int], np.ndarray]


def training_matrix(work: Path, jobs: int) -> dict[str, np.ndarray]:
    """X, names, y (effort, higher = more), hter, segments of the WMT12 training set, built once."""
    cache = work / "wmt12_effort.npz"
    if not cache.is_file():
        from tmtprime.formats import ColumnMapping
        from tmtprime.recommend.labels import candidate_labels
        from tmtprime.store import Store
        from tmtprime.workflows.importing import import_files
        from tmtprime.workflows.project_data import crossfit_qe, fit_extractor, load_segments, project_rows

        db = work / "wmt12_learners.db"
        db.unlink(missing_ok=True)
        mapping = ColumnMapping(mt={"smt": "mt"}, post_edit={"smt": "post_edit"}, effort={"smt": "effort"},
                                reference="reference", key="id")
        with Store.create(db, source_lang="en", target_lang="es") as store:
            import_files(store, [data_dir() / "wmt12_qe_en-es_train.tsv.gz"], role="dev", mapping=mapping)
            data = load_segments(store, role="dev", with_post_edits=True)
            rows, _ = project_rows(store, data, fit_extractor(store, n_jobs=jobs), with_ter=False, n_jobs=jobs)
            rows = crossfit_qe(store, data, rows)
            np.savez(cache, X=rows.X, names=np.array(rows.feature_names), seg=rows.segments,
                     y=candidate_labels(data.segments, "effort", n_jobs=jobs),
                     hter=candidate_labels(data.segments, "hter", n_jobs=jobs))
    return dict(np.load(cache))


def effort_regressor(**params) -> Learner:
    def fit_predict(F, y, T, jobs):
        if params:
            model = EffortRegressor(**params, n_jobs=jobs)
        else:
            from tmtprime.workflows.training import default_model
            model = default_model("effort", y, None, jobs)
        model.fit(grouped_input(F, np.arange(len(F))), y)
        return model.predict(grouped_input(T, np.arange(len(T))))
    return fit_predict


THIRD = 1.0 / 3.0
LEARNERS: dict[str, Learner] = {
    "product": effort_regressor(),
    "svr": effort_regressor(linear_weight=0.0),
    "ridge": effort_regressor(linear_weight=1.0),
    "svr+ridge": effort_regressor(linear_weight=0.5),
    "enet": effort_regressor(linear_weight=1.0, linear_model="enet"),
    "svr+enet": effort_regressor(linear_weight=0.5, linear_model="enet"),
    "enet+forest": effort_regressor(linear_weight=0.5, linear_model="enet", trees_weight=0.5),
    "2enet+forest": effort_regressor(linear_weight=2 * THIRD, linear_model="enet", trees_weight=THIRD),
    "svr+enet+forest": effort_regressor(linear_weight=THIRD, linear_model="enet", trees_weight=THIRD),
    "ridge+forest": effort_regressor(linear_weight=0.5, trees_weight=0.5),
    "trees": lambda F, y, T, jobs: ExtraTreesRegressor(500, min_samples_leaf=5, max_features=0.3, random_state=0,
                                                       n_jobs=jobs).fit(F, y).predict(T),
    "hgb": lambda F, y, T, jobs: HistGradientBoostingRegressor(learning_rate=0.05, max_iter=300, min_samples_leaf=30,
                                                               l2_regularization=1.0, random_state=0).fit(F, y).predict(T),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", default=",".join(LEARNERS))
    parser.add_argument("--work", help="directory for the cached matrix (default: a temporary one)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", default="", help="seeds of further shuffled 5-fold splits, e.g. 5,6,7,8")
    ns = parser.parse_args()
    if data_dir() is None:
        print("shared post-editing data not found (../shared/data/post_editing): nothing to measure")
        return 0
    work = Path(ns.work or tempfile.mkdtemp(prefix="effort-learners-"))
    work.mkdir(parents=True, exist_ok=True)
    m = training_matrix(work, ns.jobs)
    X, names, y, seg = m["X"], list(m["names"]), m["y"], m["seg"]
    print(f"load: {os.getloadavg()[0]:.1f}; WMT12 train {X.shape[0]} rows x {X.shape[1]} columns; target Spearman >= 0.58, MAE <= 0.69")
    splits = {"bench folds": list(GroupKFold(n_splits=5).split(X, groups=seg))}
    for seed in filter(None, ns.seeds.split(",")):
        splits[f"seed {seed}"] = list(KFold(n_splits=5, shuffle=True, random_state=int(seed)).split(X))
    for name in ns.learners.split(","):
        figures = []
        for split, folds in splits.items():
            predicted = np.full(len(y), np.nan)
            for train, test in folds:
                used = used_features(X[train], names)
                predicted[test] = LEARNERS[name](used.matrix(X[train]), y[train], used.matrix(X[test]), ns.jobs)
            mae = float(np.mean(np.abs(np.clip(-predicted, 1, 5) + y)))  # y is the score negated (higher = more effort)
            figures.append((mae, spearmanr(-predicted, -y)[0]))
            print(f"{name:16s} {split:11s} MAE {mae:.3f}  Spearman {figures[-1][1]:.4f}  "
                  f"Spearman(pred, HTER) {spearmanr(predicted, m['hter'])[0]:+.3f}  (load {os.getloadavg()[0]:.1f})", flush=True)
        if len(figures) > 1:
            print(f"{name:16s} mean of {len(figures)} splits: MAE {np.mean([f[0] for f in figures]):.3f}  "
                  f"Spearman {np.mean([f[1] for f in figures]):.4f} (sd {np.std([f[1] for f in figures]):.4f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
