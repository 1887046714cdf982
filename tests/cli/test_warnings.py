"""A library's warning (Dask's "Sending large graph") never reaches a user who asked for -q; otherwise once, in words."""

from __future__ import annotations

import argparse
import warnings

import pytest

from tmtprime.cli import run_handler


def _warns_twice(ns: argparse.Namespace) -> int:
    for _ in range(2):  # two call sites' worth: Python would print both, with file and line
        for line in (10, 20):
            warnings.warn_explicit(
                "Sending large graph of size 82.71 MiB.\nThis may cause some slowdown.", UserWarning,
                "/usr/lib/python3/dist-packages/distributed/client.py", line,
            )
    return 0


@pytest.mark.parametrize("quiet", [True, False])
def test_third_party_warnings_are_dropped_with_q_and_said_once_without(quiet, capsys):
    assert run_handler(_warns_twice, argparse.Namespace(quiet=quiet)) == 0
    err = capsys.readouterr().err
    if quiet:
        assert err == ""
    else:
        assert err == "tmtprime: note from distributed: Sending large graph of size 82.71 MiB. This may cause some slowdown.\n"
    with warnings.catch_warnings(record=True) as caught:  # the process's own handling is back afterwards
        warnings.simplefilter("always")
        warnings.warn("outside", UserWarning)
    assert [str(w.message) for w in caught] == ["outside"]
