"""Repaired TM matches on the shared dev data: TER per fuzzy band, how often repair hurts, speed.

For every dev string of a scenario (../shared/data/tm_l10n_en-es) whose TM
match scores at least ``--min-fuzzy``, the product's repair
(:class:`tmtprime.tm.repair.Repairer`: the TM's own IBM Model 1 both ways,
Apertium eng-spa for the differing spans) next to the TM match and the best
of the three MT columns, by sentence TER (sacrebleu) against the reference.

    python3 bench/tm_repair.py [--scenario update] [--min-fuzzy 50] [--jobs 2] [--speed 10000]

Targets (issue 29): repaired mean TER at fuzzy >= 50 at least 4 points below
the TM matches'; worse than the TM match in <= 8 % of the changed segments;
``--speed N``: repairing N segments (the dev matches repeated) < 60 s with -j 2.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import MT_COLUMNS, load_tm, read_tsv, shared_data_dir  # noqa: E402
from sacrebleu.metrics import TER  # noqa: E402

from tmtprime.mt.apertium import ApertiumEngine  # noqa: E402
from tmtprime.tm.repair import REPAIRED, Repairer  # noqa: E402

BANDS = ((50, 60), (60, 70), (70, 80), (80, 90), (90, 101))
_TER = TER()


def ter(hyp: str, ref: str) -> float:
    return _TER.sentence_score(hyp, [ref]).score


def speed_items(data: Path, n: int) -> list[tuple[str, str, str]]:
    """``n`` distinct (source, TM source, TM target) triples: every dev string of both scenarios with each of
    its top-3 TM matches (dev.jsonl.gz), so no span is translated twice for being repeated."""
    found: dict[tuple[str, str, str], None] = {}
    for scenario in ("update", "crossproject"):
        with gzip.open(data / scenario / "dev.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                for m in row["tm_matches"]:
                    found[(row["source"], m["source"], m["target"])] = None
    return list(found)[:n]


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--scenario", default="update", choices=("update", "crossproject"))
    ap.add_argument("--min-fuzzy", type=float, default=50.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speed", type=int, default=0, metavar="N", help="also time repairing N segments")
    ap.add_argument("--batch-size", type=int, default=100, metavar="N", help="spans per Apertium process (default 100)")
    ap.add_argument("--no-function-words", action="store_true", help="never take a function word along")
    args = ap.parse_args()
    data = shared_data_dir()
    if data is None:
        print("shared data not found (../shared/data/tm_l10n_en-es): nothing to measure")
        return 0
    rows = [r for r in read_tsv(data / args.scenario / "dev.tsv.gz") if float(r["tm_fuzzy_word"] or 0) >= args.min_fuzzy]
    engine = ApertiumEngine("eng-spa", n_jobs=args.jobs, batch_size=args.batch_size)
    t0 = time.perf_counter()
    repairer = Repairer.from_tm(load_tm(data / args.scenario / "tm.tsv.gz"), engine)
    if args.no_function_words:
        repairer.function_words = frozenset()
    t_train = time.perf_counter() - t0
    items = [(r["source"], r["tm_source"], r["tm_target"]) for r in rows]
    t0 = time.perf_counter()
    repairs = repairer.repair(items)
    t_repair = time.perf_counter() - t0
    print(f"[{args.scenario}] {len(rows)} strings with a TM match >= {args.min_fuzzy:g}; "
          f"alignment models {t_train:.1f} s, repair {t_repair:.1f} s (-j {args.jobs}, load {os.getloadavg()[0]:.1f})")
    print("\n| fuzzy band | n | changed | TM TER | repaired TER | best MT system TER | per-segment best MT TER |\n"
          "|---|---|---|---|---|---|---|")
    per = []
    for r, rep in zip(rows, repairs):
        tm_ter = ter(r["tm_target"], r["reference"])
        rep_ter = ter(rep.text, r["reference"]) if rep.text is not None else tm_ter
        mt_ters = [ter(r[c], r["reference"]) for c in MT_COLUMNS.values()]
        per.append((float(r["tm_fuzzy_word"]), rep.text is not None, tm_ter, rep_ter, min(mt_ters), *mt_ters))
    for lo, hi in (*BANDS, (args.min_fuzzy, 101)):
        sel = [p for p in per if lo <= p[0] < hi]
        if not sel:
            continue
        name = f"{lo:g}–{hi - 1:g}" if hi <= 100 else f"{lo:g}–100" if (lo, hi) in BANDS else f"all ≥ {lo:g}"
        mean = [sum(p[i] for p in sel) / len(sel) for i in range(2, 5 + len(MT_COLUMNS))]
        best_system = min(mean[3:])
        print(f"| {name} | {len(sel)} | {sum(p[1] for p in sel)} | {mean[0]:.1f} | {mean[1]:.1f} | {best_system:.1f} | {mean[2]:.1f} |")
    changed = [p for p in per if p[1]]
    worse = sum(p[3] > p[2] for p in changed)
    better = sum(p[3] < p[2] for p in changed)
    gain = (sum(p[2] for p in per) - sum(p[3] for p in per)) / max(len(per), 1)
    print(f"\nchanged {len(changed)}/{len(per)} ({100 * len(changed) / max(len(per), 1):.1f} %); better {better}, "
          f"worse {worse} ({100 * worse / max(len(changed), 1):.1f} % of changed; target <= 8 %)")
    print(f"mean TER gain at fuzzy >= {args.min_fuzzy:g}: {gain:.2f} points (target >= 4)")
    print("left unchanged: " + ", ".join(f"{k} {n}" for k, n in Counter(r.reason for r in repairs if r.reason != REPAIRED).most_common()))
    if args.speed:
        many = speed_items(data, args.speed)
        t0 = time.perf_counter()
        done = repairer.repair(many)
        took = time.perf_counter() - t0
        print(f"\nrepairing {len(many):,} distinct (source, TM match) pairs: {took:.1f} s with -j {args.jobs}, "
              f"{sum(r.reason == REPAIRED for r in done):,} repaired (target < 60 s; load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
