"""Importing a file into a project: one transaction, idempotent, streaming.

A file is read by :mod:`tmtprime.formats` (which streams units and raises
``FormatError`` naming the line or unit that is wrong, possibly after many good
units) and written with bulk Core inserts in pages, inside ONE write
transaction. So a bad file, a language mismatch, Ctrl-C or a killed process
leaves the store exactly as it was, and a 1,000,000-unit TMX streams in with
bounded memory. The SHA-256 of the file's bytes makes re-importing the same
file in the same role a no-op ("already imported"); a file with other content
from the path of an imported document is that document's newer version and
takes its place, keeping the picks of unchanged segments (:mod:`~tmtprime.store.versions`).

Roles: ``tm`` files become ``tm_units``; ``dev`` files (segments with a
reference and candidates, to train and evaluate the recommender) and
``document`` files (work to translate) become ``segments`` and ``candidates``.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Row, insert, select, update

from tmtprime.errors import InputError, LanguageMismatch, StoreError
from tmtprime.parallel import batched
from tmtprime.progress import Reporter, silent
from tmtprime.store import schema as db
from tmtprime.store.bulk import allocate_ids, insert_records, insert_rows
from tmtprime.store.documents import document_record
from tmtprime.store.database import bulk_cache
from tmtprime.store.languages import languages_match, stated_language
from tmtprime.store.post_edits import insert_post_edits
from tmtprime.store.records import DocumentRecord, NewCandidate, ProjectRecord
from tmtprime.store.segments import insert_candidates
from tmtprime.store.tm import lookup_keys
from tmtprime.store.versions import VersionOutcome, fold_into, older_version

if TYPE_CHECKING:
    from tmtprime.formats import ColumnMapping
    from tmtprime.formats.model import DocumentInfo, Segment, TMUnit
    from tmtprime.store.project import Store

BATCH = 5000
"""Units per bulk insert: large enough to amortise round trips, small enough for flat memory."""

_DOC = db.DocumentRow.__table__
_SEG = db.SegmentRow.__table__
_TM = db.TMUnitRow.__table__
_FILE = db.DocumentFileRow.__table__
_CAND = db.CandidateRow.__table__
_SYS = db.SystemRow.__table__


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import did. ``already`` means the same file was imported before: nothing changed."""

    document: DocumentRecord
    already: bool = False
    units: int = 0
    """Segments or TM units stored."""
    candidates: int = 0
    post_edits: int = 0
    """Post-editing records stored (one per editor and candidate)."""
    merged: int = 0
    """Rows that repeated a segment already read (another editor's post-edits of it)."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Units left out on purpose, by reason (an empty source or target, an obsolete PO entry...):
    a user must see what did not reach the store, not find out later."""
    first_skipped: dict[str, str] = field(default_factory=dict)
    """Where the first unit of each reason is, when the reader knows (``"line 12"``)."""
    systems: tuple[str, ...] = field(default_factory=tuple)
    warnings: tuple[str, ...] = ()
    """What the user should know although the import went through (an empty TM, say)."""
    role_reason: str | None = None
    """Why the file got its role when none was given (:func:`infer_role`)."""
    version: VersionOutcome | None = None
    """Set when the file was a newer version of a document imported from the same path
    (:mod:`~tmtprime.store.versions`): what was kept, added and removed."""

    def render(self) -> str:
        """One line for the CLI."""
        doc = self.document
        if self.already:
            return f"{doc.path}: already imported as {doc.role} {doc.name!r} ({doc.unit_count} units); nothing to do"
        what = "TM units" if doc.role == "tm" else "segments"
        parts = [f"imported {doc.name!r} as {doc.role}: {self.units} {what}"]
        if self.version is not None:
            v = self.version
            parts[0] = (f"updated {doc.name!r} to the new version of the file: {v.kept} segments kept "
                        f"(with their picks), {v.added} new, {v.removed} removed")
        if self.candidates:
            parts.append(f"{self.candidates} candidates from {', '.join(self.systems)}")
        if self.post_edits:
            again = f", {self.merged} rows were further editors of a segment before" if self.merged else ""
            parts.append(f"{self.post_edits} post-editing records{again}")
        if self.skipped:
            reasons = "; ".join(
                f"{reason}: {n}" + (f", first at {self.first_skipped[reason]}" if reason in self.first_skipped else "")
                for reason, n in sorted(self.skipped.items())
            )
            parts.append(f"{sum(self.skipped.values())} units skipped ({reasons})")
        return "; ".join(parts)


