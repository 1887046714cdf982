"""What a project lacks before it can train a model, said in words for the window (no command-line flags).

The checks mirror those of :func:`tmtprime.workflows.training.train` (which
raises for the command line); the window asks first, so it can explain the
missing data next to a disabled Train button instead of failing afterwards.
"""

from __future__ import annotations

from itertools import islice

from tmtprime.store import Store

WHAT_TRAINING_NEEDS = (
    "Training needs development data: segments whose correct translation (a reference) is known, "
    "each with the candidates of the systems you use (TM matches, MT outputs). Import such a file "
    "with Import files… as “Dev data (with references)”."
)
SCAN = 20_000
"""Dev segments looked at for candidates and references (enough to tell; a dev set is rarely larger)."""


def training_data_problem(store: Store) -> str | None:
    """Why the project cannot train yet (None when its dev data will do)."""
    if store.segments.count(role="dev") == 0:
        return f"This project has no development data. {WHAT_TRAINING_NEEDS}"
    segments = list(islice(store.segments.iter(role="dev"), SCAN))
    usable = [s for s in segments if s.candidates]
    if not usable:
        return (f"The development segments have no candidates to learn from. {WHAT_TRAINING_NEEDS} "
                "In a table file, say which columns hold the TM match and the MT outputs.")  # fmt: skip
    missing = sum(1 for s in usable if not s.reference)
    if missing:
        return (f"{missing} development segments have no reference translation, so their candidates cannot be "
                f"scored. {WHAT_TRAINING_NEEDS}")  # fmt: skip
    return None
