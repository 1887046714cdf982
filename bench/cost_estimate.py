"""Cost estimates against the actual cost on the shared dev data, cross-validated by document.

For each scenario of ../shared/data/tm_l10n_en-es (update, crossproject): the
recommender is cross-validated by document exactly as in
``bench/recommend_quality.py`` (its feature rows, its folds); each test fold's
band calibration is fitted on the out-of-fold predictions the fold's own
training run made on its training documents (never on the test fold). The
cost of every plan (each system alone, the classic rule, TMTprime's picks,
the cost-aware choice) is then estimated from the predictions and compared
with the actual cost, from each candidate's TER against the reference.

    python3 bench/cost_estimate.py [--scenario update] [--scheme matecat] [--cache DIR] [--jobs 2] [--repair]

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

from tmtprime.cost import CARD_KEY, Job, estimate_job, fit_band_calibration, load_scheme  # noqa: E402
from tmtprime.features.extractor import FEATURE_SET_VERSION  # noqa: E402
from tmtprime.recommend.evaluation import cross_validate  # noqa: E402
from tmtprime.recommend.svm import TMTprimeRecommender  # noqa: E402

SCENARIOS = ("update", "crossproject")


def cross_validated(scenario: str, rows, cache: Path | None, jobs: int, folds: int, repair: bool = False) -> dict[str, np.ndarray]:
    """Out-of-fold predictions, picks, and per fold the training run's own out-of-fold predicted TER."""
    saved = cache / f"{scenario}{'-repair' if repair else ''}-cost-cv-v{FEATURE_SET_VERSION}-k{folds}.npz" if cache else None
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


def fold_jobs(segments, rows, cv: dict[str, np.ndarray]):
    """One job per test fold (its held-out documents), with the calibration its training run allows."""
    fold_of_segment = np.full(rows.n_segments, -1)
    fold_of_segment[rows.segments] = cv["fold_of_row"]
    is_tm = rows.kinds == "tm"
    for k in range(len(cv["train_oof"])):
        seg_ids = np.nonzero(fold_of_segment == k)[0]
        keep = np.isin(rows.segments, seg_ids)
        renumber = np.full(rows.n_segments, -1)
        renumber[seg_ids] = np.arange(len(seg_ids))
        row_index = np.full(len(rows.X), -1)
        row_index[keep] = np.arange(keep.sum())
        job = Job(
            sources=[segments[i].source for i in seg_ids],
            documents=np.array([segments[i].attributes["doc_id"] for i in seg_ids], dtype=object),
            segments=renumber[rows.segments[keep]],
            systems=rows.systems[keep],
            kinds=rows.kinds[keep],
            fuzzy=np.where(is_tm, rows.fuzzy, np.nan)[keep],
            predicted_ter=cv["predicted_ter"][keep],
            probability=cv["probability"][keep],
            actual_ter=rows.ter[keep],
            picks=row_index[cv["picks"][seg_ids]],
        )
        trained = ~np.isnan(cv["train_oof"][k])
        calibration = fit_band_calibration(cv["train_oof"][k][trained], rows.ter[trained], rows.kinds[trained])
        yield job, calibration


