"""TMTprime: per-segment recommendation of TM match vs. MT output, with cost estimates.

The package never imports Qt; the desktop application lives in ``gui/``.
Subpackages follow the data path of ``DESIGN.md``:
formats -> store -> tm -> features -> recommend -> cost, with ``meteor`` as a leaf.
"""

__version__ = "0.1.0"

from tmtprime.errors import TmtprimeError  # noqa: E402  (re-exported for callers)

__all__ = ["__version__", "TmtprimeError"]
