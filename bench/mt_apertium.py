"""Benchmark: Apertium throughput (segments/s) with batching, against one process per segment.

Runs on the real new strings of the shared ``update`` dev set (software
localisation, en->es). Reports, in the same run:

* the reference: one Apertium process per segment (eng-spa) on a random
  subset, and the speed-up of batching over it;
* per pair and batch size: throughput, and how many of the subset's segments
  come out differently than with one process each (Apertium keeps state across
  a whole input, see :mod:`tmtprime.mt.apertium`; alignment itself is always
  checked);
* agreement with the data's own Apertium columns (made by the data's builder
  with Apertium 3.8.3, one newline-separated input, so state effects differ).

There is no fixed target in the issue beyond "many segments per process call";
the figures to watch are the speed-up over one process per segment and the
share of segments that differ from it.
Run: ``python3 bench/mt_apertium.py [--shared DIR] [--segments N] [--single N] [--jobs N]``.
"""

from __future__ import annotations

import argparse
import gzip
import random
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
    parser.add_argument("--single", type=int, default=150, help="segments also translated one process each (reference)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    rows = read_dev(args.shared)[: args.segments]
    sources = [r["source"] for r in rows]
    modes = installed_modes()
    print(f"{len(sources):,} segments (update/dev), {sum(len(s.split()) for s in sources):,} words")
    subset = sorted(random.Random(5).sample(range(len(sources)), min(args.single, len(sources))))

    for pair, column in CHAINS.items():
        langs = pair.split("-")
        steps = {f"{a}-{b}" for a, b in zip(langs, langs[1:])}
        if not steps <= modes.keys():
            print(f"{pair}: not installed ({', '.join(sorted(steps - modes.keys()))} missing), skipped")
            continue
        t0 = time.perf_counter()
        alone = ApertiumEngine(pair, batch_size=1).translate([sources[i] for i in subset])
        single_rate = len(subset) / (time.perf_counter() - t0)
        print(f"{pair:12s} one process per segment: {single_rate:6.1f} segments/s ({len(subset)} segments)")
        for batch_size in (100, 1000):
            engine = ApertiumEngine(pair, n_jobs=args.jobs, batch_size=batch_size)
            t0 = time.perf_counter()
            out = engine.translate(sources)
            rate = len(sources) / (time.perf_counter() - t0)
            differ = sum(out[i] != a for i, a in zip(subset, alone))
            same = sum(o.strip() == r[column].strip() for o, r in zip(out, rows))
            print(
                f"{pair:12s} batches of {batch_size:4d}: {rate:6.1f} segments/s (x{rate / single_rate:.0f}); "
                f"differ from one process each: {differ}/{len(subset)} ({100 * differ / len(subset):.1f} %); "
                f"identical to the data's column: {100 * same / len(rows):.1f} %"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
