"""Pretranslation in the file's own format: the picks filled into the targets of the imported file.

A translator works in a CAT tool, so the best hand-back is the very file the
tool gave: same skeleton, ids, notes and inline codes, with the recommended
candidate waiting in each target. :func:`fill_document` takes the file's bytes
(kept by the store at import) and the segments to fill (keyed like the
reader keys them), and writes the file back with only the targets, and the
dialect's own status/origin fields, changed:

* PO (:mod:`.po`): ``msgstr`` filled, ``#, fuzzy`` below the confidence threshold
  and where the pick breaks a printf format of the source.
* XLIFF 1.2 (:mod:`.xliff12`): ``<target>`` (or its ``<mrk mtype="seg">``) filled;
  generic files get ``state``/``state-qualifier`` and ``tmt:`` attributes,
  Trados ``sdl:seg`` its ``conf``/``origin``/``percent``, memoQ ``mq:status``/``mq:percent``
  (an ``mq:insertedmatch`` for MT), Phrase ``m:trans-origin``/``m:score``.
* XLIFF 2.x (:mod:`.xliff2`): each ``<segment>``'s ``<target>`` filled, ``state="initial"``
  and ``subState`` naming the kind.
* TMX (:mod:`.tmx`): the target-language ``<tuv>`` of each unit.

Everything outside those spans is copied byte for byte. What a format has no
place for is listed in ``FillReport.not_kept``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import IO

from tmtprime.errors import FormatError

from ..model import Segment

ORIGINAL_FORMATS = ("po", "xliff12", "sdlxliff", "mqxliff", "mxliff", "xliff2", "tmx")
"""Formats an imported document can be written back in (``export --format original``)."""

_MODULES = {"po": "po", "xliff12": "xliff12", "sdlxliff": "xliff12", "mqxliff": "xliff12", "mxliff": "xliff12",
            "xliff2": "xliff2", "tmx": "tmx"}


@dataclass(slots=True)
class FillOptions:
    """How to fill: the source/target languages and the PO fuzzy threshold."""

    source_lang: str | None = None
    target_lang: str | None = None
    fuzzy_below: float | None = None
    """PO: a pick whose confidence is below this (or unknown) is marked ``#, fuzzy``;
    ``None`` marks every pick fuzzy (an unreviewed pretranslation, as msgmerge marks its guesses)."""


@dataclass(slots=True)
class FillReport:
    """What a fill did, for the user."""

    filled: int = 0
    marked_fuzzy: int = 0
    """PO entries written with ``#, fuzzy``."""
    format_breaks: int = 0
    """Picks that break a printf format of their source (marked fuzzy so ``msgfmt --check`` passes)."""
    not_found: list[str] = field(default_factory=list)
    """Keys of segments to fill that the file no longer has (should not happen)."""
    not_kept: list[str] = field(default_factory=list)
    """What the format has no place for (``confidence: sdlxliff has no field for it``)."""


def fill_document(fmt: str, data: bytes, segments: Mapping[str, Segment], out: IO[bytes], options: FillOptions,
                  *, file: str = "") -> FillReport:
    """Write ``data`` (a ``fmt`` file) to ``out`` with each segment of ``segments`` (by key) filled with its pick."""
    if fmt not in _MODULES:
        raise FormatError(f"cannot write {fmt} files back in their own format "
                          f"(possible: {', '.join(ORIGINAL_FORMATS)})", file=file)
    report = FillReport()
    module = import_module(f"{__name__}.{_MODULES[fmt]}")
    out.write(module.fill(fmt, data, segments, options, report, file))
    return report
