"""The real application under a real X server for the "project stays whole" regression test.

Run as ``python tests/gui/whole_app.py PROJECT`` under ``xvfb-run`` (platform
``xcb``): opens the main window on PROJECT, plays the scenario of
:mod:`tests.gui.project_whole`, prints its findings as one JSON line, checks
that the window is still up, and quits.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.gui.project_whole import run_scenario  # noqa: E402
from tmtprime.gui.app import application  # noqa: E402
from tmtprime.gui.window import MainWindow  # noqa: E402


def main(project: Path) -> int:
    app = application()
    window = MainWindow()
    window.errors = []
    window.show_error = lambda _title, message: window.errors.append(message)
    window.show()
    assert window.open_project(str(project))
    result = run_scenario(window, project)
    result["alive"] = window.isVisible() and window.context.store is not None
    print(json.dumps(result), flush=True)
    window.close()
    app.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]).resolve()))
