"""CLI start-up: ``tmtprime --help`` and ``tmtprime meteor`` on a small file, this tree against another.

Target: no regression against the reference tree (median ratio at most 1.10,
the noise of a shared machine). Runs alternate between the trees so that both
see the same load; the load average is printed beside the figures.

Run: ``python3 bench/cli_startup.py [--against /work/main] [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "sample" / "meteor"
TARGET = 1.10


def _time(tree: Path, argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tmtprime", *argv], env=env, cwd=tree, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{tree}: tmtprime {' '.join(argv)} failed: {done.stderr.strip()[-300:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, default=Path("/work/main"), help="the reference source tree")
    parser.add_argument("--runs", type=int, default=7)
    ns = parser.parse_args()
    commands = {
        "tmtprime --help": ["--help"],
        "tmtprime meteor (30 segments)": ["meteor", str(SAMPLE / "hyp.en.txt"), str(SAMPLE / "ref.en.txt"), "-l", "en",
                                          "-norm", "-m", "exact stem"],
    }  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f}; {ns.runs} alternating runs each; target: ratio <= {TARGET}")
    worst = 0.0
    for label, argv in commands.items():
        here, there = [], []
        for _ in range(ns.runs):
            here.append(_time(ROOT, argv))
            there.append(_time(ns.against, argv))
        ratio = statistics.median(here) / statistics.median(there)
        worst = max(worst, ratio)
        print(f"{label}: {statistics.median(here):.2f} s here, {statistics.median(there):.2f} s in {ns.against} "
              f"(ratio {ratio:.2f})")
    print(f"load average {os.getloadavg()[0]:.1f}; worst ratio {worst:.2f}: {'met' if worst <= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
