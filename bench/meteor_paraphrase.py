"""Benchmark: Meteor paraphrase table (compile once, open, batch lookups, memory) and language-layer loads.

Targets (issue 2, language layer):
* compile ``paraphrase-en.gz`` once, with progress, atomically    (no hard target; reported)
* open a compiled table in a fresh process                         < 0.2 s
* paraphrase candidates of all n-grams of 2,000 segment pairs     well under 0.5 s
* peak RSS of a process that opens the table and matches them     < 500 MB (whole scorer budget)
* English synonym data load                                       well under 0.2 s

Every measurement of a load runs in a fresh Python process; the table is
compiled into a temporary cache unless ``--cache DIR`` names one that has it.
As a same-run reference, ``--jar`` times the Meteor 1.5 jar scoring one
segment with the paraphrase module (JVM start + table load), the thing our
open replaces; the ratio is printed.

Usage: python bench/meteor_paraphrase.py [--table paraphrase-en.gz] [--cache DIR] [--jar meteor-1.5.jar]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(code: str, env: dict[str, str]) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON line (its last output line)."""
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True,
                         cwd=ROOT).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


COMPILE = """
import json, resource, time
from tmtprime.meteor.paraphrase import ParaphraseTable
t = time.perf_counter()
table = ParaphraseTable.open("en", {table!r})
print(json.dumps({{"seconds": time.perf_counter() - t, "pairs": len(table),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

OPEN = """
import json, time
t0 = time.perf_counter()
from tmtprime.meteor.paraphrase import ParaphraseTable
t1 = time.perf_counter()
table = ParaphraseTable.open("en", {table!r})
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "open": t2 - t1}}))
"""

SYNONYMS = """
import json, time
import numpy
from tmtprime.meteor import resources
t = time.perf_counter()
syn = resources.synonyms()
print(json.dumps({"load": time.perf_counter() - t, "words": len(syn)}))
"""

MATCH = """
import json, resource, time
from tmtprime.meteor.normalize import tokenize
from tmtprime.meteor.paraphrase import ParaphraseTable
lines = json.load(open({lines!r}, encoding="utf-8"))
t = time.perf_counter()
pairs = [(tokenize(h, "en", "norm"), tokenize(r, "en", "norm")) for h, r in lines]
tok = time.perf_counter() - t
table = ParaphraseTable.open("en", {table!r})
runs, found = [], 0
for _ in range(5):
    t = time.perf_counter()
    found = sum(map(len, table.match_batch(pairs)))
    runs.append(time.perf_counter() - t)
t = time.perf_counter()
single = sum(len(table.match(h, r)) for h, r in pairs[:500])
one_by_one = (time.perf_counter() - t) / 500 * len(pairs)
phrases = [tuple(h[i:i + n]) for h, _ in pairs[:300] for n in (1, 2, 3) for i in range(len(h) - n + 1)]
t = time.perf_counter()
hits = sum(1 for p in phrases if table.paraphrases(p))
per_lookup = (time.perf_counter() - t) / len(phrases)
print(json.dumps({{"segments": len(pairs), "tokenize": tok, "batch": runs, "matches": found,
                  "one_by_one": one_by_one, "lookups": len(phrases), "lookup_hits": hits,
                  "per_lookup": per_lookup, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def segment_pairs(n: int) -> list[tuple[str, str]]:
    """Hypothesis/reference pairs from ../shared/data (WMT22 ru-en), or a synthetic fallback."""
    for base in (os.environ.get("TMTPRIME_SHARED_DIR"), ROOT.parent / "shared", "/work/shared"):
        path = Path(base or "") / "data" / "human_judgments" / "wmt22_da_ru-en.tsv.gz"
        if base and path.is_file():
            with gzip.open(path, "rt", encoding="utf-8") as f:
                header = f.readline().rstrip("\n").split("\t")
                rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
            return [(r["hypothesis"], r["reference"]) for r in rows[:n]]
    words = "the european union must take a lot of measures in order to protect the environment".split()
    return [(" ".join(words[i % 5 :]), " ".join(words[: 12 - i % 4])) for i in range(n)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", type=Path, help="paraphrase-en.gz (default: the first the library finds)")
    parser.add_argument("--cache", type=Path, help="cache dir to use (default: a fresh temporary one)")
    parser.add_argument("--jar", type=Path, help="meteor-1.5.jar for the same-run reference")
    parser.add_argument("--segments", type=int, default=2000)
    ns = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tmtprime.meteor.paraphrase import default_sources

    table = ns.table or next((p for p in default_sources("en") if p.is_file()), None)
    if table is None:
        print("no paraphrase-en.gz found: run `tmtprime resources fetch-paraphrase` or pass --table")
        return 1
    tmp = tempfile.TemporaryDirectory(prefix="bench-paraphrase-")
    cache = ns.cache or Path(tmp.name)
    env = {**os.environ, "TMTPRIME_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    print(f"table {table} ({table.stat().st_size / 1e6:.1f} MB), cache {cache}")

    compiled = child(COMPILE.format(table=str(table)), env)
    print(f"compile (or reuse) + open      {compiled['seconds']:7.2f} s   {compiled['pairs']:,} pairs, "
          f"peak RSS {compiled['rss_mb']:.0f} MB")  # fmt: skip

    opens = [child(OPEN.format(table=str(table)), env) for _ in range(5)]
    open_s = statistics.median(o["open"] for o in opens)
    print(f"open, fresh process (median 5) {open_s:7.3f} s   target < 0.2 s      "
          f"(+ import {statistics.median(o['import'] for o in opens):.3f} s)")  # fmt: skip

    syn = [child(SYNONYMS, env) for _ in range(3)]
    print(f"synonyms load (median 3)       {statistics.median(s['load'] for s in syn):7.3f} s   "
          f"target well under 0.2 s ({syn[0]['words']:,} words)")  # fmt: skip

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(segment_pairs(ns.segments), f)
    m = child(MATCH.format(lines=f.name, table=str(table)), env)
    os.unlink(f.name)
    print(f"match_batch {m['segments']} pairs (best/median of 5) {min(m['batch']):.3f} / "
          f"{statistics.median(m['batch']):.3f} s   target well under 0.5 s   {m['matches']:,} candidates")
    print(f"match() one pair at a time     {m['one_by_one']:7.3f} s   (extrapolated to {m['segments']} pairs)")
    print(f"paraphrases(phrase)            {m['per_lookup'] * 1e6:7.1f} us per lookup "
          f"({m['lookups']:,} n-grams, {m['lookup_hits']:,} listed)")
    print(f"tokenize -norm {2 * m['segments']} lines      {m['tokenize']:7.3f} s")
    print(f"peak RSS open+tokenize+match   {m['rss_mb']:7.0f} MB   target < 500 MB (whole scorer)")

    if ns.jar and ns.jar.is_file():
        data = Path(tmp.name) / "one.txt"
        data.write_text("the european union\n", encoding="utf-8")
        times = []
        for _ in range(2):
            t = time.perf_counter()
            subprocess.run(["java", "-Xmx2G", "-jar", str(ns.jar), str(data), str(data), "-l", "en", "-a", str(table)],
                           check=True, capture_output=True)  # fmt: skip
            times.append(time.perf_counter() - t)
        jar_s = min(times)
        print(f"reference: jar, 1 segment with paraphrases {jar_s:.2f} s -> our open is {jar_s / open_s:.0f}x faster")
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
