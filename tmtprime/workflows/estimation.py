"""Use case "estimate": what the job costs per plan (each system alone, the CAT rule, TMTprime's picks).

A scheme is a preset name (``matecat``, ``memoq``), a scheme file (TOML or
JSON) or the name of a scheme stored in the project; see :mod:`tmtprime.cost`.
"""

from __future__ import annotations

import os
from collections.abc import Collection

from tmtprime.cost import CostEstimate, CostScheme, estimate_costs, load_scheme
from tmtprime.progress import Reporter
from tmtprime.store import Store

DEFAULT_SCHEME = "matecat"


def estimate(
    store: Store,
    *,
    scheme: str | os.PathLike[str] | CostScheme = DEFAULT_SCHEME,
    document: str | None = None,
    systems: Collection[str] | None = None,
    model: str | None = None,
    reporter: Reporter | None = None,
) -> CostEstimate:
    """The cost of each plan (each system alone, the CAT rule, TMTprime's picks), estimated and, with references, actual.

    ``scheme``: a preset name, a scheme file, a scheme stored in the project, or a loaded :class:`~tmtprime.cost.CostScheme`.
    """
    if not isinstance(scheme, CostScheme):
        scheme = load_scheme(os.fspath(scheme), store=store)
    est = estimate_costs(
        store, scheme, document=document,
        systems=None if systems is None else list(systems), model=model, reporter=reporter,
    )
    # what recommend found unlike the model's training data goes into every report (its notes)
    card = next((m.card for m in store.models.list() if m.name == est.model), {})
    est.notes[:0] = [f"warning: {w}; its confidence may mean little here" for w in card.get("job_warnings", [])]
    return est
