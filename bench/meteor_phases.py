#!/usr/bin/env python3
"""Where one ``tmtprime meteor`` run spends its time: the command run in this process, a few of its functions
timed (wall and CPU seconds). No target: it says what a speed target is made of.

Usage: python3 bench/meteor_phases.py HYP REF [meteor options...]
e.g.   python3 bench/meteor_phases.py hyp.es.txt ref.es.txt -l es -norm -m "exact stem"
(the 2,000 Spanish pairs of ``bench/meteor_speed.py --part spanish``; figures in docs/experiments/meteor-speed.md)
"""

from __future__ import annotations

import time

START = time.perf_counter()

import contextlib  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402

import tmtprime.cli.meteor as command  # noqa: E402
import tmtprime.meteor.compiled as compiled  # noqa: E402
import tmtprime.meteor.matchers as matchers  # noqa: E402
import tmtprime.meteor.normalize as normalize  # noqa: E402
import tmtprime.workflows.meteor_scoring as scoring  # noqa: E402

TIMES: dict[str, list[float]] = {}


def timed(owner: object, name: str, label: str) -> None:
    """Replace ``owner.name`` with a wrapper adding its wall and CPU seconds to ``TIMES[label]``."""
    func: Callable = getattr(owner, name)
    TIMES.setdefault(label, [0.0, 0.0])  # printed in the order registered, zero when never called

    def wrapper(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return func(*args, **kwargs)
        finally:
            spent = TIMES.setdefault(label, [0.0, 0.0])
            spent[0] += time.perf_counter() - wall
            spent[1] += time.process_time() - cpu

    setattr(owner, name, wrapper)


def main() -> None:
    timed(command, "_load_for_batch", "loading (resources, machine code, warm-up)")
    timed(compiled, "_import_numba", "  of which importing numba")
    timed(scoring, "score_segment_files", "scoring")
    timed(normalize, "tokenize", "  of which tokenising")
    TIMES.setdefault("  of which stemming new words", [0.0, 0.0])
    stem = matchers.StemMatcher.match_batch
    matchers.StemMatcher.match_batch = lambda self, batch, stage: (  # stems of new words, then the matcher
        timed(self._stem_hash, "of", "  of which stemming new words") if "of" not in vars(self._stem_hash) else None,
        stem(self, batch, stage),
    )[1]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        status = command.run(sys.argv[1:])
    total = time.perf_counter() - START
    print(out.getvalue().strip().splitlines()[-1] if out.getvalue().strip() else f"exit status {status}")
    print(f"{'whole run after interpreter start':44}{total:8.3f} s wall {time.process_time():8.3f} s CPU")
    for label, (wall, cpu) in TIMES.items():
        print(f"{label:44}{wall:8.3f} s wall {cpu:8.3f} s CPU")
    print(f"numba imported: {'numba' in sys.modules}")


if __name__ == "__main__":
    main()
