"""Benchmark: TM lookup of 10,000 segments against a 500,000-unit TM.

Target (issue 3): under 60 s on the 2-core machine, peak memory under 2 GB,
and the index loses no match above the threshold (recall 100 % against the
brute-force reference, measured on a subset in the same run).

The TM is realistic rather than random: the 75,507 real units of the shared
``update`` TM plus perturbed copies of them (words substituted from the TM's
own vocabulary, inserted, deleted or swapped; case, punctuation, numbers and
placeholders changed) up to 500,000 units. Queries are the real new strings of
both shared dev sets plus perturbed TM sources, 10,000 in all.

Run: ``python3 bench/tm_lookup.py [--shared DIR] [--units N] [--queries N] [--jobs N]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import sys
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tmtprime.tm.fuzzy import fuzzy_score  # noqa: E402
from tmtprime.tm.index import TMIndex  # noqa: E402
from tmtprime.tm.lookup import lookup_segments  # noqa: E402

TARGET_SECONDS = 60.0
TARGET_PEAK_GB = 2.0


def read_tsv(path: Path) -> list[dict[str, str]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in fh]


def perturb(text: str, vocab: list[str], rng: random.Random) -> str:
    """A plausible variant of a TM string: a few word edits and light changes."""
    words = text.split()
    if not words:
        return text
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        op = rng.random()
        pos = rng.randrange(len(words))
        if op < 0.35:
            words[pos] = rng.choice(vocab)
        elif op < 0.55:
            words.insert(pos, rng.choice(vocab))
        elif op < 0.70 and len(words) > 1:
            del words[pos]
        elif op < 0.80 and len(words) > 1:
            other = rng.randrange(len(words))
            words[pos], words[other] = words[other], words[pos]
        elif op < 0.88:
            words[pos] = words[pos].upper() if rng.random() < 0.3 else words[pos].capitalize()
        elif op < 0.94:
            words[pos] = words[pos] + rng.choice((":", ".", ",", "...", "!"))
        else:
            words[pos] = rng.choice(("%s", "%d", "{0}", "{1}", "42", "2024"))
    return " ".join(words)


def build_data(shared: Path, n_units: int, n_queries: int, seed: int) -> tuple[list[str], list[str], list[str]]:
    rng = random.Random(seed)
    base = read_tsv(shared / "tm_l10n_en-es" / "update" / "tm.tsv.gz")
    sources = [r["source"] for r in base]
    targets = [r["target"] for r in base]
    vocab = sorted({w for s in sources for w in s.split()})
    while len(sources) < n_units:
        i = rng.randrange(len(base))
        sources.append(perturb(base[i]["source"], vocab, rng))
        targets.append(base[i]["target"])
    queries = [r["source"] for sc in ("update", "crossproject") for r in read_tsv(shared / "tm_l10n_en-es" / sc / "dev.tsv.gz")]
    while len(queries) < n_queries:
        queries.append(perturb(rng.choice(base)["source"], vocab, rng))
    return sources[:n_units], targets[:n_units], queries[:n_queries]


def data_agreement(shared: Path) -> None:
    """Our score vs the data's ``tm_fuzzy_word``, and our best match vs the data's top-3 (dev.jsonl)."""
    for scenario in ("update", "crossproject"):
        base = shared / "tm_l10n_en-es" / scenario
        rows = read_tsv(base / "dev.tsv.gz")
        theirs = np.array([float(r["tm_fuzzy_word"]) for r in rows])
        ours = np.array([fuzzy_score(r["source"], r["tm_source"]) for r in rows])
        diff = np.abs(ours - theirs)
        print(
            f"{scenario}: score vs data tm_fuzzy_word on {len(rows):,} pairs: Pearson r {np.corrcoef(ours, theirs)[0, 1]:.3f}, "
            f"within 1 point {100 * np.mean(diff <= 1):.1f} %, identical {100 * np.mean(diff < 0.005):.1f} %, "
            f"mean ours-theirs {np.mean(ours - theirs):+.1f}"
        )
        tm = read_tsv(base / "tm.tsv.gz")
        index = TMIndex([r["source"] for r in tm], [r["target"] for r in tm])
        with gzip.open(base / "dev.jsonl.gz", "rt", encoding="utf-8") as fh:
            dev = [json.loads(line) for line in fh]
        found = lookup_segments(index, [d["source"] for d in dev], threshold=0.0, k=1)
        top1 = top3 = strong = strong_top1 = 0
        for d, matches in zip(dev, found):
            their = [m["source"] for m in d["tm_matches"]]
            mine = matches[0].source if matches else None
            top1 += mine == their[0]
            top3 += mine in their
            if d["tm_matches"][0]["fuzzy_word"] >= 50:
                strong += 1
                strong_top1 += mine == their[0]
        print(
            f"{scenario}: our best match = the data's best in {100 * top1 / len(dev):.1f} % of {len(dev):,} strings, "
            f"in its top 3 in {100 * top3 / len(dev):.1f} %; where the data's best is >= 50: "
            f"{100 * strong_top1 / max(strong, 1):.1f} % of {strong:,}"
        )


class TreeMemory:
    """Peak resident memory of this process and all its descendants (worker processes included).

    ``ru_maxrss`` only covers this process (and children that have exited), so
    a thread samples ``/proc`` every 0.2 s and keeps the largest sum.
    """

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @staticmethod
    def _tree_rss() -> int:
        parents: dict[int, int] = {}
        rss: dict[int, int] = {}
        page = os.sysconf("SC_PAGE_SIZE")
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * page
        tree, frontier = {os.getpid()}, [os.getpid()]
        while frontier:
            pid = frontier.pop()
            children = [p for p, pp in parents.items() if pp == pid and p not in tree]
            tree.update(children)
            frontier.extend(children)
        return sum(rss.get(p, 0) for p in tree)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._tree_rss())
            self._stop.wait(0.2)

    @property
    def peak_gb(self) -> float:
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        return max(self.peak, own) / 1024**3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--units", type=int, default=500_000)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--threshold", type=float, default=50.0)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--skip-agreement", action="store_true", help="skip the comparison with the data's scores")
    parser.add_argument("--recall-subset", type=int, default=100, help="queries checked against brute force")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()

    if not args.skip_agreement:
        data_agreement(args.shared)
    t0 = time.perf_counter()
    sources, targets, queries = build_data(args.shared, args.units, args.queries, args.seed)
    print(f"data: {len(sources):,} TM units, {len(queries):,} queries ({time.perf_counter() - t0:.1f} s to generate)")

    with TreeMemory() as memory:
        t0 = time.perf_counter()
        index = TMIndex(sources, targets)
        t_build = time.perf_counter() - t0
        t0 = time.perf_counter()
        results = lookup_segments(index, queries, threshold=args.threshold, k=args.k, n_jobs=args.jobs)
        t_lookup = time.perf_counter() - t0
    with_match = sum(1 for r in results if r)
    print(f"index build: {t_build:.1f} s; lookup: {t_lookup:.1f} s ({len(queries) / t_lookup:,.0f} segments/s, {args.jobs} jobs)")
    print(f"segments with a match >= {args.threshold:g}: {with_match:,} / {len(queries):,}")

    rng = random.Random(args.seed + 1)
    subset = rng.sample(range(len(queries)), min(args.recall_subset, len(queries)))
    t0 = time.perf_counter()
    expected = found = 0
    for i in subset:
        brute = index.lookup(queries[i], threshold=args.threshold, k=args.k, exhaustive=True)
        got = {(m.unit, m.score) for m in results[i]}
        expected += len(brute)
        found += sum(1 for m in brute if (m.unit, m.score) in got)
    t_brute = time.perf_counter() - t0
    recall = 100.0 * found / expected if expected else 100.0
    per_query_brute = t_brute / len(subset)
    print(
        f"brute force on {len(subset)} queries: {t_brute:.1f} s ({per_query_brute * 1000:.0f} ms/query, "
        f"~{per_query_brute * len(queries):.0f} s for all {len(queries):,}); index speed-up x{per_query_brute * len(queries) / t_lookup:.0f}"
    )
    print(f"index recall of the brute-force top-{args.k} (unit and score): {recall:.2f} % ({found}/{expected})")

    total = t_build + t_lookup
    peak = memory.peak_gb
    print(f"TARGET lookup (build + search) < {TARGET_SECONDS:.0f} s: measured {total:.1f} s -> {'OK' if total < TARGET_SECONDS else 'MISSED'}")
    print(f"TARGET peak memory < {TARGET_PEAK_GB:.0f} GB: measured {peak:.2f} GB (with worker processes) -> {'OK' if peak < TARGET_PEAK_GB else 'MISSED'}")
    print(f"TARGET index recall 100 %: measured {recall:.2f} % -> {'OK' if recall >= 100.0 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
