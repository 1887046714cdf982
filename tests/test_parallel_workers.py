"""tmtprime.parallel.end_workers: the pooled local workers are ended, not left holding a phase's inputs."""

import os
from pathlib import Path

from tmtprime.parallel import end_workers, run_batches


def _pid(batch):
    return os.getpid()


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_ending_the_workers_ends_the_processes_that_ran_the_batches():
    pids = set(run_batches(_pid, list(range(4)), n_jobs=2, batch_size=1))
    assert os.getpid() not in pids and pids and all(_running(p) for p in pids)  # kept for reuse
    end_workers()
    assert not [p for p in pids if _running(p)]
    assert len(run_batches(_pid, list(range(2)), n_jobs=2, batch_size=1)) == 2  # new workers when needed
    end_workers()


# ForkedTasks: tasks done by forked workers while the caller works; failures, deaths and cancels end them


from contextlib import contextmanager  # noqa: E402

import pytest  # noqa: E402

from tmtprime.errors import Cancelled, StoreError, TmtprimeError  # noqa: E402
from tmtprime.parallel import ForkedTasks, can_fork  # noqa: E402
from tmtprime.progress import Reporter  # noqa: E402

needs_fork = pytest.mark.skipif(not can_fork(), reason="needs os.fork")


class _Steps(Reporter):
    def __init__(self, cancel_at: int | None = None) -> None:
        super().__init__()
        self.steps: list[tuple[int, int | None]] = []
        self.cancel_at = cancel_at

    def on_progress(self, done: int, total: int | None) -> None:
        self.steps.append((done, total))
        if done == self.cancel_at:
            self.request_cancel()


def _writer(out: Path, fail: dict[int, BaseException | int] | None = None):
    """A worker writing one file per task; ``fail``: task -> the error it raises, or an exit status to die with."""
    @contextmanager
    def worker():
        def do(task: int) -> None:
            what = (fail or {}).get(task)
            if isinstance(what, int):
                os._exit(what)
            if what is not None:
                raise what
            (out / f"{task}.txt").write_text(str(os.getpid()))
        yield do
    return worker


@needs_fork
def test_forked_tasks_are_each_done_once_by_other_processes_with_progress(tmp_path):
    reporter = _Steps()
    with ForkedTasks(_writer(tmp_path), 12, 2) as tasks:
        tasks.wait(reporter)
        processes = list(tasks._processes)
    assert sorted(int(p.stem) for p in tmp_path.iterdir()) == list(range(12))
    pids = {int(p.read_text()) for p in tmp_path.iterdir()}
    assert os.getpid() not in pids and len(pids) <= 2
    assert reporter.steps[0] == (0, 12) and reporter.steps[-1] == (12, 12) and len(reporter.steps) == 13
    assert not any(p.is_alive() for p in processes)


@needs_fork
def test_a_failed_task_is_one_error_line_with_its_exit_status_and_the_workers_end(tmp_path):
    with pytest.raises(TmtprimeError) as caught:
        with ForkedTasks(_writer(tmp_path, {3: StoreError("cannot write x.xlf: disk full")}), 40, 2) as tasks:
            tasks.wait(Reporter(), describe=lambda task: f"writing document {task}")
    assert str(caught.value) == "writing document 3: cannot write x.xlf: disk full"
    assert caught.value.exit_code == StoreError.exit_code
    assert not any(p.is_alive() for p in tasks._processes)
    with pytest.raises(TmtprimeError, match=r"^writing 2: KeyError: 'x'$"):
        with ForkedTasks(_writer(tmp_path, {2: KeyError("x")}), 5, 2) as tasks:
            tasks.wait(Reporter(), describe=lambda task: f"writing {task}")


@needs_fork
def test_a_worker_that_dies_is_an_error_not_a_hang(tmp_path):
    with pytest.raises(TmtprimeError, match=r"worker process ended unexpectedly \(exit status 9\)"):
        with ForkedTasks(_writer(tmp_path, {0: 9}), 4, 1) as tasks:
            tasks.wait(Reporter())


@needs_fork
def test_a_cancel_ends_the_workers_before_the_tasks_are_done(tmp_path):
    @contextmanager
    def worker():
        import time

        def do(task: int) -> None:
            time.sleep(0.05)
            (tmp_path / f"{task}.txt").write_text("")
        yield do

    reporter = _Steps(cancel_at=3)
    with pytest.raises(Cancelled):
        with ForkedTasks(worker, 200, 2) as tasks:
            tasks.wait(reporter)
    assert not any(p.is_alive() for p in tasks._processes)
    assert 3 <= len(list(tmp_path.iterdir())) < 200
