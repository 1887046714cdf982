"""``tmtprime.gui`` in a source checkout or an editable install: the application lives in ``gui/``.

The desktop application is the repository's top-level ``gui/`` folder; a
wheel installs that folder as ``tmtprime/gui`` (``force-include`` in
pyproject.toml, which leaves this file out). Here, where the package is
imported from the source tree, this stand-in points the package's path at
``gui/`` and runs its ``__init__``, so ``import tmtprime.gui`` behaves the
same. It imports no Qt: the core package stays free of it.
"""

from pathlib import Path as _Path

__path__ = [str(_Path(__file__).resolve().parents[2] / "gui")]
_init = _Path(__path__[0]) / "__init__.py"
exec(compile(_init.read_text(encoding="utf-8"), str(_init), "exec"))  # noqa: S102 - the real package body
