#!/usr/bin/env python3
"""Meteor speed and memory, side by side with the reference jar in one run.

Targets (issue 2), all English modules (``-l en -norm``) on the same 2,000
English segments (WMT22 ru-en outputs vs references):
* end-to-end wall time of ``tmtprime meteor`` <= 0.5 x the jar's;
* steady-state throughput (segments/s once started) >= the jar's (issue 30: >= 3x);
* peak memory (RSS) of ``tmtprime meteor`` < 500 MB.

Targets of issue 30 (``--part spanish`` and ``--part startup``):
* 2,000 Spanish pairs (Apertium's eng-spa output vs the reference of the
  shared ``tm_l10n_en-es/update/dev`` set), ``-l es -norm -m "exact stem"``:
  ``tmtprime meteor`` wall time <= 1.0 x the jar's, both warm (after one
  unmeasured run each), identical final scores; CPU time (user + sys) is
  printed beside it because a shared machine inflates wall time;
* the stemmer's start-up (first ``stemmer(lang)`` call in a fresh process,
  imports included) < 0.3 s for every stemmed language, without NLTK (the
  table flags a language that imports it); printed beside it, the first
  one-pair ``exact stem`` score in that process (NumPy/numba and the cached
  compiled code included) and NLTK's own import, measured in the same minute.

``--part spanish --against TREE`` adds that tree's command to the alternation (CPU and wall ratio of this
tree to it). ``--part cpu [--against TREE]``: the CPU seconds of steady English scoring in
this tree and another (the ratio the speed changes of issue 30 are given as);
``--part own-startup --against TREE``: the CPU seconds of a one-pair command
after NumPy's import (our own start-up), both trees alternated.

Both commands run as subprocesses (interleaved, ``--repeat`` times; the
machine is shared, so the median is reported). Steady-state throughput
(``--part english``) is timed inside each process around the scoring loop
itself, not derived from whole-command wall times: the jar through
``bench/MeteorJarLoop.java`` (its ``MeteorScorer.getMeteorStats`` per segment,
as its command calls it), ours through the script ``_LOOP`` (load and compile
as the command does, then ``score_in_batches``); both score the 10,000
segments, the first 2,000 unmeasured (JIT, caches), and time the last 8,000.
Both print their final score over the 10,000, which must be identical (why not
the older slope between two command runs: docs/experiments/meteor-speed.md). Beside the wall-time
rate: the rate per CPU second of the scoring thread and of the whole process
(the jar's JIT and GC threads), and ours again keeping no pair across batches (repeats aligned anew). Also
printed: a one-segment run, the end-to-end time on 2,000; ``--jobs N`` passes ``-j N`` to ``tmtprime meteor``.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TMTPRIME_SHARED_DIR", ROOT.parent / "shared"))
if not (SHARED / "data").is_dir():
    SHARED = Path("/work/shared")
N = 2000
N_BIG = 10000


def segments(work: Path) -> dict[str, tuple[Path, Path]]:
    """hyp/ref files of 1, N and N_BIG segments (each a prefix of the next)."""
    with gzip.open(SHARED / "data" / "human_judgments" / "wmt22_da_ru-en.tsv.gz", "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    head, rows = rows[0], rows[1:]
    random.Random(1).shuffle(rows)
    h, r = head.index("hypothesis"), head.index("reference")
    rows = [row for row in rows if row[h].strip() and row[r].strip()][:N_BIG]
    files = {}
    for name, n in (("one", 1), ("small", N), ("big", N_BIG)):
        hyp, ref = work / f"hyp.{name}.txt", work / f"ref.{name}.txt"
        hyp.write_text("".join(row[h] + "\n" for row in rows[:n]), encoding="utf-8")
        ref.write_text("".join(row[r] + "\n" for row in rows[:n]), encoding="utf-8")
        files[name] = (hyp, ref)
    return files


def spanish_pairs(work: Path) -> tuple[Path, Path]:
    """hyp/ref files of N Spanish pairs: Apertium eng-spa vs the human reference (update/dev)."""
    with gzip.open(SHARED / "data" / "tm_l10n_en-es" / "update" / "dev.tsv.gz", "rt", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    head, rows = rows[0], rows[1:]
    h, r = head.index("mt_apertium_eng-spa"), head.index("reference")
    rows = [row for row in rows if row[h].strip() and row[r].strip()][:N]
    hyp, ref = work / "hyp.es.txt", work / "ref.es.txt"
    hyp.write_text("".join(row[h] + "\n" for row in rows), encoding="utf-8")
    ref.write_text("".join(row[r] + "\n" for row in rows), encoding="utf-8")
    return hyp, ref


def _run(cmd: list[str], env: dict[str, str] | None) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall time, CPU time (user + sys of the child) and the finished ``cmd``; a failure stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p


def cpu_timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall time, CPU time (user + sys of the child) and stdout of ``cmd``."""
    wall, cpu, p = _run(cmd, env)
    return wall, cpu, p.stdout


