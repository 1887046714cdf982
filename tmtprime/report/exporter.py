"""Exporting a project: the picks table (CSV), everything (JSON), XLIFF for translators, TMX.

* ``csv`` — one row per segment, documents in import order and segments in
  file order: ``document, index`` (1-based position in the file), ``key,
  doc_id, seg_id, context, source``, then the pick: ``system, kind,
  confidence, text`` of the recommended candidate (the user's override when
  there is one), and ``fuzzy``, the best TM match score of the segment. A
  segment without a recommendation has those pick columns empty: nothing is
  guessed, and no confidence is ever invented.
* ``json`` — the same segments with every candidate, its predicted
  probability/TER, and the recommendation.
* ``xliff`` (1.2) / ``xliff2`` — the pick as target and every candidate as an
  alternative carrying its confidence and origin (written by
  :mod:`tmtprime.formats`); one file per document.
* ``tmx`` — the translation memory, plus every segment that has a confirmed
  reference translation; with ``picks=True`` instead one unit per recommended
  segment, source -> pick, with system, kind, confidence and band as ``<prop>``s
  and MT units marked ``creationid="MT!"`` (the Okapi Framework's MT marker), to
  pretranslate in a CAT tool (a project TM, OmegaT's ``tm/auto/``).
* ``po`` — a gettext catalogue per document (:mod:`tmtprime.formats.po_writer`).
* ``original`` — each document in the format it was imported in, the picks
  filled into its targets and every other byte kept
  (:mod:`tmtprime.formats.pretranslate`); confirmed translations and a
  translator's drafts are left alone. Documents read from tables or plain
  text have no original to fill and are skipped (said in the summary).

By default the ``document`` files of the project are exported (``tmx``: all
files); ``document=`` picks one file, ``role=`` another role.
"""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from tmtprime.errors import StoreError, UsageError
from tmtprime.progress import Reporter, silent
from tmtprime.formats.model import Segment, TMUnit
from tmtprime.store.records import DocumentRecord
from tmtprime.store.segments import batched

if TYPE_CHECKING:
    from tmtprime.formats.model import DocumentInfo
    from tmtprime.store.project import Store

T = TypeVar("T")

EXPORT_FORMATS = ("csv", "json", "xliff", "xliff2", "tmx", "po", "original")
CSV_COLUMNS = (
    "document",
    "index",
    "key",
    "doc_id",
    "seg_id",
    "context",
    "source",
    "system",
    "kind",
    "confidence",
    "fuzzy",
    "text",
)
EACH_FORMATS = ("original", "xliff", "xliff2", "po", "csv")
"""What :func:`export_each` writes: formats that read no field the writers change on the segments."""
_WRITERS = {"xliff": ("xliff12", ".xliff"), "xliff2": ("xliff2", ".xlf"), "po": ("po", ".po")}
_PAGE = 1000


@dataclass(slots=True)
class ExportResult:
    """What an export wrote."""

    fmt: str
    files: list[str] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    segments: int = 0
    recommended: int = 0
    tm_units: int = 0
    references: int = 0
    """Segments written to a TMX as source/reference pairs."""
    picks: int = 0
    """Units of a picks TMX."""
    filled: int = 0
    """Targets filled with a pick (``original``)."""
    marked_fuzzy: int = 0
    """PO entries marked ``#, fuzzy`` (``po``/``original``)."""
    format_breaks: int = 0
    """Picks that break a printf format of their source (marked fuzzy in PO)."""
    notes: list[str] = field(default_factory=list)
    """What the user must know: documents skipped, what a format could not keep."""

    def render(self) -> str:
        """One line for the CLI (then one line per note)."""
        if self.fmt == "tmx":
            what = (f"{self.picks} picks" if self.picks or not (self.tm_units or self.references)
                    else f"{self.tm_units} TM units and {self.references} reference translations")
        elif self.fmt == "original":
            what = f"{self.segments} segments ({self.filled} targets filled with a pick)"
        else:
            what = f"{self.segments} segments ({self.recommended} with a recommendation)"
        extra = ""
        if self.fmt in ("po", "original") and (self.marked_fuzzy or self.format_breaks):
            extra = f"; {self.marked_fuzzy} PO entries marked fuzzy ({self.format_breaks} break a printf format)"
        line = f"exported {what} from {len(self.documents)} document(s) to {', '.join(self.files)}{extra}"
        return "\n".join([line, *(f"note: {n}" for n in self.notes)])


