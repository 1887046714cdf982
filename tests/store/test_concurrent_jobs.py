"""Two overlapping jobs on one project: no failure, the counts of one run (SQLite and a real PostgreSQL).

Each trial starts two ``tmtprime`` processes at the same moment on a prepared
demo project: two ``tm lookup`` runs (which once collided on
``uq_candidates_segment_system_rank``), or two first ``recommend`` runs (the
shipped model stored twice: ``models_name_key``, ``recommendations_model_id_fkey``).
``TMTPRIME_RACE_TRIALS`` sets the trials per case (default 2; the figure in
``docs/experiments/concurrent-jobs.md`` used 10).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tmtprime import workflows as wf
from tmtprime.mt.imported import ImportedEngine
from tmtprime.paths import resource_path
from tmtprime.store import Store

ROOT = Path(__file__).resolve().parents[2]
DEMO = resource_path("demo")
TRIALS = int(os.environ.get("TMTPRIME_RACE_TRIALS", "2"))


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tmtprime", *args], env=_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _both(*args: str) -> list[tuple[int, str]]:
    procs = [_start(*args), _start(*args)]
    return [(p.wait(timeout=600), p.communicate()[1]) for p in procs]


def _prepare(location: str, *, recommended: bool) -> None:
    with Store.open(location) as store:
        wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
        wf.import_files(store, sorted((DEMO / "jobs").iterdir()))
        wf.lookup_tm(store)
        for path in sorted((DEMO / "mt").glob("*.tsv")):
            wf.translate(store, ImportedEngine(path, name=path.stem, missing="skip"))
        if recommended:
            wf.recommend(store)


def _counts(location: str) -> tuple[int, int, int]:
    with Store.open(location) as store:
        candidates = sum(len(s.candidates) for s in store.segments.iter(role="document"))
        return candidates, len(store.models.list()), store.recommendations.count()


@pytest.mark.slow
@pytest.mark.parametrize("job", ["lookup", "recommend"])
def test_two_overlapping_jobs_never_fail(store, job):
    location = str(store.url.render_as_string(hide_password=False)) if not store.is_sqlite else store.location
    store.close()
    _prepare(location, recommended=job == "lookup")
    expected = _counts(location)
    args = ["tm", "lookup", location] if job == "lookup" else ["recommend", location]
    failures = []
    for _ in range(TRIALS):
        if job == "recommend":  # every trial is a first run: no model in the project yet
            with Store.open(location) as fresh:
                for model in fresh.models.list():
                    fresh.models.delete(model.name)
        for code, err in _both(*args):
            if code != 0:
                failures.append(err.strip().splitlines()[-1])
        counts = _counts(location)
        assert counts == (expected[0], 1, 188), counts
    assert failures == []


def test_a_second_lookup_waits_for_the_first_and_says_so(store):
    location = store.url.render_as_string(hide_password=False) if not store.is_sqlite else store.location
    wf.import_files(store, [DEMO / "tm.tmx"], role="tm")
    wf.import_files(store, [DEMO / "jobs" / "ui-strings.xlf"])
    with store.job_lock("recommend"):
        second = _start("tm", "lookup", location)
        said: list[str] = []
        reader = threading.Thread(target=lambda: said.extend(second.stderr), daemon=True)  # type: ignore[arg-type]
        reader.start()
        deadline = time.monotonic() + 120
        while not any("waiting" in line for line in said) and time.monotonic() < deadline and second.poll() is None:
            time.sleep(0.2)
        assert [line for line in said if "waiting" in line] == ["another recommend is running on this project, waiting ...\n"]
        assert second.poll() is None  # still waiting while the lock is held
        assert store.steps.status()[0].steps == ()
    assert second.wait(timeout=300) == 0
    assert [s.step for s in store.steps.status()[0].steps] == ["lookup"]
