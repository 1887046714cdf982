"""Check that two code trees give the same job: every file ``tmtprime run`` writes, byte for byte.

Runs the bench job of ``bench/run_job.py`` (shared dev strings repeated into
XLIFF documents, two MT systems as files, the ``update`` TM) with the CLI of
this tree and of ``--against`` (e.g. ``/work/main``), at ``--jobs`` each, and
compares the output directories: the documents in their own format, the XLIFF
with alternatives, the CSV of picks and the three reports. Prints each file
that differs; exit status 1 when any does.

    python3 bench/run_job_same.py --against /work/main [--segments 8000] [--documents 20] [--jobs 1,2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import shared_data_dir  # noqa: E402
from run_job import make_job  # noqa: E402

HERE = Path(__file__).resolve().parents[1]


def run(tree: Path, options, out: Path, jobs: int) -> dict[str, bytes]:
    """The files the CLI of ``tree`` writes for the job ``options``, by name."""
    command = [sys.executable, "-m", "tmtprime", "run", "-q", "-o", str(out), "--tm", *map(str, options.tms),
               "-s", "en", "-t", "es", "-j", str(jobs)]
    command += [arg for name, path in options.mt.items() for arg in ("--mt", f"{name}={path}")]
    command += [str(d) for d in options.documents]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run(command, check=True, cwd=tree, env=env, stdout=subprocess.DEVNULL)
    # the report names the cost scheme's file, which lies in the tree: the one difference that is not a result
    return {p.name: p.read_bytes().replace(os.fspath(tree).encode(), b"<tree>") for p in sorted(out.iterdir())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", required=True, type=Path, help="the other code tree (its tmtprime/ is run)")
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--segments", type=int, default=8000)
    parser.add_argument("--jobs", default="1,2", help="comma-separated: this tree runs with each; the other with the first")
    args = parser.parse_args()
    data = shared_data_dir()
    if data is None:
        print("SKIP: ../shared/data/tm_l10n_en-es not found")
        return 0
    jobs = [int(j) for j in args.jobs.split(",")]
    with tempfile.TemporaryDirectory(prefix="tmtprime-same-") as tmp:
        options = make_job(data, Path(tmp), args.documents, args.segments, "update")
        reference = run(args.against.resolve(), options, Path(tmp) / "reference", jobs[0])
        differ = 0
        for n in jobs:
            ours = run(HERE, options, Path(tmp) / f"ours-{n}", n)
            names = sorted(set(reference) | set(ours))
            bad = [name for name in names if reference.get(name) != ours.get(name)]
            for name in bad:
                print(f"  -j {n}: {name} differs" if name in reference and name in ours else f"  -j {n}: {name} only in one")
            print(f"this tree at -j {n} vs {args.against} at -j {jobs[0]}: {len(names) - len(bad)} of {len(names)} files identical")
            differ += len(bad)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