def content_hash(path: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) of the file's bytes, the identity of an import."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", file=path) from None
    return digest.hexdigest()


def import_file(
    store: Store,
    path: str | os.PathLike[str],
    *,
    role: str,
    fmt: str | None = None,
    mapping: ColumnMapping | None = None,
    name: str | None = None,
    target_file: str | os.PathLike[str] | None = None,
    reporter: Reporter | None = None,
) -> ImportResult:
    """Import ``path`` into ``store`` as ``role`` (``tm``, ``dev`` or ``document``).

    ``fmt`` overrides format detection; ``mapping`` is a
    :class:`tmtprime.formats.ColumnMapping` for CSV/TSV. ``reporter`` receives
    the progress; a cancel of it (or an error raised from it) cancels the
    import (nothing is kept). ``target_file`` is the line-aligned translation of parallel plain text
    (TM target, or reference of dev data); it is part of the import's identity.
    Raises ``InputError``/``FormatError`` naming the file and unit for bad
    content, ``StoreError`` when the project refuses the change.
    """
    if role not in db.ROLES:
        raise StoreError(f"unknown role {role!r} (expected one of: {', '.join(db.ROLES)})")
    file = Path(path)
    if not file.is_file():
        raise InputError("file not found" if not file.exists() else "not a regular file", file=file)
    digest = content_hash(file)
    if target_file is not None:
        digest = hashlib.sha256(f"{digest}+{content_hash(target_file)}".encode()).hexdigest()
    previous = store.documents.find(digest, role)
    if previous is not None:
        return ImportResult(document=previous, already=True)

    from tmtprime import formats

    project = store.project()
    reader = formats.read_tm if role == "tm" else formats.read_document
    try:
        info, units = reader(
            file,
            fmt=fmt,
            mapping=mapping,
            source_lang=project.source_lang,
            target_lang=project.target_lang,
            target_file=target_file,
        )
        _check_languages(info, project, file)
        counted = silent(reporter).track(units, desc=f"importing {file.name}", unit=" units")
        with store.connection(write=True) as conn:
            if (again := _find(conn, digest, role)) is not None:  # imported meanwhile by another process
                return ImportResult(document=again, already=True)
            doc_id = _insert_document(conn, file, role, info, digest, name)
            writer = _TMWriter(conn, doc_id) if role == "tm" else _SegmentWriter(conn, doc_id, _merge_mode(mapping))
            with bulk_cache(conn):
                for chunk in batched(counted, BATCH):
                    writer.write(chunk)
            _check_languages(info, project, file)  # readers may learn languages while streaming
            warnings = _check_complete(writer, role, file, info)
            older = older_version(conn, str(file.resolve()), role, doc_id) if role != "tm" and name is None else None
            if role != "tm" and info.format in formats.ORIGINAL_FORMATS:
                _keep_file(conn, doc_id, file)
            skips = _skips(info, writer.skipped)
            conn.execute(
                update(_DOC)
                .where(_DOC.c.id == doc_id)
                .values(
                    unit_count=writer.units,
                    format=info.format,
                    source_lang=info.source_lang,
                    target_lang=info.target_lang,
                    details=_details(info, mapping, skips),
                )
            )
            version = None if older is None else fold_into(conn, older, doc_id)
            if version is not None:
                doc_id = older
                warnings += tuple(version.warnings(store.location))
            record = document_record(_load_document(conn, doc_id))
            if reporter is not None:
                reporter.check()  # a cancel after the last unit still rolls the whole file back
    except LanguageMismatch as error:
        side = "target" if languages_match(error.wanted, project.target_lang) else "source"
        raise LanguageMismatch(error.found, error.wanted, wanted_is=f"is the project's {side} language",
                               file=error.file or file, location=error.location) from None
    except InputError as error:
        if error.file is None:
            raise type(error)(error.reason, file=file, location=error.location) from None
        raise
    return ImportResult(
        document=record,
        units=writer.units,
        candidates=writer.candidates,
        post_edits=writer.post_edits,
        merged=writer.merged,
        skipped=skips,
        first_skipped=dict(info.first_skipped),
        systems=tuple(writer.systems),
        warnings=warnings,
        version=version,
    )