def spanish(jar_path: str, repeat: int, env: dict[str, str], against: Path | None = None) -> None:
    """The 2,000 Spanish pairs, jar vs ours (and ``against``: another source tree), warm, interleaved; medians
    of wall and CPU time."""
    opts = ["-l", "es", "-norm", "-m", "exact stem"]
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = spanish_pairs(Path(tmp))
        # -P: the current directory must not shadow the tree PYTHONPATH names (--against)
        ours = [sys.executable, "-P", "-m", "tmtprime", "meteor", str(hyp), str(ref), *opts]
        cmds = {"jar": (["java", "-Xmx2G", "-jar", jar_path, str(hyp), str(ref), *opts], env), "ours": (ours, env)}
        if against is not None:
            cmds["against"] = (ours, dict(env, PYTHONPATH=str(against.resolve())))
        for cmd, cmd_env in cmds.values():
            cpu_timed(cmd, cmd_env)  # warm: compiled code cached, files in the page cache
        wall: dict[str, list[float]] = {k: [] for k in cmds}
        cpu: dict[str, list[float]] = {k: [] for k in cmds}
        final: dict[str, str] = {}
        for _ in range(repeat):
            for who, (cmd, cmd_env) in cmds.items():
                w, c, out = cpu_timed(cmd, cmd_env)
                wall[who].append(w)
                cpu[who].append(c)
                final[who] = next((ln.split()[-1] for ln in out.split("\n") if ln.startswith("Final score")), "?")
    mw = {k: statistics.median(v) for k, v in wall.items()}
    mc = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"\n{N} Spanish pairs (-l es -norm -m 'exact stem'), warm, median of {repeat} interleaved runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':34}{'jar':>10}{'tmtprime':>12}{'ratio':>8}  target")
    print(f"{'wall time (s)':34}{mw['jar']:>10.2f}{mw['ours']:>12.2f}{mw['ours'] / mw['jar']:>8.2f}  <= 1.00")
    print(f"{'CPU time, user + sys (s)':34}{mc['jar']:>10.2f}{mc['ours']:>12.2f}{mc['ours'] / mc['jar']:>8.2f}")
    print(f"final scores: jar {final['jar']}  tmtprime {final['ours']}  "
          f"({'identical' if final['jar'] == final['ours'] else 'DIFFERENT'})")
    if against is not None:
        print(f"against {against}: wall {mw['against']:.2f} s, CPU {mc['against']:.2f} s; this tree / that tree: "
              f"wall {mw['ours'] / mw['against']:.2f}, CPU {mc['ours'] / mc['against']:.2f} "
              f"(final score {final['against']})")


