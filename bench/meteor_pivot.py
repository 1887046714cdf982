"""Time to pivot a Spanish paraphrase table from the shared 75k-pair update TM (target: under 5 minutes).

Everything ``tmtprime meteor paraphrase build -l es --source-lang en --bitext tm.tsv.gz``
does: read, tokenize, IBM-1 both ways + symmetrization, phrase extraction,
pivoting with the filters, threshold, writing and compiling the scorer's index.

    python3 bench/meteor_pivot.py [--out /tmp/para-es.gz]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import load_tm, shared_data_dir  # noqa: E402

from tmtprime.meteor.paraphrase import ParaphraseTable  # noqa: E402
from tmtprime.meteor.pivot import build_from_bitext, threshold, write_table  # noqa: E402
from tmtprime.progress import Reporter  # noqa: E402

TARGET_S = 300.0


class PhaseTimes(Reporter):
    """Wall time of each phase the builder announces."""

    def __init__(self) -> None:
        super().__init__()
        self.phases: list[tuple[str, float]] = []

    def on_status(self, text: str) -> None:
        self.phases.append((text, time.perf_counter()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    data = shared_data_dir()
    if data is None:
        print("shared data not found (../shared/data/tm_l10n_en-es); nothing to measure")
        return 1
    out = args.out or Path(tempfile.mkdtemp()) / "para-es-update.gz"
    os.environ.setdefault("TMTPRIME_CACHE_DIR", str(out.parent / "cache"))
    t0 = time.perf_counter()
    pairs = load_tm(data / "update" / "tm.tsv.gz")
    reporter = PhaseTimes()
    reporter.status("reading")
    reporter.phases[-1] = ("reading", t0)
    table, size = build_from_bitext(pairs, source_lang="en", target_lang="es", reporter=reporter)
    reporter.status("threshold, write, compile")
    kept = threshold(table)
    write_table(kept, out)
    compiled = ParaphraseTable.open("es", path=out)
    total = time.perf_counter() - t0
    ends = [t for _, t in reporter.phases[1:]] + [t0 + total]
    for (name, start), end in zip(reporter.phases, ends):
        print(f"  {name:<40} {end - start:6.1f} s")
    print(f"{size} sentence pairs -> {len(table)} pivoted pairs, {len(kept)} after the 0.01 threshold "
          f"({len(compiled)} compiled) in {out}")
    print(f"pivot table from the update TM   target < {TARGET_S:.0f} s   measured {total:.1f} s   (cpu {time.process_time():.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
