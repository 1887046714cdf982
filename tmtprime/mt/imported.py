"""The ``file`` engine: MT output someone already produced, read from a file.

Importing a file with MT columns/alt-trans already stores MT candidates; this
engine serves the other case — a file of translations of *some other* file's
segments (a vendor's MT run delivered as TSV, XLIFF or parallel text), matched
to the project's segments by source text. Any format the readers know works:
the MT candidates of the named system, or the target/reference of each unit.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from tmtprime.errors import InputError, UsageError
from tmtprime.mt.engine import MTEngine
from tmtprime.progress import Reporter, silent


class ImportedEngine(MTEngine):
    """Looks translations up by source text in ``outputs`` or in a file.

    ``path`` (with optional ``fmt``/``mapping``/``output``): read through
    :func:`tmtprime.formats.api.read_document`; the translation of a unit is
    its MT candidate of system ``output`` (or its only MT system), else its
    target/reference. ``outputs``: a ready source -> translation mapping.
    A segment with no translation is an :class:`~tmtprime.errors.InputError`
    naming the file and the segment, unless ``missing="skip"`` (it gets "").
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        outputs: Mapping[str, str] | None = None,
        output: str | None = None,
        fmt: str | None = None,
        mapping: object | None = None,
        name: str | None = None,
        missing: str = "error",
        source_lang: str | None = None,
        target_lang: str | None = None,
    ) -> None:
        if (path is None) == (outputs is None):
            raise UsageError("the file engine needs either a file (path) or an outputs mapping, not both")
        if missing not in ("error", "skip"):
            raise UsageError(f"missing= must be 'error' or 'skip', not {missing!r}")
        self.path = None if path is None else os.fspath(path)
        self.output = output
        self.fmt = fmt
        self.mapping = mapping
        self.missing = missing
        self.source_lang = source_lang
        self.target_lang = target_lang
        self._outputs: dict[str, str] | None = None if outputs is None else dict(outputs)
        self.name = name or output or (os.path.splitext(os.path.basename(self.path))[0] if self.path else "imported")

    def check(self) -> None:
        self._table()

    def describe(self) -> str:
        return f"file {self.path}" + (f" ({self.output})" if self.output else "") if self.path else "imported outputs"

    def _table(self) -> dict[str, str]:
        if self._outputs is None:
            self._outputs = self._read()
        return self._outputs

    def _read(self) -> dict[str, str]:
        from tmtprime.formats.api import read_document

        assert self.path is not None
        _info, segments = read_document(
            self.path, fmt=self.fmt, mapping=self.mapping, source_lang=self.source_lang, target_lang=self.target_lang  # type: ignore[arg-type]
        )
        table: dict[str, str] = {}
        systems_seen: set[str] = set()
        for seg in segments:
            mt = {c.system: c.text for c in seg.candidates if c.kind == "mt"}
            systems_seen |= mt.keys()
            if self.output is not None:
                text = mt.get(self.output)
            elif len(mt) == 1:
                text = next(iter(mt.values()))
            elif mt:
                raise InputError(
                    f"the file has several MT systems ({', '.join(sorted(mt))}): choose one with output=NAME",
                    file=self.path, location=seg.location,
                )
            else:
                text = seg.reference
            if text is not None:
                table.setdefault(seg.source, text)
        if self.output is not None and self.output not in systems_seen:
            known = ", ".join(sorted(systems_seen)) or "none"
            raise InputError(f"no MT output named {self.output!r} in the file (MT systems in it: {known})", file=self.path)
        return table

    def translate(
        self,
        segments: Sequence[str],
        *,
        reporter: Reporter | None = None,
    ) -> list[str]:
        table = self._table()
        reporter = silent(reporter)
        out: list[str] = []
        for i, source in enumerate(segments):
            reporter.check()
            text = table.get(source)
            if text is None:
                if self.missing == "error":
                    raise InputError(
                        f"no translation for segment {i + 1} ({source[:60]!r}); "
                        f"{len(table)} sources have one (missing='skip' leaves such segments empty)",
                        file=self.path or "outputs",
                    )
                text = ""
            out.append(text)
            reporter.progress(i + 1, len(segments))
        return out
