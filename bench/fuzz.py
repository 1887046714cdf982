"""Benchmark: a long run of the fuzz harness of ``tests/fuzz`` over every reader and the Meteor scorer.

Target (issue 30): 10,000 mutated inputs per reader with a seed not used
before and 5,000 scorer pairs per language (four languages), with 0
crashes (an exception that is not a TmtprimeError), 0 hangs, 0 failed
imports that changed the store, 0 error messages of more than one line and
0 inputs imported as another format than their seed's. Prints the counts per reader and
language, the totals, and the first failures with what reproduces them
(``tests.fuzz.harness.fuzz_input(reader, k, seed)``).

Run: ``python3 bench/fuzz.py [--per-reader 10000] [--pairs 20000] [--seed 1] [--long-every 20]``
(``--pairs 0`` or ``--per-reader 0`` runs one half, e.g. in two processes). A run stopped with
Ctrl-C or SIGTERM still prints its tables and says which input it was in and for how long.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz.harness import SCORER_LANGUAGES, Tally, fuzz_readers, fuzz_scorer  # noqa: E402

OUTCOMES = ("ok", "clean error", "crash", "hang", "store changed", "two lines", "mis-detected")


def _table(title: str, tallies: dict[str, Tally]) -> Tally:
    total = Tally()
    print(f"\n{title:<10}" + "".join(f"{o:>15}" for o in ("inputs", *OUTCOMES)))
    for name, tally in tallies.items():
        print(f"{name:<10}{tally.inputs:>15}" + "".join(f"{tally.counts[o]:>15}" for o in OUTCOMES))
        total.counts.update(tally.counts)
        total.failures += tally.failures
    print(f"{'total':<10}{total.inputs:>15}" + "".join(f"{total.counts[o]:>15}" for o in OUTCOMES))
    for failure in total.failures[:20]:
        print("  " + failure)
    for name, tally in tallies.items():
        if tally.stopped:
            print(f"  {name}: {tally.stopped}")
            total.stopped = tally.stopped
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-reader", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=20000, help="scorer pairs in all (split over the languages)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0,
                        help="first reader input (finish a stopped run: --start K --per-reader N runs inputs K..N-1)")
    parser.add_argument("--long-every", type=int, default=20,
                        help="keep one in N drawn 5,000-token pairs (each takes seconds)")
    parser.add_argument("--readers", help="comma-separated readers to fuzz (default: all), e.g. tmx,xliff12")
    parser.add_argument("--languages", default=",".join(SCORER_LANGUAGES),
                        help="comma-separated scorer languages (--pairs is split over them)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="CPU seconds per input before it counts as a hang (wall: ten times that)")
    args = parser.parse_args()

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # the harness notes where the run stopped and the tables are still printed

    signal.signal(signal.SIGTERM, stop)
    started = time.monotonic()
    log = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    bad, per_reader, pairs, stopped = 0, 0, 0, False
    if args.per_reader > 0:
        chosen = set(args.readers.split(",")) if args.readers else None
        readers = fuzz_readers(args.per_reader, seed=args.seed, timeout=args.timeout, readers=chosen, log=log,
                               start=args.start)
        total = _table("reader", readers)
        bad, per_reader = bad + total.bad, min(t.inputs for t in readers.values())
        stopped = stopped or total.stopped is not None
    if args.pairs > 0 and not stopped:
        languages = tuple(args.languages.split(","))
        scorer = fuzz_scorer(args.pairs // len(languages), seed=args.seed, timeout=args.timeout,
                             long_every=args.long_every, languages=languages, log=log)
        total = _table("meteor", scorer)
        bad, pairs = bad + total.bad, total.inputs
        stopped = stopped or total.stopped is not None
    print(f"\ntarget (issue 30): 10,000 inputs per reader, 5,000 scorer pairs per language, 0 crashes/hangs/store "
          f"changes/two-line errors/mis-detections; measured: {per_reader} per reader, {pairs} pairs, {bad} bad outcomes in "
          f"{time.monotonic() - started:.0f} s" + (" (STOPPED before the counts asked for)" if stopped else ""))
    return 1 if bad or stopped else 0


if __name__ == "__main__":
    raise SystemExit(main())