def infer_role(path: str | os.PathLike[str], fmt: str | None = None) -> tuple[str, str]:
    """The role a file most likely has when none is given, and why: a TMX is a translation memory.

    Only what is unambiguous is inferred; every other file is a ``document``.
    """
    from tmtprime import formats

    detected = formats.detect_format(os.fspath(path)) if fmt is None else fmt
    if detected == "tmx":
        return "tm", "a TMX file is a translation memory"
    return "document", "the default for a file that is not a TMX"


def _check_languages(info: DocumentInfo, project: ProjectRecord, file: Path) -> None:
    """A file stating other languages than the project's is refused (region variants pass)."""
    source, target = stated_language(info.source_lang), stated_language(info.target_lang)
    for side, found, wanted in (("source", source, project.source_lang), ("target", target, project.target_lang)):
        if found is None or languages_match(found, wanted):
            continue
        flipped = (
            source is not None
            and target is not None
            and languages_match(source, project.target_lang)
            and languages_match(target, project.source_lang)
        )
        hint = " (the file goes the other way round)" if flipped else ""
        raise InputError(
            f"{side} language is {found!r} but the project is {project.source_lang}->{project.target_lang}{hint}",
            file=file,
        )


def _check_complete(writer: _TMWriter | _SegmentWriter, role: str, file: Path, info: DocumentInfo) -> tuple[str, ...]:
    """Refuse a file that gave nothing usable; the warnings of one that is accepted as it is.

    A well-formed TMX without units (CafeTran writes one for a new project TM)
    is a TM of 0 units, as CAT tools import it; every other empty file is
    more likely a format or column mistake.
    """
    if writer.units == 0 and role == "tm" and info.format == "tmx" and not writer.skipped and not info.skipped:
        return ("the TMX holds no translation units: imported as an empty TM",)
    if writer.units == 0:
        what = "translation units with a source and a target" if role == "tm" else "segments"
        raise InputError(f"no {what} found; check the format (--format) and column options", file=file)
    if role == "dev" and isinstance(writer, _SegmentWriter) and writer.references == 0 and writer.post_edits == 0:
        raise InputError(
            "dev data needs reference translations or post-editing data and this file has none "
            "(for CSV/TSV give --reference-col or --post-edit-col/--pe-time-col/--effort-col; or import it --as document)",
            file=file,
        )
    return ()


def _find(conn: Connection, digest: str, role: str) -> DocumentRecord | None:
    row = conn.execute(select(_DOC.c.id).where(_DOC.c.content_hash == digest, _DOC.c.role == role)).scalar()
    return None if row is None else document_record(_load_document(conn, row))


def _load_document(conn: Connection, doc_id: int) -> Row[Any]:
    return conn.execute(select(_DOC).where(_DOC.c.id == doc_id)).one()


def _unique_name(conn: Connection, wanted: str) -> str:
    taken = set(conn.execute(select(_DOC.c.name).where(_DOC.c.name.like(f"{wanted}%"))).scalars())
    name, n = wanted, 1
    while name in taken:
        n += 1
        name = f"{wanted}#{n}"
    return name


def _skips(info: DocumentInfo, skipped: int) -> dict[str, int]:
    """Units left out, by reason: the reader's own and the store's (no source or no target)."""
    skips = dict(info.skipped)
    if skipped:
        skips["no source or target"] = skips.get("no source or target", 0) + skipped
    return skips


def _details(info: DocumentInfo, mapping: ColumnMapping | None, skips: dict[str, int]) -> dict[str, Any] | None:
    """What to remember about how the file was read (see ``Document.details``)."""
    details: dict[str, Any] = {}
    if mapping is not None:
        details["mapping"] = asdict(mapping)
    if info.tool:
        details["tool"] = info.tool
    if info.properties:
        details["properties"] = dict(info.properties)
    if skips:
        details["skipped"] = skips
    return details or None