_STARTUP = """
import sys, time
t, c = time.perf_counter(), time.process_time()
from tmtprime.meteor.stemmers import stemmer
stemmer({lang!r})("palabras")
stem_wall, stem_cpu = time.perf_counter() - t, time.process_time() - c
from tmtprime.meteor import Meteor
Meteor(lang={lang!r}, modules=("exact", "stem"), normalize=False).sentence_score("the words here", ["these words here"])
print(stem_wall, stem_cpu, time.perf_counter() - t, time.process_time() - c, "nltk" in sys.modules)
"""
_NLTK_IMPORT = """
import time
t, c = time.perf_counter(), time.process_time()
import nltk.stem.snowball
print(time.perf_counter() - t, time.process_time() - c)
"""


def startup(env: dict[str, str]) -> None:
    """In a fresh process, for every stemmed language: the first ``stemmer(lang)`` call, then the first
    one-pair ``exact stem`` score (imports included: import-to-first-score in the library); then
    ``tmtprime meteor`` on one pair as a whole command; NLTK's own import beside."""
    from tmtprime.meteor.languages import language_name
    from tmtprime.meteor.stemmers import SNOWBALL_LANGUAGES

    codes = sorted(c for c in ("da", "nl", "en", "fi", "fr", "de", "hu", "it", "no", "pt", "ro", "ru", "es", "se",
                               "tr") if language_name(c) in SNOWBALL_LANGUAGES)
    subprocess.run([sys.executable, "-c", _STARTUP.format(lang="en")], env=env, check=True, capture_output=True)
    print(f"\nstart-up in a fresh process, median of 3 (targets < 0.30 s: the stemmer, the library's first score, "
          f"the command on one pair); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':6}{'stemmer wall (s)':>18}{'CPU (s)':>10}{'first score wall (s)':>22}{'CPU (s)':>10}"
          f"{'command wall (s)':>18}{'CPU (s)':>10}")
    worst = {"stemmer": 0.0, "score": 0.0, "command": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        hyp.write_text("the words here\n", encoding="utf-8")
        ref.write_text("these words here\n", encoding="utf-8")
        command = [sys.executable, "-m", "tmtprime", "meteor", str(hyp), str(ref), "-m", "exact stem", "-q", "-l"]
        for code in codes:
            runs = [subprocess.run([sys.executable, "-c", _STARTUP.format(lang=code)], capture_output=True, text=True,
                                   env=env, check=True).stdout.split() for _ in range(3)]
            stem_wall, stem_cpu, wall, cpu = (statistics.median(float(r[i]) for r in runs) for i in range(4))
            cli = [cpu_timed(command + [code], env) for _ in range(3)]
            cli_wall, cli_cpu = statistics.median(c[0] for c in cli), statistics.median(c[1] for c in cli)
            for key, figure in (("stemmer", stem_wall), ("score", wall), ("command", cli_wall)):
                worst[key] = max(worst[key], figure)
            print(f"  {code:<4}{stem_wall:>18.3f}{stem_cpu:>10.3f}{wall:>22.3f}{cpu:>10.3f}{cli_wall:>18.3f}{cli_cpu:>10.3f}"
                  f"{'  (imports NLTK)' if runs[0][4] == 'True' else ''}")
        english = [cpu_timed(command[:-4] + ["-l", "en", "-norm", "-q"], env) for _ in range(3)]
        print(f"  {'en, all modules, -norm':<52}{statistics.median(c[0] for c in english):>18.3f}"
              f"{statistics.median(c[1] for c in english):>10.3f}")
    print("worst wall time: " + ", ".join(f"{k} {v:.3f} s" for k, v in worst.items()) + " (target < 0.30 each)")
    nltk = [subprocess.run([sys.executable, "-c", _NLTK_IMPORT], capture_output=True, text=True, env=env)
            for _ in range(3)]
    if all(r.returncode == 0 for r in nltk):
        wall, cpu = (statistics.median(float(r.stdout.split()[i]) for r in nltk) for i in (0, 1))
        print(f"reference, same minute: import nltk.stem.snowball {wall:.3f} s wall, {cpu:.3f} s CPU")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


_OWN_STARTUP = """
import contextlib, io, sys, time
c = time.process_time()
import numpy
c1 = time.process_time()
from tmtprime.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    main(["meteor", *sys.argv[1:]])
print(time.process_time() - c1)
"""


def own_startup(a: argparse.Namespace, env: dict[str, str]) -> None:
    """CPU seconds of ``tmtprime meteor`` on one pair after NumPy's import (the part our code decides), in fresh
    processes, this tree and ``--against`` alternated ``max(--repeat, 9)`` times; min and median."""
    trees = {"this tree": ROOT} | ({str(a.against): a.against.resolve()} if a.against else {})
    cases = {"tr, exact stem": ["-l", "tr", "-m", "exact stem"], "en, all modules, -norm": ["-l", "en", "-norm"]}
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        hyp.write_text("the words here\n", encoding="utf-8")
        ref.write_text("these words here\n", encoding="utf-8")
        script = Path(tmp) / "own.py"  # a file, not -c: the current directory must not shadow the tree
        script.write_text(_OWN_STARTUP, encoding="utf-8")
        cpu: dict[tuple[str, str], list[float]] = {(t, c): [] for t in trees for c in cases}
        for _ in range(max(a.repeat, 9)):
            for case, options in cases.items():
                for name, tree in trees.items():
                    out = subprocess.run([sys.executable, str(script), str(hyp), str(ref), "-q", *options],
                                         env=dict(env, PYTHONPATH=str(tree)), capture_output=True, text=True,
                                         check=True)  # fmt: skip
                    cpu[(name, case)].append(float(out.stdout))
    print(f"\none pair, CPU seconds after NumPy's import (min / median of {max(a.repeat, 9)} fresh processes); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for (name, case), values in cpu.items():
        print(f"  {name:30}{case:26}{min(values):>8.3f}{statistics.median(values):>8.3f}")


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, float, str]:
    """Wall time, peak RSS (KB, via /usr/bin/time -f %M when available), CPU time (user + sys) and stdout of
    ``cmd``."""
    gnu_time = Path("/usr/bin/time")
    wall, cpu, p = _run([str(gnu_time), "-f", "%M", *cmd] if gnu_time.exists() else cmd, env)
    rss = int(p.stderr.strip().split("\n")[-1] or 0) if gnu_time.exists() else 0
    return wall, rss, cpu, p.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jar", default=os.environ.get("METEOR_JAR", "/tmp/meteor_ref/meteor-1.5.jar"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--part", choices=("all", "english", "spanish", "startup", "cpu", "own-startup"), default="all")
    ap.add_argument("--against", type=Path, default=None, help="with --part cpu, own-startup or spanish: another source tree, alternated")
    a = ap.parse_args()
    if not Path(a.jar).is_file():
        print(f"jar not found: {a.jar}", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    sys.path.insert(0, str(ROOT))
    if a.part in ("all", "startup"):
        startup(env)
    if a.part in ("all", "spanish"):
        spanish(a.jar, a.repeat, env, a.against)
    if a.part in ("all", "english"):
        english(a, env)
    if a.part == "cpu":
        steady_cpu(a, env)
    if a.part == "own-startup":
        own_startup(a, env)
    return 0


_STEADY = """
import sys, time
from tmtprime.meteor.gc_pause import paused_gc
import tmtprime.meteor.scorer
from tmtprime.meteor.scorer import Meteor
hyps = open(sys.argv[1], encoding="utf-8").read().splitlines()
refs = [[r] for r in open(sys.argv[2], encoding="utf-8").read().splitlines()]
tmtprime.meteor.scorer.PAIR_CACHE = 0  # each pass scores the same pairs: none may be kept from the pass before
m = Meteor("en").load()
def run():
    with paused_gc():
        for i in range(0, len(hyps), 500):
            m.score_each(hyps[i : i + 500], refs[i : i + 500])
run()
times = []
for _ in range(3):
    t = time.process_time()
    run()
    times.append(time.process_time() - t)
print(min(times))
"""


def steady_cpu(a: argparse.Namespace, env: dict[str, str]) -> None:
    """CPU seconds of ``Meteor("en").score_each`` over the 10,000 English segments once warm (best of 3 passes,
    in batches of 500 as the command scores), this tree against ``--against``, alternated ``--repeat`` times."""
    trees = {"this tree": ROOT} | ({str(a.against): a.against.resolve()} if a.against else {})
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = segments(Path(tmp))["big"]
        script = Path(tmp) / "steady.py"  # a file, not -c: the current directory must not shadow the tree
        script.write_text(_STEADY, encoding="utf-8")
        figures: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(a.repeat):
            for name, tree in trees.items():
                run_env = dict(env, PYTHONPATH=str(tree))
                _w, _c, out = cpu_timed([sys.executable, str(script), str(hyp), str(ref)], run_env)
                figures[name].append(float(out))
    print(f"\n{N_BIG} English segments, all modules, warm, CPU seconds (best of 3 passes; median of {a.repeat} "
          f"alternated runs); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    mine = statistics.median(figures["this tree"])
    for name, values in figures.items():
        print(f"  {name:40}{statistics.median(values):>8.3f} s  ratio to this tree {statistics.median(values) / mine:.2f}")


_LOOP = """
import gc, sys, time
from tmtprime.meteor.aligner import compile_now
from tmtprime.meteor.batch import score_in_batches
from tmtprime.meteor.scorer import Meteor
hyps = open(sys.argv[1], encoding="utf-8").read().splitlines()
refs = [[r] for r in open(sys.argv[2], encoding="utf-8").read().splitlines()]
warm = int(sys.argv[3])
if sys.argv[4:] == ["no-pair-cache"]:  # keep no pair from batch to batch (a repeated pair is aligned again)
    import tmtprime.meteor.scorer
    tmtprime.meteor.scorer.PAIR_CACHE = 0
m = Meteor("en", normalize=True).load()
# as `tmtprime meteor` prepares a long run (cli/meteor.py _load_for_batch), then scores BATCH at a time
compile_now(warm_up=lambda: m.score_each(["he was not able to go to the cars"], [["he could not go to his car"]]))
gc.collect()
gc.freeze()
scores = score_in_batches(m, hyps[:warm], refs[:warm])
t, c = time.perf_counter(), time.process_time()
scores += score_in_batches(m, hyps[warm:], refs[warm:])
wall, cpu = time.perf_counter() - t, time.process_time() - c
print(len(hyps) - warm, wall, cpu, cpu, repr(m.aggregate(scores).score))
"""


def english(a: argparse.Namespace, env: dict[str, str]) -> None:
    """The English comparison: end to end and memory (issue 2), the steady scoring loop (issue 30)."""
    with tempfile.TemporaryDirectory() as tmp:
        files = segments(Path(tmp))
        hyp, ref = files["small"]
        opts = ["-l", "en", "-norm"]
        ours = [sys.executable, "-m", "tmtprime", "meteor"]
        jar = ["java", "-Xmx2G", "-jar", a.jar]
        loop_script = Path(tmp) / "loop.py"  # a file, not -c: the current directory must not shadow the tree
        loop_script.write_text(_LOOP, encoding="utf-8")
        big = [str(x) for x in files["big"]] + [str(N)]
        loops = {"jar": ["java", "-Xmx2G", "-cp", a.jar, str(ROOT / "bench" / "MeteorJarLoop.java"), *big],
                 "ours": [sys.executable, str(loop_script), *big],
                 "ours, no pair cache": [sys.executable, str(loop_script), *big, "no-pair-cache"]}
        # builds the paraphrase index and the compiled aligner (numba cache) if needed
        timed(ours + [*map(str, files["one"]), *opts], env)
        res: dict[str, list[float]] = {f"{who}.{name}": [] for who in ("jar", "ours") for name in ("one", "small")}
        rss = {"jar": 0, "ours": 0}
        outputs: dict[str, str] = {}
        loop: dict[str, list[list[float]]] = {who: [] for who in loops}
        loop_final: dict[str, str] = {}
        for _ in range(a.repeat):
            for name in ("one", "small"):
                h, r = files[name]
                for who, cmd in (("jar", jar + [str(h), str(r), *opts]),
                                 ("ours", ours + [str(h), str(r), *opts, "-j", str(a.jobs)])):
                    w, m, _c, out = timed(cmd, env if who == "ours" else None)
                    res[f"{who}.{name}"].append(w)
                    rss[who] = max(rss[who], m)
                    outputs[f"{who}.{name}"] = out
            for who, cmd in loops.items():
                _w, _c, out = cpu_timed(cmd, env if who != "jar" else None)
                fields = out.split()
                loop[who].append([float(x) for x in fields[:4]])
                loop_final[who] = fields[4]
        med = {k: statistics.median(v) for k, v in res.items()}
        timed_n = loop["ours"][0][0]
        # per loop: segments per second of wall time, of the scoring thread's CPU time, of the process's CPU time
        rate = {who: [statistics.median(timed_n / run[i] for run in runs) for i in (1, 2, 3)] for who, runs in loop.items()}
        final = [line for line in outputs["ours.small"].split("\n") if line.startswith("Final score")]
        jfinal = [line for line in outputs["jar.small"].split("\n") if line.startswith("Final score")]

    print(f"{N} English segments, all modules (-l en -norm), median of {a.repeat} interleaved runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    print(f"{'':40}{'jar':>10}{'tmtprime':>12}{'ratio':>8}  target")
    for label, name in ((f"end-to-end wall time, {N} (s)", "small"), ("start-up, 1 segment (s)", "one")):
        target = "  <= 0.50" if name == "small" else ""
        print(f"{label:40}{med['jar.' + name]:>10.2f}{med['ours.' + name]:>12.2f}{med['ours.' + name] / med['jar.' + name]:>8.2f}{target}")
    print(f"steady scoring loop: segments {N + 1}-{N_BIG} after {N} unmeasured, timed inside each process "
          "(bench/MeteorJarLoop.java: the jar's getMeteorStats per segment; ours: score_in_batches as the command)")
    labels = ("segments per second, wall time", "per CPU second, scoring thread", "per CPU second, whole process")
    for i, label in enumerate(labels):
        target = "  >= 3.00" if i == 0 else ""
        print(f"{label:40}{rate['jar'][i]:>10.0f}{rate['ours'][i]:>12.0f}{rate['ours'][i] / rate['jar'][i]:>8.2f}{target}")
    print("  (ours runs in one thread; the jar's process CPU adds its JIT compiler and garbage collector threads, "
          "which run beside the scoring thread when a core is free)")
    lone = rate["ours, no pair cache"]
    print(f"{'same, ours keeping no pair across batches':40}{'':>10}{lone[0]:>12.0f}{lone[0] / rate['jar'][0]:>8.2f}"
          f"  (wall; {lone[1] / rate['jar'][1]:.2f} per CPU second of the scoring thread)")
    print(f"{'peak RSS (MB)':40}{rss['jar'] / 1024:>10.0f}{rss['ours'] / 1024:>12.0f}{'':>8}  < 500 (tmtprime)")
    print(f"final scores, {N}: jar {jfinal[0].split()[-1] if jfinal else '?'}  tmtprime {final[0].split()[-1] if final else '?'}; "
          f"{N_BIG} (loops): jar {loop_final['jar']}  tmtprime {loop_final['ours']}  "
          f"({'identical' if loop_final['jar'] == loop_final['ours'] == loop_final['ours, no pair cache'] else 'DIFFERENT'})")


if __name__ == "__main__":
    sys.exit(main())
