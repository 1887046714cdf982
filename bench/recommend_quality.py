"""Recommendation quality on the shared dev data, cross-validated by document.

For each scenario of ../shared/data/tm_l10n_en-es (update, crossproject):
features from that scenario's TM, labels by TER against the reference, the
whole training procedure (grid search + Platt scaling + TER regressor) inside
a GroupKFold on doc_id, and every target of issue 4 next to the measured figure.

    python3 bench/recommend_quality.py [--scenario update] [--folds 5] [--cache DIR] [--jobs 2] [--repair]

``--cache`` keeps feature matrices and TER labels between runs (they do not
depend on the model); delete it after changing the feature extractor.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import load_segments, load_tm, shared_data_dir  # noqa: E402

from tmtprime.features.extractor import FEATURE_SET_VERSION, CandidateFeatureExtractor  # noqa: E402
from tmtprime.recommend.dataset import build_rows  # noqa: E402
from tmtprime.recommend.evaluation import best_precision_at_recall, cross_validate, meteor_function, report  # noqa: E402
from tmtprime.recommend.svm import TMTprimeRecommender  # noqa: E402

GAP_TARGET = {"update": 0.70, "crossproject": 0.45}


def add_repairs(segments, tm, jobs: int) -> int:
    """Each segment's TM match repaired as the product does it (Apertium eng-spa), as a ``repair`` candidate
    with the attributes the repair workflow stores (which the repair features read)."""
    from tmtprime.formats.model import Candidate
    from tmtprime.mt.apertium import ApertiumEngine
    from tmtprime.tm.repair import REPAIRED, Repairer
    from tmtprime.workflows.repair import repair_attributes

    todo = [(s, c) for s in segments for c in s.candidates[:1] if c.kind == "tm" and (c.fuzzy or 0) >= 50 and c.tm_source]
    repairs = Repairer.from_tm(tm, ApertiumEngine("eng-spa", n_jobs=jobs)).repair([(s.source, c.tm_source, c.text) for s, c in todo])
    for (seg, match), rep in zip(todo, repairs):
        if rep.reason == REPAIRED:
            seg.candidates.append(Candidate("tm-repair", "repair", rep.text or "", fuzzy=match.fuzzy, tm_source=match.tm_source,
                                            attributes=repair_attributes(match, rep)))
    return sum(r.reason == REPAIRED for r in repairs)


def rows_for(scenario: str, data: Path, cache: Path | None, jobs: int, repair: bool = False):
    segments = load_segments(data / scenario / "dev.tsv.gz")
    tm = load_tm(data / scenario / "tm.tsv.gz")
    if repair:
        print(f"[{scenario}] repaired TM matches added: {add_repairs(segments, tm, jobs)}")
    extractor = CandidateFeatureExtractor(n_jobs=jobs)
    cached = cache / f"{scenario}{'-repair' if repair else ''}-v{FEATURE_SET_VERSION}.npz" if cache else None
    t0 = time.perf_counter()
    extractor.fit(tm=tm)
    if cached and cached.exists():
        z = np.load(cached)
        rows = build_rows(segments, extractor, with_ter=False, X=z["X"])
        rows.ter = z["ter"]
    else:
        rows = build_rows(segments, extractor, with_ter=True, n_jobs=jobs)
        if cached:
            cached.parent.mkdir(parents=True, exist_ok=True)
            np.savez(cached, X=rows.X, ter=rows.ter)
    print(f"[{scenario}] {len(segments)} segments, {len(rows.X)} candidates, features+labels {time.perf_counter() - t0:.0f} s")
    return segments, rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", action="append", choices=sorted(GAP_TARGET))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-meteor", action="store_true")
    ap.add_argument("--repair", action="store_true", help="add each TM match repaired by tmtprime.tm.repair as a candidate")
    ap.add_argument("--save", type=Path, help="directory for the out-of-fold predictions (npz per scenario)")
    args = ap.parse_args()
    data = shared_data_dir()
    if data is None:
        print("shared data not found (../shared/data/tm_l10n_en-es); nothing to measure")
        return 1
    meteor = None if args.no_meteor else meteor_function("es")
    for scenario in args.scenario or sorted(GAP_TARGET, reverse=True):
        segments, rows = rows_for(scenario, data, args.cache, args.jobs, args.repair)
        t0 = time.perf_counter()
        cv = cross_validate(rows, lambda: TMTprimeRecommender(n_jobs=args.jobs), n_splits=args.folds)
        t_cv = time.perf_counter() - t0
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            np.savez(args.save / f"{scenario}-cv.npz", probability=cv.probability, predicted_ter=cv.predicted_ter, picks=cv.picks, single=cv.single, rule=cv.rule, ter=rows.ter)
        texts = [c.text for s in segments for c in s.candidates]
        rep = report(cv, meteor=meteor, texts=texts, references=[s.reference or "" for s in segments])
        print(rep.render())
        best_decision = best_precision_at_recall(rep.decision_scores, rep.decision_positive, 0.85, rep.decision_tied)
        print(f"\n== targets [{scenario}] (cross-validation by document, {len(set(rows.groups))} documents, {t_cv:.0f} s) ==")
        print(f"gap closed                       target >= {GAP_TARGET[scenario]:.2f}   measured {rep.gap_closed:.3f}")
        print(f"Pearson r(confidence, TER pick)  target <= -0.50   measured {rep.pearson_ter:+.3f}")
        meteor_r = "n/a" if rep.pearson_meteor is None else f"{rep.pearson_meteor:+.3f}"
        print(f"Pearson r(confidence, Meteor)    target >= +0.45   measured {meteor_r}")
        print(f"ECE of P(pick is best)           target <= 0.05    measured {rep.ece:.3f}")
        if best_decision is None:
            print("MT-over-TM precision @ recall>=0.85: no threshold reaches recall 0.85")
        else:
            print(
                f"MT-over-TM precision @ recall>=0.85  target >= 0.85  measured {best_decision.precision:.3f}"
                f" (threshold {best_decision.threshold:.2f}, recall {best_decision.recall:.3f};"
                f" {best_decision.precision_ties_right:.3f} if MT-TM ties counted right, not the target's measure)"
            )
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
