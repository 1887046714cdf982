"""Cost estimates against the actual cost on the shared dev data, cross-validated by document.

For each scenario of ../shared/data/tm_l10n_en-es (update, crossproject): the
recommender is cross-validated by document exactly as in
``bench/recommend_quality.py`` (its feature rows, its folds); each test fold's
band calibration is fitted on the out-of-fold predictions the fold's own
training run made on its training documents (never on the test fold). The
cost of every plan (each system alone, the classic rule, TMTprime's picks,
the cost-aware choice) is then estimated from the predictions and compared
with the actual cost, from each candidate's TER against the reference.

    python3 bench/cost_estimate.py [--scenario update] [--scheme matecat] [--cache DIR] [--jobs 2]

``--cache`` keeps feature rows (shared with recommend_quality.py) and the
cross-validated predictions between runs. ``--calibrate-card CARD.json``
instead adds a band calibration to a model card whose model was trained on
the given scenario's dev data (the shipped default: ``--scenario update``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import GroupKFold

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import shared_data_dir  # noqa: E402
from recommend_quality import rows_for  # noqa: E402

from tmtprime.features.extractor import FEATURE_SET_VERSION  # noqa: E402
from tmtprime.recommend.evaluation import cross_validate  # noqa: E402
from tmtprime.recommend.model import TMTprimeRecommender  # noqa: E402

SCENARIOS = ("update", "crossproject")


def cross_validated(scenario: str, rows, cache: Path | None, jobs: int, folds: int) -> dict[str, np.ndarray]:
    """Out-of-fold predictions, picks, and per fold the training run's own out-of-fold predicted TER."""
    saved = cache / f"{scenario}-cost-cv-v{FEATURE_SET_VERSION}-k{folds}.npz" if cache else None
    if saved is not None and saved.exists():
        return dict(np.load(saved, allow_pickle=False))
    models: list[TMTprimeRecommender] = []

    def make() -> TMTprimeRecommender:
        models.append(TMTprimeRecommender(n_jobs=jobs))
        return models[-1]

    t0 = time.perf_counter()
    cv = cross_validate(rows, make, n_splits=folds)
    seg_groups = np.empty(rows.n_segments, dtype=object)
    seg_groups[rows.segments] = rows.groups
    splitter = GroupKFold(n_splits=min(folds, len(set(seg_groups))))
    fold_of_row = np.full(len(rows.X), -1)
    train_oof = np.full((len(models), len(rows.X)), np.nan)
    for k, (train_seg, test_seg) in enumerate(splitter.split(np.zeros(rows.n_segments), groups=seg_groups)):
        fold_of_row[np.isin(rows.segments, test_seg)] = k
        train_oof[k, np.isin(rows.segments, train_seg)] = models[k].oof_predicted_ter_
    out = {
        "probability": cv.probability, "predicted_ter": cv.predicted_ter, "picks": cv.picks, "single": cv.single,
        "rule": cv.rule, "fold_of_row": fold_of_row, "train_oof": train_oof,
        "rule_threshold_by_fold": np.array(cv.rule_threshold_by_fold),
    }
    print(f"[{scenario}] cross-validation {time.perf_counter() - t0:.0f} s", flush=True)
    if saved is not None:
        np.savez(saved, **out)
    return out