def _keep_file(conn: Connection, doc_id: int, file: Path) -> None:
    """Store the file's bytes (see ``DocumentFile``) for ``export --format original``."""
    from tmtprime.formats.sources import open_binary

    with open_binary(file) as f:
        data = f.read()
    conn.execute(insert(_FILE).values(document_id=doc_id, content=zlib.compress(data, 6), size=len(data)))


def _insert_document(conn: Connection, file: Path, role: str, info: DocumentInfo, digest: str, name: str | None) -> int:
    result = conn.execute(
        insert(_DOC).values(
            name=_unique_name(conn, name or file.name),
            role=role,
            format=info.format,
            content_hash=digest,
            path=str(file.resolve()),
            original=info.original,
            source_lang=info.source_lang,
            target_lang=info.target_lang,
            unit_count=0,
            imported_at=db.utcnow(),
        )
    )
    return int(result.inserted_primary_key[0])


def _nul_free(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" not in value
    if isinstance(value, dict):
        return all(_nul_free(k) and _nul_free(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_nul_free(v) for v in value)
    return True


def check_text(values: object, location: str | None) -> None:
    """Refuse a NUL character anywhere in a unit's text: PostgreSQL cannot store one, so no backend takes it.

    Readers pass NUL through (a JSON ``\\u0000``, a byte in a TSV); refusing it
    here keeps an SQLite project and a PostgreSQL one holding the same data.
    """
    if not _nul_free(values):
        raise InputError("a NUL character (\\x00) in the text: remove it (is the file binary or damaged?)",
                         location=location)


def _merge_mode(mapping: ColumnMapping | None) -> str | None:
    """How rows of one segment by several editors are recognised: by key (when the table names
    a key column) and content, or by content alone; None: every row is a segment of its own."""
    if mapping is None or not mapping.has_post_edits:
        return None
    return "key" if mapping.key else "content"


class _TMWriter:
    """Bulk-inserts TM units of one document, numbering them in file order."""

    COLUMNS = (
        "document_id",
        "position",
        "source",
        "target",
        "source_hash",
        "source_words",
        "properties",
        "tags",
        "tags_dialect",
    )

    def __init__(self, conn: Connection, doc_id: int) -> None:
        self.conn, self.doc_id = conn, doc_id
        self.units = self.skipped = self.candidates = self.post_edits = self.merged = 0
        self.systems: list[str] = []

    def write(self, chunk: list[TMUnit]) -> None:
        records = []
        position = self.units
        for unit in chunk:
            if not unit.source.strip() or not unit.target.strip():
                self.skipped += 1
                continue
            check_text((unit.source, unit.target, unit.properties, unit.tags), unit.location)
            hashed, words = lookup_keys(unit.source)
            records.append(
                (
                    self.doc_id,
                    position,
                    unit.source,
                    unit.target,
                    hashed,
                    words,
                    unit.properties or None,
                    unit.tags or None,
                    unit.tags_dialect,
                )
            )
            position += 1
        insert_records(self.conn, _TM, self.COLUMNS, records)
        self.units = position


class _SegmentWriter:
    """Bulk-inserts segments (ids returned in order), their candidates, then their post-edits.

    With a ``merge`` mode (tables with post-editing columns), a row repeating a segment
    already read (same key and/or source and candidates) adds its post-edits to that
    segment's candidates instead of making a new segment: several editors, one segment.
    """

    def __init__(self, conn: Connection, doc_id: int, merge: str | None = None) -> None:
        self.conn, self.doc_id, self.merge = conn, doc_id, merge
        self.units = self.skipped = self.candidates = self.references = self.post_edits = self.merged = 0
        self.systems: list[str] = []
        self._seen: dict[tuple, int] = {}

    def _identity(self, seg: Segment) -> tuple:
        texts = tuple((c.system, c.text) for c in seg.candidates)
        return (seg.key if self.merge == "key" else None, seg.source, seg.context, texts)

    def write(self, chunk: list[Segment]) -> None:
        for seg in chunk:
            check_text((seg.source, seg.reference, seg.context, seg.notes, seg.attributes, seg.tags,
                        [(c.text, c.tm_source, c.attributes, [p.text for p in c.post_edits]) for c in seg.candidates]),
                       seg.location)
        repeats: list[Segment] = []
        if self.merge:
            fresh, firsts = [], set()
            for seg in chunk:
                ident = self._identity(seg)
                if ident in self._seen or ident in firsts:
                    repeats.append(seg)
                else:
                    firsts.add(ident)
                    fresh.append(seg)
            chunk = fresh
        ids = self._insert(chunk) if chunk else []
        if self.merge:
            self._seen.update((self._identity(seg), sid) for seg, sid in zip(chunk, ids, strict=True))
            self.merged += len(repeats)
            owners = [*zip(ids, chunk), *((self._seen[self._identity(seg)], seg) for seg in repeats)]
            self._write_post_edits(owners)
        else:  # post-edits a file carries by itself (a reviewed XLIFF: the final target of an MT candidate)
            self._write_post_edits(list(zip(ids, chunk)))

    def _write_post_edits(self, owners: list[tuple[int, Segment]]) -> None:
        """Each post-edit goes to its segment's stored candidate of the same system (rank 0)."""
        owners = [(sid, seg) for sid, seg in owners if any(c.post_edits for c in seg.candidates)]
        if not owners:
            return
        stored: dict[tuple[int, str], int] = {}
        for chunk in batched(sorted({sid for sid, _ in owners}), 900):
            for r in self.conn.execute(
                select(_CAND.c.id, _CAND.c.segment_id, _SYS.c.name)
                .join(_SYS, _SYS.c.id == _CAND.c.system_id)
                .where(_CAND.c.segment_id.in_(chunk), _CAND.c.rank == 0)
            ):
                stored[(r.segment_id, r.name)] = r.id
        self.post_edits += insert_post_edits(
            self.conn,
            ((stored[(sid, c.system)], p) for sid, seg in owners for c in seg.candidates for p in c.post_edits
             if (sid, c.system) in stored),
        )

    def _insert(self, chunk: list[Segment]) -> list[int]:
        rows = [
            {
                "document_id": self.doc_id,
                "position": self.units + i,
                "key": seg.key,
                "source": seg.source,
                "context": seg.context or None,
                "reference": seg.reference,
                "attributes": seg.attributes or None,
                "tags": seg.tags or None,
                "tags_dialect": seg.tags_dialect,
                "notes": seg.notes or None,
            }
            for i, seg in enumerate(chunk)
        ]
        ids = allocate_ids(self.conn, _SEG, len(rows))
        if ids is None:
            returning = insert(_SEG).returning(_SEG.c.id, sort_by_parameter_order=True)
            ids = self.conn.execute(returning, rows).scalars().all()
        else:
            for row, segment_id in zip(rows, ids, strict=True):
                row["id"] = segment_id
            insert_rows(self.conn, _SEG, rows)
        self.units += len(rows)
        self.references += sum(1 for seg in chunk if seg.reference)
        candidates = list(_new_candidates(zip(ids, chunk, strict=True)))
        self.candidates += insert_candidates(self.conn, candidates)
        for c in candidates:
            if c.system not in self.systems:
                self.systems.append(c.system)
        return list(ids)


def _new_candidates(pairs: Iterable[tuple[int, Segment]]) -> Iterator[NewCandidate]:
    """The candidates of imported segments; repeats of a system get ranks 0, 1, 2...

    An empty TM match means "no match" and is left out.
    """
    for segment_id, seg in pairs:
        ranks: dict[str, int] = {}
        for cand in seg.candidates:
            if cand.kind == "tm" and not cand.text.strip():
                continue
            rank = ranks.get(cand.system, 0)
            ranks[cand.system] = rank + 1
            yield NewCandidate(
                segment_id=segment_id,
                system=cand.system,
                kind=cand.kind,
                text=cand.text,
                rank=rank,
                tm_source=cand.tm_source,
                fuzzy=cand.fuzzy,
                origin=cand.origin,
                attributes=cand.attributes,
            )
