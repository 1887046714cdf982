"""Does a paraphrase table pivoted from the project's TM help the recommender's Meteor features?

On ``update/dev`` of ../shared/data/tm_l10n_en-es, cross-validated by document
exactly as bench/recommend_quality.py does, the gap closed of:

* ``baseline``   — the shipped feature set;
* ``+meteor``    — plus full-Meteor agreement of each candidate with the others
  (Spanish, ``exact stem``): mean and max over the other candidates, and the
  score against the TM match;
* ``+meteor+para`` — the same three columns with the ``paraphrase`` module on a
  Spanish table pivoted through English from the update TM (``--table``, built
  by ``tmtprime meteor paraphrase build`` / bench/meteor_pivot.py);
* ``+meteor+copy``, ``+meteor+para+copy`` — with Meteor++ copy knowledge from
  the same TM (``--copy-words``, built by ``tmtprime meteor copy-words TM --from tm -l es``).

    python3 bench/meteor_extensions_recommender.py --table es-para.gz [--copy-words copy-es.tsv] [--cache DIR] [--variants ...]

Figures and their reading: docs/experiments/meteor-extensions.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import shared_data_dir  # noqa: E402
from recommend_quality import rows_for  # noqa: E402

from tmtprime.meteor.scorer import Meteor  # noqa: E402
from tmtprime.recommend.evaluation import cross_validate, report  # noqa: E402
from tmtprime.recommend.svm import TMTprimeRecommender  # noqa: E402

NAMES = ("cand_meteor_agree_mean", "cand_meteor_agree_max", "cand_meteor_agree_tm")


def agreement_columns(segments, meteor: Meteor) -> np.ndarray:
    """Per candidate: Meteor against each other candidate of its segment (mean, max) and against the best TM match."""
    hyps, refs, owner = [], [], []
    for s_idx, seg in enumerate(segments):
        texts = [c.text for c in seg.candidates]
        for i in range(len(texts)):
            for j in range(len(texts)):
                if i != j:
                    hyps.append(texts[i])
                    refs.append([texts[j]])
                    owner.append((s_idx, i, j))
    scores = [s.score for s in meteor.score_each(hyps, refs)]
    table: dict[tuple[int, int, int], float] = dict(zip(owner, scores))
    rows = []
    for s_idx, seg in enumerate(segments):
        n = len(seg.candidates)
        tms = [k for k, c in enumerate(seg.candidates) if c.kind == "tm" and c.text]
        best = max(tms, key=lambda k: seg.candidates[k].fuzzy or 0.0) if tms else None
        for i in range(n):
            others = [table[(s_idx, i, j)] for j in range(n) if j != i]
            tm = 0.0 if best is None else (1.0 if best == i else table[(s_idx, i, best)])
            rows.append([float(np.mean(others)) if others else 0.0, max(others, default=0.0), tm])
    return np.asarray(rows)


def with_columns(rows, extra: np.ndarray):
    return dataclasses.replace(rows, X=np.hstack([rows.X, extra]), feature_names=(*rows.feature_names, *NAMES))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", type=Path, required=True, help="Spanish paraphrase table (Meteor format)")
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--copy-words", type=Path, help="copy words (tmtprime meteor copy-words TM --from tm) for the +copy variants")
    ap.add_argument("--variants", default="baseline,+meteor,+meteor+para", help="also +meteor+copy, +meteor+para+copy")
    args = ap.parse_args()
    data = shared_data_dir()
    if data is None:
        print("shared data not found (../shared/data/tm_l10n_en-es); nothing to measure")
        return 1
    segments, rows = rows_for("update", data, args.cache, args.jobs)
    variants = {}
    for name in args.variants.split(","):
        if name == "baseline":
            variants[name] = rows
            continue
        modules = ["exact", "stem", "paraphrase"] if "+para" in name else ["exact", "stem"]
        extensions = {}
        if "+copy" in name:  # Meteor++ copy knowledge (tmtprime.meteor.copy_words, from branch i23b)
            from tmtprime.meteor.copy_words import CopyKnowledge

            extensions["copy_knowledge"] = CopyKnowledge.from_spec(str(args.copy_words))
        meteor = Meteor(lang="es", modules=modules, paraphrase_table=args.table if "paraphrase" in modules else None, **extensions)
        t0 = time.perf_counter()
        extra = agreement_columns(segments, meteor)
        print(f"[{name}] Meteor agreement columns ({' '.join(modules)}): {time.perf_counter() - t0:.0f} s", flush=True)
        variants[name] = with_columns(rows, extra)
    for name, variant in variants.items():
        t0 = time.perf_counter()
        cv = cross_validate(variant, lambda: TMTprimeRecommender(n_jobs=args.jobs), n_splits=args.folds)
        rep = report(cv)
        print(f"{name:<14} gap closed {rep.gap_closed:.4f}  (mean TER of picks {rep.mean_ter['TMTprime picks']:.2f}; "
              f"CV {time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
