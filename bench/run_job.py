"""``tmtprime run`` end to end: the unattended job, phase by phase, at ``-j 1`` and ``-j 2``.

Targets (on the 2-core machine): issue 30, ``--segments 100000 --documents
250``: under 90 s wall at ``--jobs 2``, ``--jobs 2`` faster than ``--jobs 1``,
peak RSS under 1.5 GB; issue 20, the default 20,000 segments / 50 documents:
under 60 s.

The documents are XLIFF 1.2 files of 400 segments each, made from the shared
dev strings (update + crossproject, 6,509 strings, repeated in order up to the
number of segments); the MT outputs of two systems (Apertium eng-spa and
eng-cat-spa, the shared data's columns) are delivered as TSV files matched by
source; the TM is the shared ``update`` TM (75,507 units). Each ``--jobs``
value runs in its own process, as ``tmtprime run`` does (imports, TM lookup,
MT, recommendation, each document in its own format + XLIFF + CSV, the
HTML/JSON/text report). Printed per run: wall and CPU seconds of each phase
(CPU of the process and of its finished worker processes: at ``--jobs 2`` the
pooled workers' seconds join the total only when they are ended after the job),
memory, and the load average.

Memory: while a run works, this process samples it and all its descendants
(the forked TM-model worker, the pooled workers that write documents; the
tree is re-read each second): RSS from ``/proc/PID/statm`` every 0.1 s, PSS
from ``/proc/PID/smaps_rollup`` each second and whenever the summed RSS grew
by 16 MB since the last PSS reading (``TreeMemory``). The target's figure is
the peak of the summed PSS (proportional set size: a page shared by n
processes counts 1/n in each, so pages a forked worker shares with the job
count once in the sum): the true combined peak, to within what happens
between two readings, and the phase it fell in with each process's PSS then.
Beside it: each process's own peak RSS (the job's, the largest other
process's), whose sum counts shared pages twice.

    python3 bench/run_job.py [--documents 50] [--segments 20000] [--jobs 1,2] [--tm update|crossproject]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import read_tsv, shared_data_dir  # noqa: E402

from tmtprime.formats import write_document  # noqa: E402
from tmtprime.formats.model import DocumentInfo, Segment  # noqa: E402
from tmtprime.progress import Reporter  # noqa: E402
from tmtprime.workflows.run import JobOptions, run_job  # noqa: E402

BIG = (100_000, 250)
"""The issue-30 job (segments, documents): its targets below; any other size is held to issue 20's."""
TARGET_BIG_SECONDS = 90.0
TARGET_RSS_MB = 1500.0
TARGET_SMALL_SECONDS = 60.0
MT = {"apertium_eng-spa": "mt_apertium_eng-spa", "apertium_eng-cat-spa": "mt_apertium_eng-cat-spa"}


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its finished (waited-for) worker processes."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


