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