def measure(scenario: str, segments, rows, cv: dict[str, np.ndarray], scheme) -> bool:
    """Print every plan's estimate and actual cost, the targets and the band confusion; True if the targets are met."""
    totals: dict[str, dict[str, float]] = {}
    confusion = None
    labels: list[str] = []
    fold_errors = []
    for job, calibration in fold_jobs(segments, rows, cv):
        calibrated = estimate_job(job, scheme, calibration=calibration)
        point = estimate_job(job, scheme, calibration=None)
        for p, q in zip(calibrated.plans, point.plans):
            t = totals.setdefault(p.plan, {"estimate": 0.0, "point": 0.0, "cat": 0.0, "actual": 0.0, "kind": p.kind})
            t["estimate"] += p.cost
            t["point"] += q.cost
            t["cat"] += p.cat_cost
            t["actual"] += p.actual_cost or 0.0
        tp = calibrated.plan("tmtprime")
        fold_errors.append(tp.error_pct)
        counts = np.array(calibrated.confusion["counts"])
        confusion = counts if confusion is None else confusion + counts
        labels = calibrated.confusion["labels"]
    print(f"\n== cost per plan [{scenario}] (scheme {scheme.name}, {scheme.currency}; folds by document, estimates on held-out documents) ==")
    print(f"{'plan':<14}{'estimate':>11}{'actual':>11}{'error %':>9}{'point est.':>12}{'error %':>9}{'CAT conv.':>11}")
    for name, t in totals.items():
        err = (t["estimate"] - t["actual"]) / t["actual"] * 100
        perr = (t["point"] - t["actual"]) / t["actual"] * 100
        print(f"{name:<14}{t['estimate']:>11.2f}{t['actual']:>11.2f}{err:>+9.1f}{t['point']:>12.2f}{perr:>+9.1f}{t['cat']:>11.2f}")
    picks = totals["tmtprime"]
    others = {n: t for n, t in totals.items() if t["kind"] in ("tm", "mt", "rule")}
    beaten = all(picks["actual"] < t["actual"] for t in others.values())
    runner_up = min(others, key=lambda n: others[n]["actual"])
    error = abs(picks["estimate"] - picks["actual"]) / picks["actual"]
    print(f"\n== targets [{scenario}] ==")
    print(
        f"actual cost of TMTprime's picks below every single system and the rule: {'yes' if beaten else 'NO'} "
        f"({picks['actual']:.2f} vs {others[runner_up]['actual']:.2f} for {runner_up}, the cheapest of the others)"
    )
    print(f"estimated total of the picks within 10 % of actual   target <= 10.0 %  measured {error * 100:.1f} %")
    print(f"  (per held-out fold: {', '.join(f'{e:+.1f} %' for e in fold_errors)})")
    print(f"\nband confusion of the picks (rows: predicted band, columns: actual band; {int(confusion.sum())} segments)")
    width = max(len(lb) for lb in labels) + 2
    print(" " * 11 + "".join(f"{lb:>{width}}" for lb in labels))
    for lb, row in zip(labels, confusion):
        print(f"{'pred ' + lb:<11}" + "".join(f"{int(v):>{width}}" for v in row))
    print(flush=True)
    return beaten and error <= 0.10


def calibrate_card(card_path: Path, scenario: str, data: Path, cache: Path | None, jobs: int) -> None:
    """Add the band calibration to a shipped model card, from the model's own out-of-fold predictions."""
    from tmtprime.recommend import persist

    model_path = card_path.with_name(card_path.name.removesuffix(persist.CARD_SUFFIX) + ".skops")
    model, card = persist.load_file(model_path)
    _segments, rows = rows_for(scenario, data, cache, jobs)
    oof = model.oof_predicted_ter_
    if len(oof) != len(rows.ter):
        raise SystemExit(f"{model_path} was trained on {len(oof)} candidate rows, {scenario}/dev has {len(rows.ter)}")
    r = float(np.corrcoef(oof, rows.ter)[0, 1])
    if r < 0.3:
        raise SystemExit(f"out-of-fold predictions and {scenario}/dev TER correlate at r = {r:.2f}: not the training rows")
    card[CARD_KEY] = fit_band_calibration(oof, rows.ter, rows.kinds).to_dict()
    card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{card_path}: band calibration added (r(out-of-fold predicted TER, TER) = {r:.3f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", action="append", choices=SCENARIOS)
    ap.add_argument("--scheme", default="matecat", help="preset name or scheme file (default: matecat)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repair", action="store_true", help="add each TM match repaired by tmtprime.tm.repair as a candidate")
    ap.add_argument("--calibrate-card", type=Path, metavar="CARD.json", help="add the band calibration to this model card and stop")
    args = ap.parse_args()
    data = shared_data_dir()
    if data is None:
        print("shared data not found (../shared/data/tm_l10n_en-es); nothing to measure")
        return 1
    if args.calibrate_card:
        calibrate_card(args.calibrate_card, (args.scenario or ["update"])[0], data, args.cache, args.jobs)
        return 0
    scheme = load_scheme(args.scheme)
    ok = True
    for scenario in args.scenario or SCENARIOS:
        segments, rows = rows_for(scenario, data, args.cache, args.jobs, args.repair)
        cv = cross_validated(scenario, rows, args.cache, args.jobs, args.folds, args.repair)
        print(f"[{scenario}] mean TER of TMTprime's picks {rows.ter[cv['picks']].mean():.2f}")
        ok &= measure(scenario, segments, rows, cv, scheme)
    print("all targets met" if ok else "some targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