class PhaseClock(Reporter):
    """Records when each phase (status) began, in wall and CPU seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.marks: list[tuple[str, float, float, float, float]] = []

    def on_status(self, text: str) -> None:
        self.marks.append((text, time.perf_counter(), sum(_cpu()), _peak_rss_mb(), _rss_mb()))


def _rss_mb() -> float:
    """This process's RSS now."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_rss_mb() -> float:
    """This process's peak RSS so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class TreeMemory:
    """Samples a process and its descendants (see the module docstring): peak summed PSS, each one's peak RSS.

    RSS comes from ``statm`` every ``every`` seconds (cheap); PSS from ``smaps_rollup``, which costs
    ~15 ms of CPU per GB mapped, once a second and whenever the summed RSS has grown by 16 MB since
    the last PSS reading (so the growth towards a peak is read, the plateaus cheaply).
    """

    def __init__(self, pid: int, every: float = 0.1) -> None:
        self.pid, self.every = pid, every
        self.peak_pss_kb = 0
        self.peak_at = 0.0
        self.peak_parts: list[int] = []
        self.peak_rss_kb: dict[int, int] = {}
        self.pss_readings = 0
        self._page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _tree(self) -> list[int]:
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
                children.setdefault(ppid, []).append(int(entry))
        tree, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo += children.get(pid, [])
        return tree

    def _rss_kb(self, pid: int) -> int:
        try:
            return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * self._page_kb
        except (OSError, IndexError):
            return 0  # ended meanwhile

    @staticmethod
    def _pss_kb(pid: int) -> int:
        try:
            line = next(x for x in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines() if x.startswith("Pss:"))
        except (OSError, StopIteration):
            return 0
        return int(line.split()[1])

    def _run(self) -> None:
        tick, tree, read_at = 0, [self.pid], 0
        while not self._stop.wait(self.every):
            if tick % 10 == 0:
                tree = self._tree()
            rss = {pid: self._rss_kb(pid) for pid in tree}
            for pid, kb in rss.items():
                self.peak_rss_kb[pid] = max(self.peak_rss_kb.get(pid, 0), kb)
            if tick % 10 == 0 or sum(rss.values()) > read_at + 16 * 1024:
                read_at = sum(rss.values())
                pss = {pid: self._pss_kb(pid) for pid in tree}
                if sum(pss.values()) > self.peak_pss_kb:
                    self.peak_pss_kb, self.peak_at = sum(pss.values()), time.time()
                    self.peak_parts = [pss[self.pid]] + sorted((kb for pid, kb in pss.items() if pid != self.pid and kb), reverse=True)
                self.pss_readings += 1
            tick += 1

    def figures(self) -> dict[str, float]:
        others = [kb for pid, kb in self.peak_rss_kb.items() if pid != self.pid and kb]
        return {"pss_mb": self.peak_pss_kb / 1024, "job_rss_mb": self.peak_rss_kb.get(self.pid, 0) / 1024,
                "worker_rss_mb": max(others, default=0) / 1024, "processes": len(others) + 1,
                "workers_rss_mb": sorted((kb / 1024 for kb in others), reverse=True),
                "pss_readings": self.pss_readings, "peak_at": self.peak_at,
                "peak_parts_mb": [kb / 1024 for kb in self.peak_parts]}


def make_job(data: Path, work: Path, n_docs: int, n_segments: int, tm: str) -> JobOptions:
    rows = read_tsv(data / "update" / "dev.tsv.gz") + read_tsv(data / "crossproject" / "dev.tsv.gz")
    chosen = [rows[i % len(rows)] for i in range(n_segments)]
    per_doc = -(-n_segments // n_docs)
    docs = []
    for d in range(n_docs):
        part = chosen[d * per_doc : (d + 1) * per_doc]
        if not part:
            break
        path = work / f"doc{d + 1:02d}.xlf"
        info = DocumentInfo(path=str(path), format="xliff12", source_lang="en", target_lang="es", original=path.stem)
        write_document("xliff12", path, info, [Segment(key=str(i + 1), source=r["source"]) for i, r in enumerate(part)])
        docs.append(path)
    mt = {}
    for name, column in MT.items():
        path = work / f"{name}.tsv"
        seen: dict[str, str] = {}
        for r in rows:
            seen.setdefault(r["source"], r[column])
        with path.open("w", encoding="utf-8") as f:
            f.write("source\ttarget\n")
            f.writelines(f"{s}\t{t}\n" for s, t in seen.items() if "\t" not in s + t and "\n" not in s + t)
        mt[name] = path
    return JobOptions(documents=docs, out_dir=work / "out", tms=[data / tm / "tm.tsv.gz"], mt=mt, source_lang="en", target_lang="es")


def run_once(data: Path, args: argparse.Namespace, jobs: int) -> dict:
    """One job in this process: phases (wall, CPU), totals, peak RSS."""
    with tempfile.TemporaryDirectory(prefix="tmtprime-bench-run-") as tmp:
        options = make_job(data, Path(tmp), args.documents, args.segments, args.tm)
        options.n_jobs = jobs
        clock = PhaseClock()
        start, cpu0 = time.perf_counter(), sum(_cpu())
        epoch = time.time()
        result = run_job(options, clock)
        wall = time.perf_counter() - start
        if jobs != 1:  # the worker processes outlive the job: end them so that their CPU seconds are counted
            from joblib.externals.loky import get_reusable_executor

            get_reusable_executor().shutdown(wait=True)
        cpu = sum(_cpu()) - cpu0
    ends = [(t, c, r, n) for _, t, c, r, n in clock.marks[1:]] + [(start + wall, cpu0 + cpu, _peak_rss_mb(), _rss_mb())]
    phases: dict[str, list[float]] = {}
    for (name, began, cpu_began, _, _), (ended, cpu_ended, rss, now) in zip(clock.marks, ends):
        key = name.split(" ")[0] if name.startswith(("importing", "exporting", "MT")) else name
        phase = phases.setdefault(key, [0.0, 0.0, 0.0, 0.0])
        phase[0] += ended - began
        phase[1] += cpu_ended - cpu_began
        phase[2] = max(phase[2], rss)
        phase[3] = now
    assert result.recommended is not None
    return {
        "jobs": jobs, "wall": wall, "cpu": cpu, "phases": phases, "failed": len(result.failed),
        "segments": sum(d.segments for d in result.documents), "by_system": result.recommended.by_system,
        "load": os.getloadavg()[0],
        "began": [(name, began - start + epoch) for name, began, *_ in clock.marks],  # phase starts, as time.time()
    }


def show(run: dict, args: argparse.Namespace) -> None:
    print(f"--jobs {run['jobs']}: {args.documents} documents, {run['segments']:,} segments, TM {args.tm}, "
          f"MT {', '.join(MT)}; failed: {run['failed']}")
    print(f"  {'phase':<44} {'wall s':>7} {'CPU s':>7}   job RSS at its end, MB: peak so far, now")
    for name, (wall, cpu, rss, now) in sorted(run["phases"].items(), key=lambda x: -x[1][1]):
        print(f"  {name:<44} {wall:7.1f} {cpu:7.1f}   {rss:8,.0f} {now:8,.0f}")
    print(f"  recommended: {run['by_system']}")
    print(f"  total: {run['wall']:.1f} s wall, {run['cpu']:.1f} s CPU (process + workers); load average after "
          f"{run['load']:.1f} on {os.cpu_count()} cores")
    print(f"  memory: peak of the summed PSS of the job and its {run['processes'] - 1} worker processes "
          f"{run['pss_mb']:,.0f} MB ({run['pss_readings']:,} readings); peak RSS of the job {run['job_rss_mb']:,.0f} MB, of its largest worker "
          f"{run['worker_rss_mb']:,.0f} MB (each worker's: {', '.join(f'{mb:,.0f}' for mb in run['workers_rss_mb']) or 'none'})")
    during = [name for name, began in run["began"] if began <= run["peak_at"]][-1:] or ["(before the first phase)"]
    print(f"  the PSS peak: during {during[0]!r}, {run['peak_at'] - run['began'][0][1] if run['began'] else 0:.1f} s into the "
          f"job; PSS then: job {run['peak_parts_mb'][0] if run['peak_parts_mb'] else 0:,.0f} MB, workers "
          f"{', '.join(f'{mb:,.0f}' for mb in run['peak_parts_mb'][1:]) or 'none'} MB")


def verdicts(runs: dict[int, dict], args: argparse.Namespace) -> None:
    big = (args.segments, args.documents) == BIG
    if not big:
        best = min(r["wall"] for r in runs.values())
        print(f"target (issue 20, this size): < {TARGET_SMALL_SECONDS:.0f} s wall; measured {best:.1f} s: "
              f"{'met' if best < TARGET_SMALL_SECONDS else 'NOT met'}")
        print(f"(issue 30's targets are for --segments {BIG[0]} --documents {BIG[1]})")
    if 2 in runs:
        wall = runs[2]["wall"]
        if big:
            print(f"target: < {TARGET_BIG_SECONDS:.0f} s wall at --jobs 2; measured {wall:.1f} s "
                  f"(load {runs[2]['load']:.1f}): {'met' if wall < TARGET_BIG_SECONDS else 'NOT met'}")
        if 1 in runs:
            one = runs[1]["wall"]
            print(f"target: --jobs 2 faster than --jobs 1; measured {wall:.1f} s vs {one:.1f} s "
                  f"(ratio {wall / one:.2f}): {'met' if wall < one else 'NOT met'}")
    peak = max(r["pss_mb"] for r in runs.values())
    print(f"target: peak RSS < {TARGET_RSS_MB:,.0f} MB; measured {peak:,.0f} MB (the peak of the job's and its "
          f"workers' summed PSS, largest of the runs): {'met' if peak < TARGET_RSS_MB else 'NOT met'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=50)
    parser.add_argument("--segments", type=int, default=20000)
    parser.add_argument("--jobs", default="1,2", help="comma-separated: each value is one run in its own process")
    parser.add_argument("--tm", choices=("update", "crossproject"), default="update")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a single run, in this process, as JSON
    args = parser.parse_args()
    data = shared_data_dir()
    if data is None:
        print("SKIP: ../shared/data/tm_l10n_en-es not found")
        return 0
    if args.one:
        print(json.dumps(run_once(data, args, int(args.jobs))))
        return 0
    runs: dict[int, dict] = {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        command = [sys.executable, __file__, "--one", "--jobs", str(jobs), "--documents", str(args.documents),
                   "--segments", str(args.segments), "--tm", args.tm]
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as child:
            memory = TreeMemory(child.pid)
            out, _ = child.communicate()
            memory.stop()
        if child.returncode:
            raise subprocess.CalledProcessError(child.returncode, command)
        runs[jobs] = {**json.loads(out.strip().splitlines()[-1]), **memory.figures()}
        show(runs[jobs], args)
    verdicts(runs, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
