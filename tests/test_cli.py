"""The command dispatcher: version, help, and one-line errors instead of tracebacks."""

from __future__ import annotations

import subprocess
import sys

from tmtprime import __version__
from tmtprime.cli import main, report_error
from tmtprime.errors import InputError


def test_version_flag(capsys):
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert __version__ in capsys.readouterr().out


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage: tmtprime" in capsys.readouterr().err


def test_input_error_is_one_line_with_file_and_location(capsys):
    status = report_error(InputError("target language missing", file="a.tmx", location="line 3"))
    err = capsys.readouterr().err
    assert status == 1
    assert err == "tmtprime: error: a.tmx:line 3: target language missing\n"


def test_module_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "tmtprime", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("tmtprime ")


def _fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter (nothing imported yet)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_meteor_is_exported_lazily_from_the_package():
    assert _fresh_python(
        "import sys, tmtprime.meteor as m; assert 'tmtprime.meteor.scorer' not in sys.modules;"
        "from tmtprime.meteor import Meteor; assert 'tmtprime.meteor.scorer' in sys.modules;"
        "print(Meteor.__name__)"
    ) == "Meteor"


def test_building_the_parser_loads_neither_the_store_nor_numpy():
    """Every command pays for what the CLI modules import at their top (``--help`` and ``tmtprime meteor`` included):
    the store, the use cases, SQLAlchemy and numpy are imported by the handlers that need them (the one light
    workflows module the parser reads, the report's format names, imports none of them)."""
    assert _fresh_python(
        "import sys, tmtprime.cli as c; c.build_parser(c._command_modules());"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'numpy')"
        " or m.startswith(('tmtprime.store', 'tmtprime.workflows.', 'tmtprime.cost', 'tmtprime.formats'))"
        " and m != 'tmtprime.workflows.report_formats'))"
    ) == "[]"
