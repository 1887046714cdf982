"""Corpora: language resources a project holds beside its TM, for features (language models, lexicons).

A monolingual corpus is target-language text, one sentence per line; a
parallel corpus is anything a TM can be read from (TMX, CSV/TSV with a column
mapping, parallel plain text). Imports are one transaction and idempotent by
the file's content hash, as documents are. Features read them through
:meth:`Corpora.targets` and :meth:`Corpora.pairs` (or the workflows'
:func:`~tmtprime.workflows.project_data.resource_pairs`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import insert, select, update

from tmtprime.errors import InputError
from tmtprime.parallel import batched
from tmtprime.progress import Reporter
from tmtprime.store import schema as db
from tmtprime.store.importer import check_text, content_hash

if TYPE_CHECKING:
    from tmtprime.formats import ColumnMapping
    from tmtprime.store.project import Store

_CORPUS = db.CorpusRow.__table__
_LINES = db.CorpusLineRow.__table__
_BATCH = 5000


@dataclass(frozen=True, slots=True)
class CorpusRecord:
    """An imported corpus: its name, whether it is parallel, and how many lines it holds."""

    id: int
    name: str
    parallel: bool
    lines: int
    already: bool = False

    def render(self) -> str:
        kind = "parallel corpus" if self.parallel else "monolingual corpus"
        if self.already:
            return f"already imported as {kind} {self.name!r} ({self.lines} lines); nothing to do"
        return f"imported {self.name!r} as {kind}: {self.lines} {'pairs' if self.parallel else 'sentences'}"


class Corpora:
    """The project's corpora."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def list(self) -> list[CorpusRecord]:
        with self._store.connection() as conn:
            return [CorpusRecord(r.id, r.name, bool(r.parallel), r.lines) for r in conn.execute(select(_CORPUS).order_by(_CORPUS.c.id))]

    def import_file(self, path: str | os.PathLike[str], *, fmt: str | None = None, mapping: ColumnMapping | None = None,
                    target_file: str | os.PathLike[str] | None = None, reporter: Reporter | None = None) -> CorpusRecord:
        """Import a corpus: plain text without ``target_file`` is monolingual (target language), anything else parallel."""
        from tmtprime import formats

        reporter = reporter or Reporter()
        file = Path(path)
        if not file.is_file():
            raise InputError("file not found", file=file)
        digest = content_hash(file)
        with self._store.connection() as conn:
            found = conn.execute(select(_CORPUS).where(_CORPUS.c.content_hash == digest)).first()
        if found is not None:
            return CorpusRecord(found.id, found.name, bool(found.parallel), found.lines, already=True)
        detected = fmt or formats.detect_format(os.fspath(file))
        parallel = not (detected == "text" and target_file is None)
        project = self._store.project()
        lines = self._parallel(file, fmt, mapping, target_file, project) if parallel else self._monolingual(file)
        try:
            with self._store.connection(write=True) as conn:
                corpus_id = conn.execute(insert(_CORPUS).values(
                    name=file.name, parallel=parallel, content_hash=digest, path=str(file.resolve()), lines=0,
                    imported_at=db.utcnow())).inserted_primary_key[0]
                count = 0
                for chunk in batched(reporter.track(lines, desc=f"importing {file.name}", unit=" lines"), _BATCH):
                    conn.execute(insert(_LINES), [{"corpus_id": corpus_id, "source": s, "target": t} for s, t in chunk])
                    count += len(chunk)
                    reporter.check()
                if count == 0:
                    raise InputError("no sentences found", file=file)
                conn.execute(update(_CORPUS).where(_CORPUS.c.id == corpus_id).values(lines=count))
        except InputError as error:
            raise type(error)(error.reason, file=error.file or file, location=error.location) from None
        return CorpusRecord(int(corpus_id), file.name, parallel, count)

    @staticmethod
    def _monolingual(file: Path) -> Iterator[tuple[None, str]]:
        from tmtprime.formats.sources import iter_text_lines

        _, lines = iter_text_lines(file)
        for n, line in lines:
            text = line.strip()
            if text:
                check_text(text, f"line {n}")
                yield None, text

    @staticmethod
    def _parallel(file, fmt, mapping, target_file, project) -> Iterator[tuple[str, str]]:
        from tmtprime import formats

        _info, units = formats.read_tm(file, fmt=fmt, mapping=mapping, source_lang=project.source_lang,
                                       target_lang=project.target_lang, target_file=target_file)
        for unit in units:
            check_text((unit.source, unit.target), unit.location)
            yield unit.source, unit.target

    def targets(self) -> Iterator[str]:
        """Every target-language sentence of every corpus (monolingual and parallel), in import order."""
        for _source, target in self._lines(parallel_only=False):
            yield target

    def pairs(self) -> Iterator[tuple[str, str]]:
        """The (source, target) pairs of the parallel corpora, in import order."""
        for source, target in self._lines(parallel_only=True):
            yield source or "", target

    def _lines(self, *, parallel_only: bool) -> Iterator[tuple[str | None, str]]:
        after = 0
        query = select(_LINES.c.id, _LINES.c.source, _LINES.c.target).join(_CORPUS, _CORPUS.c.id == _LINES.c.corpus_id)
        if parallel_only:
            query = query.where(_CORPUS.c.parallel.is_(True))
        while True:
            with self._store.connection() as conn:
                rows = conn.execute(query.where(_LINES.c.id > after).order_by(_LINES.c.id).limit(_BATCH)).all()
            if not rows:
                return
            yield from ((r.source, r.target) for r in rows)
            after = rows[-1].id
