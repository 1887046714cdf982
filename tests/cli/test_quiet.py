"""``-q`` on every subcommand that prints (issue 30): accepted everywhere, silent where the output is a confirmation."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tmtprime.cli import _command_modules, build_parser, main


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [(path, parser)]
    return [leaf for a in subs for name, sub in a.choices.items() for leaf in _leaves(sub, (*path, name))]


def test_every_subcommand_with_output_accepts_q() -> None:
    # gui prints nothing; meteor takes the jar's own -q (segment scores to stderr), parsed by itself
    leaves = [(p, sub) for p, sub in _leaves(build_parser(_command_modules())) if p[0] not in ("gui", "meteor")]
    assert len(leaves) > 15
    refused = [" ".join(p) for p, sub in leaves if not any("-q" in a.option_strings for a in sub._actions)]
    assert refused == []


def test_confirmations_are_silent_with_q(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p.db"
    assert main(["project", "create", str(project), "-s", "en", "-t", "es", "-q"]) == 0
    assert capsys.readouterr().out == ""
    assert project.is_file()
    assert main(["cost", "save", str(project), "matecat", "--name", "m", "-q"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["cost", "schemes", str(project), "-q"]) == 0
    assert "m\tstored" in capsys.readouterr().out  # a query's answer is its output: -q keeps it
    assert main(["project", "create", str(tmp_path / "q.db"), "-s", "en", "-t", "es"]) == 0
    assert "created project" in capsys.readouterr().out
