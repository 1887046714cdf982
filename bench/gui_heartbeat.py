"""Does the desktop application's UI thread stay responsive while long work runs on the worker thread?

A 10 ms heartbeat timer on the UI thread records the longest gap between its
ticks while (1) a 10,000-segment import and (2) a training run go through the
application's task runner, and, as a baseline, while the worker only sleeps
(on a loaded machine the operating system alone makes gaps) (the same path as the Import wizard and the Train
button). Target: no gap above 100 ms. The data is the shared ``update`` set
(../shared/data/tm_l10n_en-es): its TM, its dev segments for training, and
for the import its dev rows repeated with numbered sources up to 10,000 rows.

    python3 bench/gui_heartbeat.py [--task import|train|both] [--rows 10000]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _shared_data import MT_COLUMNS, shared_data_dir  # noqa: E402

TARGET_MS = 100.0
INTERVAL_MS = 10


def document_tsv(dev: Path, out: Path, rows: int) -> Path:
    """``rows`` rows of the dev file, repeated with numbered sources so that each is its own segment."""
    with gzip.open(dev, "rt", encoding="utf-8") as f:
        records = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    with open(out, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(records[0]), delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\")
        w.writeheader()
        for i in range(rows):
            r = dict(records[i % len(records)])
            r["source"] = f"{r['source']} ({i // len(records) + 1})" if i >= len(records) else r["source"]
            r["seg_id"] = str(i)
            w.writerow(r)
    return out


def mapping():  # noqa: ANN201
    from tmtprime.formats import ColumnMapping

    return ColumnMapping(
        source="source", reference="reference", tm="tm_target", tm_source="tm_source", tm_score="tm_fuzzy_word",
        mt={name: column for name, column in MT_COLUMNS.items()}, key=["doc_id", "seg_id"], context="msgctxt",
    )  # fmt: skip


def run(window, app, title: str, start) -> tuple[float, float, int]:  # noqa: ANN001
    """Start a task with ``start()`` and wait for it; (seconds, longest UI gap in ms, ticks)."""
    from PySide6.QtCore import QTimer

    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000.0 - INTERVAL_MS)
        last[0] = now

    outcome: list[str] = []
    window.context.runner.ended.connect(lambda o, m: outcome.append(f"{o}: {m}"))
    timer = QTimer()
    timer.setInterval(INTERVAL_MS)
    timer.timeout.connect(tick)
    t0 = time.perf_counter()
    start()
    timer.start()
    last[0] = time.perf_counter()
    while window.context.runner.running:
        app.processEvents()
        time.sleep(0.001)
    timer.stop()
    seconds = time.perf_counter() - t0
    print(f"  {outcome[-1] if outcome else '?'}", file=sys.stderr)
    return seconds, max(gaps, default=0.0), len(gaps)


def estimate_heartbeat(segments: int) -> int:
    """The UI thread while the dashboard estimates a large project from scratch (the job read and priced)."""
    from gui_open import project

    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from tmtprime.gui.app import application
    from tmtprime.gui.window import MainWindow
    from tmtprime.workflows.estimation import Estimates

    path = project(Path(tempfile.gettempdir()) / "tmtprime-gui-bench", segments)
    app = application()
    window = MainWindow()
    window.show()
    window.open_project(str(path))
    while window.context.runner.busy or window.analysis.estimate is None:
        app.processEvents()
    ctx, scheme = window.context, window.analysis.editor.scheme
    ctx.store.models.save("bench-touch", b"", {})  # a change: nothing kept
    ctx.store.models.delete("bench-touch")
    idle = run(window, app, "Idle", lambda: ctx.run("Idle", lambda st, rep: time.sleep(3.0)))
    work = run(window, app, "Estimate", lambda: ctx.run("Estimate", lambda st, rep: Estimates(st).estimate(scheme, None, rep)))
    print(f"heartbeat every {INTERVAL_MS} ms on the UI thread; target: longest gap < {TARGET_MS:.0f} ms")
    for what, (seconds, gap, ticks) in (("nothing running (baseline)", idle), (f"estimate of {segments:,} segments (worker thread)", work)):
        print(f"{what}: {seconds:.1f} s, {ticks} ticks, longest UI gap {gap:.0f} ms -> {'met' if gap < TARGET_MS else 'NOT met'}")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    window.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=("import", "train", "both", "estimate"), default="both",
                        help="estimate: the dashboard's estimate of the bench/gui_open.py project (--segments), nothing kept")  # fmt: skip
    parser.add_argument("--segments", type=int, default=100_000, help="size of the estimate's project")
    parser.add_argument("--rows", type=int, default=10_000)
    args = parser.parse_args()
    if args.task == "estimate":
        return estimate_heartbeat(args.segments)
    data = shared_data_dir()
    if data is None:
        print("skipped: ../shared/data/tm_l10n_en-es not found")
        return 0
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from tmtprime import workflows as wf
    from tmtprime.gui.app import application
    from tmtprime.gui.window import MainWindow
    from tmtprime.store import Store

    tmp = Path(tempfile.mkdtemp())
    project = tmp / "bench.db"
    with Store.create(project, source_lang="en", target_lang="es") as store:
        wf.import_files(store, [data / "update" / "tm.tsv.gz"], role="tm",
                        mapping=type(mapping())(source="source", target="target"))  # fmt: skip
        if args.task in ("train", "both"):
            wf.import_files(store, [data / "update" / "dev.tsv.gz"], role="dev", mapping=mapping())
    app = application()
    window = MainWindow()
    window.show()
    window.open_project(str(project))
    while window.context.runner.busy:
        app.processEvents()
    ctx = window.context
    results = [("nothing running (baseline: what the machine's load alone does)",
                run(window, app, "Idle", lambda: ctx.run("Idle", lambda st, rep: time.sleep(3.0))))]  # fmt: skip
    if args.task in ("import", "both"):
        doc = document_tsv(data / "update" / "dev.tsv.gz", tmp / "job.tsv", args.rows)
        options = {"files": [str(doc)], "role": "document", "mapping": mapping()}
        results.append((f"import of {args.rows:,} segments (Import wizard: child process)",
                        run(window, app, "Import", lambda: ctx.run_process("Import", "import_files", options))))  # fmt: skip
    if args.task in ("train", "both"):
        results.append(("training on the update dev data (Train button: child process)",
                        run(window, app, "Training", lambda: ctx.run_process("Training", "train"))))  # fmt: skip
    print(f"heartbeat every {INTERVAL_MS} ms on the UI thread; target: longest gap < {TARGET_MS:.0f} ms")
    for what, (seconds, gap, ticks) in results:
        verdict = "met" if gap < TARGET_MS else "NOT met"
        print(f"{what}: {seconds:.1f} s, {ticks} ticks, longest UI gap {gap:.0f} ms -> {verdict}")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