def export_project(
    store: Store,
    fmt: str,
    out: str | os.PathLike[str],
    *,
    document: str | None = None,
    role: str | None = None,
    model: str | None = None,
    picks: bool = False,
    fuzzy_below: float | None = None,
    segment_ids: Collection[int] | None = None,
    reporter: Reporter | None = None,
) -> ExportResult:
    """Write the project (or one document) as ``fmt`` to ``out`` (``-`` = standard output for csv/json).

    ``model`` chooses whose recommendations are used (default: the newest model
    that has recommendations). ``picks``: a TMX of the picks (``fmt="tmx"``).
    ``fuzzy_below``: PO picks below this confidence are marked fuzzy (None: all).
    ``segment_ids``: only these segments (what a filtered list shows); None: all.
    """
    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (expected one of: {', '.join(EXPORT_FORMATS)})")
    if picks and fmt != "tmx":
        raise UsageError("picks= is for --format tmx (a TMX of the picks)")
    docs = _documents(store, "document" if picks else fmt, document, role)
    if model is not None:
        store.models.get(model)  # a clear error for a wrong name
    model = model or store.recommendations.latest_model()
    result = ExportResult(fmt=fmt, documents=[d.name for d in docs])
    _write(_Exporter(store, docs, model, result, silent(reporter), only=segment_ids), fmt, out, picks, fuzzy_below)
    return result


def export_each(
    store: Store, doc: DocumentRecord, outputs: Iterable[tuple[str, str | os.PathLike[str]]], *, model: str | None,
    reporter: Reporter | None = None,
) -> list[ExportResult]:
    """Write ``doc`` in each ``(format, path)`` of ``outputs`` from one read of its segments
    (``tmtprime run``'s deliverables); each file is what :func:`export_project` writes for it.

    Formats: :data:`EACH_FORMATS` (JSON shows what the document writers fill in on the way).
    """
    outputs = list(outputs)
    wrong = [fmt for fmt, _ in outputs if fmt not in EACH_FORMATS]
    if wrong:
        raise UsageError(f"cannot write {', '.join(wrong)} with other formats from one read: "
                         f"choose from {', '.join(EACH_FORMATS)}")
    reading = _Exporter(store, [doc], model, ExportResult(fmt=""), silent(reporter))
    read = list(reading.segments([doc]))
    results = []
    for fmt, out in outputs:
        result = ExportResult(fmt=fmt, documents=[doc.name])
        _write(_Exporter(store, [doc], model, result, silent(reporter), read=read), fmt, out, False, None)
        results.append(result)
    return results


def _write(exporter: _Exporter, fmt: str, out: str | os.PathLike[str], picks: bool, fuzzy_below: float | None) -> None:
    result = exporter.result
    if fmt == "csv":
        with _text_output(out) as stream:
            exporter.write_csv(stream)
    elif fmt == "json":
        with _text_output(out) as stream:
            exporter.write_json(stream)
    elif fmt == "tmx" and picks:
        exporter.write_picks_tmx(_file_output(out, fmt))
    elif fmt == "tmx":
        exporter.write_tmx(_file_output(out, fmt))
    elif fmt == "original":
        exporter.write_originals(out, fuzzy_below)
    else:
        exporter.write_documents(fmt, out, fuzzy_below)
    if not result.files:
        result.files.append("standard output" if os.fspath(out) == "-" else os.fspath(out))


def _documents(store: Store, fmt: str, document: str | None, role: str | None) -> list[DocumentRecord]:
    if document is not None:
        doc = store.documents.get(document)
        if doc.role == "tm" and fmt != "tmx":
            raise UsageError(f"{doc.name!r} is a translation memory: export it with --format tmx")
        return [doc]
    if fmt == "tmx" and role is None:
        docs = store.documents.list()
    else:
        roles = ("dev", "document") if role == "all" else (role or "document",)
        docs = [d for d in store.documents.list() if d.role in roles]
    if not docs:
        others = {d.role for d in store.documents.list()}
        hint = (
            f"; this project has {', '.join(sorted(others))} files (choose with --role or --document)" if others else ""
        )
        wanted = "files" if fmt == "tmx" else f"{' or '.join(roles)} files"
        raise StoreError(f"nothing to export: no {wanted} in this project{hint}")
    return docs


@contextmanager
def _replaced(path: Path) -> Iterator[Path]:
    """A temporary file next to ``path`` that replaces it only when writing succeeded.

    A failed or interrupted export leaves no half-written file (and an older
    export of the same name untouched).
    """
    if not path.parent.is_dir():
        raise StoreError(f"cannot write {path}: directory {path.parent} does not exist")
    partial = path.with_name(f".{path.name}.part")
    try:
        yield partial
        os.replace(partial, path)
    except OSError as error:
        raise StoreError(f"cannot write {path}: {error.strerror}") from None
    finally:
        partial.unlink(missing_ok=True)


