"""Where TMTprime finds its shipped resources and models, and where it caches.

In a wheel, ``resources/`` and ``models/`` are installed inside the package as
``tmtprime/_resources`` and ``tmtprime/_models``; in a source checkout (or an
editable install) they are the top-level directories of the repository. Both
layouts are looked up so the same code works in either.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from tmtprime.errors import ResourceError

_PACKAGE_DIR = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path | None:
    return next((c for c in candidates if c.is_dir()), None)


@cache
def resources_dir() -> Path:
    """The directory of shipped language resources (function words, synonyms, samples...)."""
    found = _first_existing(_PACKAGE_DIR / "_resources", _PACKAGE_DIR.parent / "resources")
    if found is None:
        raise ResourceError(
            "TMTprime's resources directory is missing; reinstall the package (pip install tmtprime)"
        )
    return found


@cache
def models_dir() -> Path:
    """The directory of recommender models shipped with the product."""
    found = _first_existing(_PACKAGE_DIR / "_models", _PACKAGE_DIR.parent / "models")
    if found is None:
        raise ResourceError("TMTprime's models directory is missing; reinstall the package")
    return found


def resource_path(*parts: str) -> Path:
    """Path of a shipped resource file; a clear error if it is not there."""
    path = resources_dir().joinpath(*parts)
    if not path.exists():
        raise ResourceError(f"resource not found: {path}")
    return path


def cache_dir() -> Path:
    """Per-user cache (compiled paraphrase indexes and the like), created on demand.

    ``TMTPRIME_CACHE_DIR`` overrides it; otherwise ``$XDG_CACHE_HOME/tmtprime``
    or ``~/.cache/tmtprime``.
    """
    env = os.environ.get("TMTPRIME_CACHE_DIR")
    if env:
        path = Path(env)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        path = Path(base) / "tmtprime"
    path.mkdir(parents=True, exist_ok=True)
    return path
