"""Benchmark: Apertium throughput (segments/s) with batching, against one process per segment.

Runs on the real new strings of the shared ``update`` dev set (software
localisation, en->es). Reports, in the same run:

* batched throughput for the direct pair and the pivot chains (1 and 2 jobs);
* the reference: one Apertium process per segment, on a small subset, and the
  speed-up of batching over it;
* alignment: batched output equals one-process-per-segment output on that subset;
* batch-context sensitivity: segments whose output changes when the batch
  boundaries change (Apertium keeps state across a whole input, see
  :mod:`tmtprime.mt.apertium`);
* agreement with the data's own Apertium columns (made by the data's builder
  with Apertium 3.8.3 in newline-separated mode, where neighbouring lines can
  influence each other, so a few differences are expected).

There is no fixed target in the issue beyond "many segments per process call";
the figure to watch is the speed-up over one process per segment.
Run: ``python3 bench/mt_apertium.py [--shared DIR] [--segments N] [--single N]``.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tmtprime.mt.apertium import ApertiumEngine, installed_modes  # noqa: E402

CHAINS = {"eng-spa": "mt_apertium_eng-spa", "eng-cat-spa": "mt_apertium_eng-cat-spa", "en-gl-es": "mt_apertium_en-gl-es"}


def read_dev(shared: Path) -> list[dict[str, str]]:
    with gzip.open(shared / "tm_l10n_en-es" / "update" / "dev.tsv.gz", "rt", encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in fh]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--segments", type=int, default=3068, help="segments translated in batches")
    parser.add_argument("--single", type=int, default=40, help="segments translated one process each (reference)")
    args = parser.parse_args()

    rows = read_dev(args.shared)[: args.segments]
    sources = [r["source"] for r in rows]
    modes = installed_modes()
    print(f"{len(sources):,} segments (update/dev), {sum(len(s.split()) for s in sources):,} words")

    direct = ApertiumEngine("eng-spa")
    subset = sources[: args.single]
    t0 = time.perf_counter()
    alone = [direct.translate([s])[0] for s in subset]
    t_single = time.perf_counter() - t0
    single_rate = len(subset) / t_single
    print(f"reference, one process per segment: {single_rate:.1f} segments/s ({len(subset)} segments, {t_single:.1f} s)")
    aligned = direct.translate(subset) == alone
    print(f"batched output == one process per segment on those {len(subset)}: {aligned}")

    for pair, column in CHAINS.items():
        langs = pair.split("-")
        steps = {f"{a}-{b}" for a, b in zip(langs, langs[1:])}
        if not steps <= modes.keys():
            print(f"{pair}: not installed ({', '.join(sorted(steps - modes.keys()))} missing), skipped")
            continue
        outputs = []
        for jobs in (1, 2):
            engine = ApertiumEngine(pair, n_jobs=jobs, batch_size=-(-len(sources) // jobs) if jobs > 1 else 1000)
            t0 = time.perf_counter()
            out = engine.translate(sources)
            elapsed = time.perf_counter() - t0
            outputs.append(out)
            rate = len(sources) / elapsed
            same = sum(o.strip() == r[column].strip() for o, r in zip(out, rows))
            print(
                f"{pair:12s} jobs={jobs}: {rate:7.1f} segments/s ({elapsed:.1f} s), x{rate / single_rate:.0f} vs one process "
                f"per segment; identical to the data's column: {100 * same / len(rows):.1f} %"
            )
        changed = sum(a != b for a, b in zip(*outputs))
        print(f"{pair:12s} batch-context sensitivity: {changed} segments ({100 * changed / len(sources):.1f} %) differ between the two batchings")
    return 0 if aligned else 1


if __name__ == "__main__":
    sys.exit(main())
