"""Reading the picks: the CSV and JSON exports and the segment list of a project, this tree against another.

Every place a pick is shown reads it through ``Recommendations.fill`` (issue 28:
one representation of the pick); this checks that doing so costs no more than
the reference tree's reading. The project is ``bench/gui_open.py``'s synthetic
one (built once into ``--dir``). Each run is a new process timed in CPU
seconds (the machine is shared); runs alternate between the trees and the
medians are compared. Target: no regression (ratio at most 1.10).

    python3 bench/picks_read.py [--segments 20000] [--against /work/main] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.10
_WORK = """
import sys, time, tempfile, os
from tmtprime.store import Store
from tmtprime import workflows as wf
start = time.process_time()
with Store.open(sys.argv[1]) as store, tempfile.TemporaryDirectory() as out:
    wf.export(store, "csv", os.path.join(out, "p.csv"))
    wf.export(store, "json", os.path.join(out, "p.json"))
    lines = sum(1 for _ in wf.segment_lines(store, wf.SegmentQuery(role=None)))
print(time.process_time() - start, lines)
"""


def _cpu(tree: Path, project: Path) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", _WORK, str(project)], env=env, cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-400:]}")
    seconds, lines = done.stdout.split()
    return float(seconds), int(lines)


def main() -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    from gui_open import project

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=20_000)
    parser.add_argument("--against", type=Path, default=Path("/work/main"), help="the reference source tree")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "tmtprime-gui-bench")
    ns = parser.parse_args()
    path = project(ns.dir, ns.segments)
    print(f"load average {os.getloadavg()[0]:.1f}; {ns.runs} alternating runs each; target: ratio <= {TARGET}")
    here, there = [], []
    for _ in range(ns.runs):
        seconds, lines = _cpu(ROOT, path)
        here.append(seconds)
        there.append(_cpu(ns.against, path)[0])
    ratio = statistics.median(here) / statistics.median(there)
    print(json.dumps({"segments": lines, "cpu_s_here": round(statistics.median(here), 2),
                      "cpu_s_reference": round(statistics.median(there), 2), "ratio": round(ratio, 2)}))
    print(f"load average {os.getloadavg()[0]:.1f}; ratio {ratio:.2f}: {'met' if ratio <= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
