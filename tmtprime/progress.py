"""Progress reporting for long CLI commands, silenced by ``-q``.

One helper so that every command reports progress the same way (tqdm on
stderr) and GUI callers can pass their own callback instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

ProgressCallback = Callable[[int, int | None], None]
"""``callback(done, total)``; ``total`` is None when unknown."""


def track(
    items: Iterable[T],
    *,
    total: int | None = None,
    desc: str = "",
    quiet: bool = False,
    unit: str = "it",
    callback: ProgressCallback | None = None,
) -> Iterator[T]:
    """Yield ``items`` while showing progress (tqdm) or calling ``callback``."""
    if callback is not None:
        done = 0
        for item in items:
            yield item
            done += 1
            callback(done, total)
        return
    if quiet:
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, total=total, desc=desc, unit=unit, leave=False, dynamic_ncols=True)
