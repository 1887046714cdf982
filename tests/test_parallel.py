"""Batch work on a real Dask cluster (an in-process LocalCluster) and the errors a user can fix."""

from __future__ import annotations

import sys

import pytest

from tmtprime import parallel
from tmtprime.cli import main
from tmtprime.errors import ExternalToolError, UsageError
from tmtprime.parallel import dask_cluster, run_batches

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as c:
        yield c


def _batch_and_worker(batch):
    return list(batch), distributed.get_worker().address


def test_batches_run_on_the_cluster_workers_in_input_order(cluster):
    with dask_cluster(cluster.scheduler_address) as workers:
        assert workers == 2
        parts = run_batches(_batch_and_worker, list(range(10)), n_jobs=-1, batch_size=3)
    assert [x for batch, _ in parts for x in batch] == list(range(10))
    assert {address for _, address in parts} <= set(cluster.scheduler.workers)
    # outside the block nothing goes to the cluster any more
    assert run_batches(lambda b: list(b), [1, 2, 3], n_jobs=2, batch_size=1) == [[1], [2], [3]]
    assert parallel._active_backend is None


def test_a_named_backend_stays_local_inside_the_cluster(cluster):
    """Threads over shared numpy arrays (the SVM's decision values) must not be shipped away."""
    with dask_cluster(cluster.scheduler_address):
        with pytest.raises(ValueError):  # not on a Dask worker
            run_batches(_batch_and_worker, [1, 2], n_jobs=2, batch_size=1, backend="threading")


def test_train_and_recommend_on_the_cluster(cluster, tmp_path):
    from tests.recommend.synthetic import build
    from tests.test_product_workflow import _mapping

    paths, _ = build(tmp_path, n_new=30)
    db = str(tmp_path / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", db, str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", db, str(paths["dev"]), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    before = set(cluster.scheduler.task_prefixes)
    assert main(["train", db, "-q", "--scheduler", cluster.scheduler_address]) == 0
    trained = set(cluster.scheduler.task_prefixes) - before
    assert trained, "training sent no work to the cluster"
    assert main(["import", db, str(paths["new"]), "--as", "document", *_mapping(), "-q"]) == 0
    assert main(["recommend", db, "-q", "--scheduler", cluster.scheduler_address]) == 0
    out = tmp_path / "picks.csv"
    assert main(["export", db, "--format", "csv", "-o", str(out), "-q"]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 31  # header + 30 picks


def test_nothing_at_the_address_is_one_clear_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(ExternalToolError, match="no Dask scheduler answered at 'tcp://127.0.0.1:9'"):
        with dask_cluster("tcp://127.0.0.1:9"):
            pass
    db = str(tmp_path / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    capsys.readouterr()
    status = main(["recommend", db, "-q", "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert status != 0
    assert err.count("\n") == 1 and "no Dask scheduler answered" in err and "Traceback" not in err


def test_without_dask_installed_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    with pytest.raises(UsageError, match=r"pip install 'tmtprime\[dask\]'"):
        with dask_cluster("tcp://127.0.0.1:9"):
            pass


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_jobs_must_be_a_positive_count_or_minus_one(value, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["train", str(tmp_path / "P.db"), "-j", value])
    assert exit_info.value.code == 2
    assert "--jobs" in capsys.readouterr().err