@contextmanager
def _text_output(out: str | os.PathLike[str]) -> Iterator[IO[str]]:
    if os.fspath(out) == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    with _replaced(Path(out)) as partial, open(partial, "w", encoding="utf-8", newline="") as stream:
        yield stream


def _file_output(out: str | os.PathLike[str], fmt: str) -> Path:
    if os.fspath(out) == "-":
        raise UsageError(f"--format {fmt} writes a file: give -o FILE")
    return Path(out)


class _Exporter:
    """Walks the chosen documents page by page, attaching recommendations."""

    def __init__(
        self,
        store: Store,
        docs: list[DocumentRecord],
        model: str | None,
        result: ExportResult,
        reporter: Reporter,
        only: Collection[int] | None = None,
        read: list[Segment] | None = None,
    ) -> None:
        self.store, self.docs, self.model, self.result = store, docs, model, result
        self.reporter = reporter
        self.only = None if only is None else frozenset(only)
        self.read = read
        """The one document's segments as :meth:`segments` yields them, already read (:func:`export_each`)."""

    def _track(self, items: Iterable[T], doc: DocumentRecord, unit: str) -> Iterator[T]:
        desc = f"exporting {doc.name}"
        return self.reporter.track(items, total=doc.unit_count, desc=desc, unit=unit)

    def segments(self, docs: Iterable[DocumentRecord]) -> Iterator[Segment]:
        """Every segment of ``docs`` in order, with its pick (``Segment.pick``)."""
        if self.read is not None:
            for seg in self.read:
                self.result.segments += 1
                self.result.recommended += seg.pick is not None
                yield seg
            return
        for doc in docs:
            if doc.role == "tm":
                continue
            stream = self._track(self.store.segments.iter(document_id=doc.id), doc, " segments")
            for page in batched(stream, _PAGE):
                if self.model:
                    self.store.recommendations.fill(page, model=self.model)
                for seg in page:
                    if self.only is not None and seg.id not in self.only:
                        continue
                    self.result.segments += 1
                    self.result.recommended += seg.pick is not None
                    yield seg

    def write_csv(self, stream: IO[str]) -> None:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for seg in self.segments(self.docs):
            writer.writerow(_csv_row(seg))

    def write_json(self, stream: IO[str]) -> None:
        project = self.store.project()
        head = {"project": project.name, "source_lang": project.source_lang, "target_lang": project.target_lang}
        head["model"] = self.model
        card = next((m.card for m in self.store.models.list() if m.name == self.model), {}) if self.model else {}
        head["label"] = card.get("label", {"name": "ter", "unit": "TER (0-100+, sacrebleu) against the reference"})
        head["warnings"] = list(card.get("job_warnings", []))
        stream.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "segments": [\n')
        first = True
        for seg in self.segments(self.docs):
            stream.write(("" if first else ",\n") + json.dumps(_json_segment(seg), ensure_ascii=False))
            first = False
        stream.write("\n]}\n")

    def _paths(self, out: str | os.PathLike[str], fmt: str, docs: list[DocumentRecord],
               name: Callable[[DocumentRecord], str]) -> list[Path]:
        """One output per document: ``out`` itself for one document, else files named by ``name`` inside ``out``."""
        target = _file_output(out, fmt)
        many = len(docs) > 1
        if many:
            target.mkdir(parents=True, exist_ok=True)
        elif target.is_dir():
            many = True
        return [target / name(doc) if many else target for doc in docs]

    def write_documents(self, fmt: str, out: str | os.PathLike[str], fuzzy_below: float | None) -> None:
        """One XLIFF 1.2 / XLIFF 2 / PO file per document (pick as target, candidates as alternatives)."""
        from tmtprime.formats import write_document

        writer, suffix = _WRITERS[fmt]
        options = {"fuzzy_below": fuzzy_below} if writer == "po" else {}
        project = self.store.project()
        paths = self._paths(out, fmt, self.docs, lambda doc: _safe_name(doc.name) + suffix)
        for doc, path in zip(self.docs, paths, strict=True):
            info = _info(doc, project.source_lang, project.target_lang, writer)
            segments = (_for_writer(seg) for seg in self.segments([doc]))
            if writer == "po":
                segments = (self._count_review(s, fuzzy_below) for s in segments)
            with _replaced(path) as partial:
                write_document(writer, partial, info, segments, **options)
            self.result.files.append(str(path))

    def _count_review(self, seg: Segment, fuzzy_below: float | None) -> Segment:
        """Count, on the way to the PO writer, the picks it marks fuzzy and those that break a format."""
        from tmtprime.formats.po_writer import needs_review

        pick = seg.pick
        if pick is not None and not seg.reference:
            fuzzy, broken = needs_review(seg.source, pick.candidate.text, pick.confidence, fuzzy_below)
            self.result.marked_fuzzy += fuzzy
            self.result.format_breaks += broken
        return seg

    def write_originals(self, out: str | os.PathLike[str], fuzzy_below: float | None) -> None:
        """Each document in its own format, picks in the targets (see ``tmtprime.formats.pretranslate``)."""
        from tmtprime.formats import ORIGINAL_FORMATS, FillOptions, fill_document

        docs = [d for d in self.docs if d.format in ORIGINAL_FORMATS]
        for d in self.docs:
            if d.format not in ORIGINAL_FORMATS:
                self.result.notes.append(f"{d.name!r} was imported from {d.format}, which has no original to fill: "
                                         "export it with --format po or xliff")
        if not docs:
            found = ", ".join(sorted({d.format for d in self.docs}))
            raise UsageError(f"--format original writes back {', '.join(ORIGINAL_FORMATS)} files; "
                             f"this project's documents are {found}")
        contents = [self._original(d) for d in docs]
        project = self.store.project()
        options = FillOptions(project.source_lang, project.target_lang, fuzzy_below)
        paths = self._paths(out, "original", docs, lambda doc: _safe_name(_strip_gz(doc.name)))
        kept: dict[str, int] = {}
        notes: list[str] = []
        for doc, data, path in zip(docs, contents, paths, strict=True):
            fills = {}
            for seg in self.segments([doc]):
                if seg.pick is None or not seg.source.strip():
                    reason = "no recommendation" if seg.pick is None else "empty source"
                    kept[reason] = kept.get(reason, 0) + 1
                elif seg.reference is not None:
                    kept["confirmed translation kept"] = kept.get("confirmed translation kept", 0) + 1
                elif "draft_target" in seg.attributes:
                    kept["translator's draft kept"] = kept.get("translator's draft kept", 0) + 1
                else:
                    fills[seg.key] = _for_writer(seg)
            with _replaced(path) as partial, open(partial, "wb") as stream:
                report = fill_document(doc.format, data, fills, stream, options, file=doc.name)
            if report.not_found:
                raise StoreError(f"{doc.name}: {len(report.not_found)} segments were not found in the stored file "
                                 f"(first: {report.not_found[0]!r}); re-import the file")
            self.result.filled += report.filled
            self.result.marked_fuzzy += report.marked_fuzzy
            self.result.format_breaks += report.format_breaks
            notes += [f"{doc.format}: {n}" for n in report.not_kept if f"{doc.format}: {n}" not in notes]
            self.result.files.append(str(path))
        if kept:
            self.result.notes.append("targets left as they were: " + ", ".join(f"{n} {r}" for r, n in kept.items()))
        self.result.notes += [f"not kept in {n}" for n in notes]

    def _original(self, doc: DocumentRecord) -> bytes:
        """The stored bytes of ``doc``; for a document imported before files were kept, its file if unchanged."""
        data = self.store.documents.file_content(doc.id)
        if data is not None:
            return data
        from tmtprime.formats.sources import open_binary
        from tmtprime.store.importer import content_hash

        path = Path(doc.path)
        if path.is_file() and content_hash(path) == doc.content_hash:
            with open_binary(path) as f:
                return f.read()
        raise StoreError(f"{doc.name!r} was imported before TMTprime kept imported files, and {doc.path} is gone "
                         "or changed: delete the document and import the file again to export it as original")

    def write_picks_tmx(self, path: Path) -> None:
        """One TMX unit per recommended segment (source -> pick) for a CAT tool's TM."""
        from tmtprime.formats import write_tm

        project = self.store.project()
        info = _info(self.docs[0], project.source_lang, project.target_lang, "tmx")
        info.original = None

        def units() -> Iterator[TMUnit]:
            for seg in self.segments(self.docs):
                pick = seg.pick
                if pick is None:
                    continue
                c = pick.candidate
                props = {"x-tmtprime-system": c.system, "x-tmtprime-kind": c.kind,
                         "x-tmtprime-band": pick.band, "x-tmtprime-document": seg.document,
                         "creationid": "MT!" if c.kind == "mt" else "TMTprime"}
                if pick.confidence is not None:
                    props["x-tmtprime-confidence"] = f"{pick.confidence:.6g}"
                if c.fuzzy is not None:
                    props["x-tmtprime-fuzzy"] = f"{c.fuzzy:g}"
                if seg.context:
                    props["x-context"] = seg.context
                self.result.picks += 1
                yield TMUnit(source=seg.source, target=c.text, properties=props, tags=seg.tags,
                             tags_dialect=seg.tags_dialect)

        with _replaced(path) as partial:
            write_tm("tmx", partial, info, units())
        self.result.files.append(str(path))

    def write_tmx(self, path: Path) -> None:
        from tmtprime.formats import write_tm

        project = self.store.project()
        info = _info(self.docs[0], project.source_lang, project.target_lang, "tmx")
        info.original = None
        with _replaced(path) as partial:
            write_tm("tmx", partial, info, self._tm_units())
        self.result.files.append(str(path))

    def _tm_units(self) -> Iterator[TMUnit]:
        for doc in self.docs:
            if doc.role != "tm":
                continue
            for unit in self._track(self.store.tm.iter_units(document_id=doc.id), doc, " units"):
                self.result.tm_units += 1
                yield unit
        for seg in self.segments(d for d in self.docs if d.role != "tm"):
            if seg.reference:
                props = {"document": seg.document, **{str(k): str(v) for k, v in seg.attributes.items()}}
                if seg.context:
                    props["context"] = seg.context
                self.result.references += 1
                yield TMUnit(
                    source=seg.source,
                    target=seg.reference,
                    properties=props,
                    tags=seg.tags,
                    tags_dialect=seg.tags_dialect,
                )


def _strip_gz(name: str) -> str:
    """The stored file is decompressed: ``job.po.gz`` is written back as ``job.po``."""
    return name[:-3] if name.lower().endswith(".gz") else name


def _safe_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_.#" else "_" for ch in name)


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def _seg_id(seg: Segment) -> str:
    """The segment's ``seg_id`` attribute; else what follows ``doc_id#`` in its key (TSV keys are doc_id#seg_id)."""
    if "seg_id" in seg.attributes:
        return str(seg.attributes["seg_id"])
    doc_id = seg.attributes.get("doc_id")
    if doc_id and seg.key.startswith(f"{doc_id}#"):
        return seg.key[len(str(doc_id)) + 1 :]
    return ""


def _csv_row(seg: Segment) -> list[str]:
    pick = seg.pick
    chosen = pick.candidate if pick else None
    return [
        seg.document,
        str(seg.position + 1),
        seg.key,
        str(seg.attributes.get("doc_id", "")),
        _seg_id(seg),
        seg.context or "",
        seg.source,
        chosen.system if chosen else "",
        chosen.kind if chosen else "",
        _number(pick.confidence) if pick else "",
        _number(seg.best_fuzzy),
        chosen.text if chosen else "",
    ]


def _json_segment(seg: Segment) -> dict[str, Any]:
    pick = seg.pick
    predictions = [pick.prediction_of(i) if pick else None for i in range(len(seg.candidates))]
    return {
        "document": seg.document,
        "index": seg.position + 1,
        "key": seg.key,
        "source": seg.source,
        "context": seg.context,
        "reference": seg.reference,
        "attributes": dict(seg.attributes),
        "candidates": [
            {
                "id": c.id,
                "system": c.system,
                "kind": c.kind,
                "rank": c.rank,
                "text": c.text,
                "fuzzy": c.fuzzy,
                "tm_source": c.tm_source,
                "origin": c.origin,
                "probability": p.probability if p else None,
                "predicted_ter": p.predicted_ter if p else None,
                "predicted_effort": p.predicted_effort if p else None,
                "confidence": p.shown_confidence if p else None,
            }
            for c, p in zip(seg.candidates, predictions, strict=True)
        ],
        "recommendation": None
        if pick is None
        else {
            "model": pick.model,
            "candidate": pick.candidate.id,
            "system": pick.candidate.system,
            "kind": pick.candidate.kind,
            "confidence": pick.confidence,
            "overridden": pick.overridden,
        },
    }


def _info(doc: DocumentRecord, source_lang: str, target_lang: str, fmt: str) -> DocumentInfo:
    from tmtprime.formats.model import DocumentInfo

    return DocumentInfo(
        path=doc.path, format=fmt, source_lang=source_lang, target_lang=target_lang, original=doc.original or doc.name
    )


def _for_writer(seg: Segment) -> Segment:
    """``seg`` made ready for a writer, in place: every candidate with its origin, attribute
    values as text (TM lookup stores numbers)."""
    for c in seg.candidates:
        c.origin = c.origin or c.system
        c.attributes = {k: str(v) for k, v in c.attributes.items()}
    return seg
