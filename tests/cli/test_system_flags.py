"""One spelling for a list of systems (``--systems A,B``) and for the name new candidates get (``--name``);
the old spellings still parse to the same thing."""

from __future__ import annotations

import argparse

import pytest

from tmtprime.cli import _command_modules, build_parser
from tmtprime.errors import UnknownSystem, UsageError


@pytest.fixture(scope="module")
def parser() -> argparse.ArgumentParser:
    return build_parser(_command_modules())


@pytest.mark.parametrize("command", ["recommend", "report"])
def test_a_list_of_systems_has_one_spelling_and_the_old_one_is_an_alias(parser, command):
    new = parser.parse_args([command, "P.db", "--systems", "tm, deepl", "--systems", "apertium"])
    old = parser.parse_args([command, "P.db", "--system", "tm", "--system", "deepl", "--system", "apertium"])
    assert new.systems == old.systems == ["tm", "deepl", "apertium"]
    assert parser.parse_args([command, "P.db"]).systems is None


@pytest.mark.parametrize(("argv", "default"), [(["tm", "lookup", "P.db"], "tm-lookup"), (["translate", "P.db"], None)])
def test_the_name_of_new_candidates_is_name_with_system_as_the_old_spelling(parser, argv, default):
    assert parser.parse_args(argv).system_name == default
    assert parser.parse_args([*argv, "--name", "tm2"]).system_name == "tm2"
    assert parser.parse_args([*argv, "--system", "tm2"]).system_name == "tm2"


def test_an_unknown_system_is_one_usage_error_naming_those_that_exist():
    error = UnknownSystem(["nope"], ["tm", "deepl"], "this job")
    assert isinstance(error, UsageError) and error.exit_code == 2
    assert str(error) == "no system named 'nope' in this job (systems: deepl, tm)"
