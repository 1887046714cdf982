"""Benchmark: stream a 1,000,000-unit TMX into a project store.

Targets: under 120 s wall time and under 500 MB peak resident memory for
``tmtprime import P.db big.tmx --as tm`` (SQLite project file).

The script writes the TMX (realistic unit sizes, a property per unit, some
inline markup), then runs, each in a fresh child process so that peak RSS is
that of the job alone:

1. a reference run: the TMX reader alone (parse every unit, store nothing);
2. the real job: ``tmtprime project create`` + ``tmtprime import --as tm``.

It prints wall and CPU seconds of both, and their ratio import/parse, which
says how much the store adds on top of parsing; CPU seconds and the ratio
depend far less than wall time on how busy the (shared) machine is.

    python3 bench/store_import_tmx.py [--units N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 120.0
TARGET_MB = 500.0
WORDS = (
    "the file cannot be opened because it is used by another process please try again later "
    "save all changes before closing this window select a folder to export the selected items "
    "error while reading the configuration the printer is not available connection lost retry"
).split()


def write_tmx(path: Path, units: int, seed: int = 7) -> None:
    """A TMX 1.4 file of ``units`` en->es units, written as a stream."""
    rnd = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n')
        out.write(
            '<header creationtool="bench" creationtoolversion="1" segtype="sentence" o-tmf="bench" '
            'adminlang="en" srclang="en" datatype="plaintext"/>\n<body>\n'
        )
        for i in range(units):
            n = rnd.randint(3, 18)
            src = " ".join(rnd.choices(WORDS, k=n)) + f" {i}"
            tgt = " ".join(w[::-1] for w in src.split())
            if i % 10 == 0:  # some inline markup
                src = f'<bpt i="1">&lt;b&gt;</bpt>{src}<ept i="1">&lt;/b&gt;</ept>'
                tgt = f'<bpt i="1">&lt;b&gt;</bpt>{tgt}<ept i="1">&lt;/b&gt;</ept>'
            out.write(
                f'<tu tuid="{i}"><prop type="x-project">p{i % 50}</prop>'
                f'<tuv xml:lang="en"><seg>{src}</seg></tuv><tuv xml:lang="es"><seg>{tgt}</seg></tuv></tu>\n'
            )
        out.write("</body>\n</tmx>\n")


PARSE_ONLY = """
import sys
from tmtprime.formats import read_tm
info, units = read_tm(sys.argv[1], source_lang="en", target_lang="es")
print(sum(1 for _ in units))
"""


def run_child(args: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak RSS (MB) and stdout of one child process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before, cpu_before = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak, cpu = usage.ru_maxrss, usage.ru_utime + usage.ru_stime - cpu_before
    if done.returncode != 0:
        sys.exit(f"child failed ({done.returncode}): {done.stderr.strip()}")
    # ru_maxrss of children is the maximum over all children so far: each run must be the largest
    # to be measured exactly, so the parse-only run (smaller) goes first.
    return seconds, cpu, max(peak, before) / 1024.0, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=1_000_000)
    parser.add_argument("--keep", type=Path, help="directory to keep the TMX and project in")
    ns = parser.parse_args()
    work = ns.keep or Path(tempfile.mkdtemp(prefix="tmtprime-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    tmx, project = work / "big.tmx", work / "big.db"
    try:
        if not tmx.exists():
            t = time.perf_counter()
            write_tmx(tmx, ns.units)
            print(f"wrote {tmx} ({tmx.stat().st_size / 1e6:.0f} MB, {ns.units} units) in {time.perf_counter() - t:.0f} s")
        for f in work.glob("big.db*"):
            f.unlink()

        parse_s, parse_cpu, parse_mb, out = run_child(["-c", PARSE_ONLY, str(tmx)])
        print(
            f"reference: reader alone     {parse_s:7.1f} s wall {parse_cpu:7.1f} s CPU  peak {parse_mb:6.0f} MB"
            f"  ({out.strip()} units)"
        )
        run_child(["-m", "tmtprime", "project", "create", str(project), "--source-lang", "en", "--target-lang", "es"])
        import_s, import_cpu, import_mb, out = run_child(
            ["-m", "tmtprime", "import", str(project), str(tmx), "--as", "tm", "-q"]
        )
        print(
            f"job:       tmtprime import  {import_s:7.1f} s wall {import_cpu:7.1f} s CPU  peak {import_mb:6.0f} MB"
            f"  ({out.strip()})"
        )
        print(f"import / parse ratio: wall {import_s / parse_s:.2f}, CPU {import_cpu / parse_cpu:.2f}")
        print(f"machine load (1/5/15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        print(
            f"target: < {TARGET_SECONDS:.0f} s and < {TARGET_MB:.0f} MB -> measured {import_s:.1f} s, "
            f"{import_mb:.0f} MB: {'MET' if import_s < TARGET_SECONDS and import_mb < TARGET_MB else 'NOT MET'}"
        )
    finally:
        if ns.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
