"""CSV and TSV tables: reading with a column mapping, writing a wide table.

Reading: the delimiter is sniffed (TSV = tab; CSV = comma, semicolon or pipe,
as Excel and LibreOffice write them per locale), quoting is Excel's (doubled
quotes, quoted fields may hold delimiters and newlines). TSV files are often
written *without* quoting (the shared data: a field may start with a quote
character that is just text), so for TSV quoting is only honoured when the
file shows Excel quoting (a quoted field with a doubled quote, tab or newline).

Writing: one row per segment, columns ``key, source, context, reference,
tm_target, tm_source, tm_fuzzy, notes, mt_<system>..., recommended,
recommended_system, recommended_kind, confidence``, then the segments'
attributes, then ``tags`` (inline codes as JSON) if any segment has codes.
These names are the ones the reader infers, so an exported table re-imports
without a mapping. A table holds one TM candidate per segment (the best
fuzzy); JSON keeps everything.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import IO

from tmtprime.errors import FormatError

from .base import ReadOptions, primed
from .mapping import NOTES_COLUMN, TAGS_COLUMN, ColumnMapping, ResolvedMapping, stream_segments, stream_units
from .model import Candidate, DocumentInfo, Segment, TMUnit
from .sources import iter_text_lines

_SAMPLE_LINES = 200
_SNIFF_CHARS = 8192


def _tsv_quoted(sample: list[str]) -> bool:
    """Does this TSV sample use Excel quoting (rather than quotes being plain text)?

    Yes when a field is wrapped in quotes with a doubled quote inside, or when
    reading with quoting gives rows of the header's width more often than
    splitting on tabs does (a quoted field holding a tab or a line break).
    """
    if not any('"' in line for line in sample):
        return False
    raw = [line.rstrip("\r\n").split("\t") for line in sample if line.strip()]
    for row in raw:
        for f in row:
            if len(f) >= 2 and f[0] == '"' and f[-1] == '"' and '""' in f[1:-1]:
                return True
    width = len(raw[0])
    try:
        quoted = [r for r in csv.reader(io.StringIO("".join(sample)), delimiter="\t") if any(r)][:-1]
    except csv.Error:  # a line break inside an unquoted field, a field over the csv limit: not Excel quoting
        return False
    return sum(len(r) != width for r in quoted) < sum(len(r) != width for r in raw[: len(quoted)])


def _sniff(path: str, fmt: str, encoding: str | None) -> tuple[str, bool]:
    """Delimiter and whether quoting is in use."""
    _, lines = iter_text_lines(path, encoding)
    sample: list[str] = []
    for _, line in lines:
        sample.append(line)
        if len(sample) >= _SAMPLE_LINES:
            break
    lines.close()  # type: ignore[attr-defined]
    text = "".join(sample)
    first = sample[0] if sample else ""
    if fmt == "tsv" or ("\t" in first and first.count("\t") >= max(first.count(","), first.count(";"))):
        return "\t", _tsv_quoted(sample)
    try:  # the Sniffer's regular expressions take time quadratic in the sample: a few lines are enough
        dialect = csv.Sniffer().sniff(text[:_SNIFF_CHARS] or ",", delimiters=",;|")
        return dialect.delimiter, True
    except csv.Error:
        return ",", True


_END = "\uffff"  # a Unicode noncharacter: never in a valid text file


def _records(
    lines: Iterator[tuple[int, str]], delimiter: str, quoting: bool
) -> Iterator[tuple[int, list[str]]]:
    """``(first_line_number, fields)`` per record, blank lines skipped."""
    if not quoting:
        for n, line in lines:
            line = line.rstrip("\r\n")
            if line:
                yield n, line.split(delimiter)
        return
    current = [0]

    def feed() -> Iterator[str]:
        for n, line in lines:
            current[0] = n
            yield line
        # A quote left open swallows every line after it into one field, and the
        # lenient reader would hand that back as data: a last line that cannot occur
        # in text shows whether the reader was still inside quotes at the end.
        yield _END + "\n"

    reader = csv.reader(feed(), delimiter=delimiter, quotechar='"', doublequote=True, strict=False)
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise FormatError(_csv_problem(exc), location=f"line {start}") from None
        if row == [_END]:
            return
        if any(_END in field for field in row):
            raise FormatError(
                "a quoted field opened here is never closed: every later line would be read as part of it "
                '(a stray " in a field? double it as "" or remove it)',
                location=f"line {start}",
            )
        if row and any(row):
            yield start, row
        start = current[0] + 1


def _csv_problem(exc: csv.Error) -> str:
    """What a ``csv`` module error means for the person who made the file."""
    if "field larger than field limit" in str(exc):
        return (f"a field longer than {csv.field_size_limit():,} characters starts here "
                '(a quote left open? double a " inside a quoted field as "")')
    return f"bad CSV quoting: {exc}"


MAX_COLUMNS = 10_000
"""More columns than this is damage (a run of delimiters), not a table of segments (they have a few dozen)."""


class _Table:
    """An open table: its columns and a stream of ``(line, row dict)``."""

    def __init__(self, opts: ReadOptions, mapping: ColumnMapping) -> None:
        self.path = opts.name
        self.encoding, lines = iter_text_lines(self.path)
        self.delimiter, quoting = _sniff(self.path, opts.fmt, None)
        self._records = _records(lines, self.delimiter, quoting)
        if mapping.header:
            first = next(self._records, None)
            if first is None:
                raise FormatError("the file is empty (no header row)", file=self.path)
            self.columns = [c.strip().lstrip("\ufeff") for c in first[1]]
            dup = {c for c, n in Counter(self.columns).items() if n > 1 and c}
            if dup:
                raise FormatError(f"duplicate column names in the header: {sorted(dup)}", file=self.path, location="line 1")
            self._pending: tuple[int, list[str]] | None = None
        else:
            self._pending = next(self._records, None)
            width = len(self._pending[1]) if self._pending else 0
            self.columns = [str(i) for i in range(1, width + 1)]
        if len(self.columns) > MAX_COLUMNS:  # every row would become a dict this wide: minutes for a 1 MB file
            raise FormatError(f"{len(self.columns):,} columns in the first row (more than {MAX_COLUMNS:,}): the "
                              f"file is damaged or its delimiter is not {self.delimiter!r}", file=self.path,
                              location="line 1")

    def rows(self) -> Iterator[tuple[int, dict[str, str]]]:
        width = len(self.columns)
        records: Iterable[tuple[int, list[str]]] = self._records
        if self._pending is not None:
            records = _chain_one(self._pending, self._records)
        try:
            for n, fields in records:
                if len(fields) > width:
                    raise FormatError(
                        f"{len(fields)} fields but the header has {width} columns "
                        f"(a {'tab' if self.delimiter == chr(9) else repr(self.delimiter)} inside a field?)",
                        file=self.path, location=f"line {n}",
                    )
                if len(fields) < width:
                    fields = fields + [""] * (width - len(fields))
                yield n, dict(zip(self.columns, fields))
        except FormatError as exc:
            if exc.file is None:
                raise FormatError(exc.reason, file=self.path, location=exc.location) from None
            raise


def _chain_one(first: tuple[int, list[str]], rest: Iterator[tuple[int, list[str]]]) -> Iterator[tuple[int, list[str]]]:
    yield first
    yield from rest


def _open(opts: ReadOptions, role: str) -> tuple[DocumentInfo, _Table, ResolvedMapping]:
    mapping = opts.mapping or ColumnMapping()
    table = _Table(opts, mapping)
    resolved = mapping.resolve(table.columns, file=opts.name, role=role)
    info = DocumentInfo(
        path=opts.name, format=opts.fmt, source_lang=opts.source_lang, target_lang=opts.target_lang,
        encoding=table.encoding, systems=resolved.systems if role != "tm" else None,
    )
    info.properties["columns"] = "\t".join(table.columns)
    info.properties["delimiter"] = table.delimiter
    return info, table, resolved


def read_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    info, table, resolved = _open(opts, "document")
    return info, primed(stream_segments(resolved, table.rows()))


def read_tm(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[TMUnit]]:
    info, table, resolved = _open(opts, "tm")
    return info, primed(stream_units(info, resolved, table.rows()))


# ---------------------------------------------------------------- writing


def _best_tm(seg: Segment) -> Candidate | None:
    tms = [c for c in seg.candidates if c.kind == "tm"]
    return max(tms, key=lambda c: c.fuzzy if c.fuzzy is not None else -1.0) if tms else None


def document_columns(info: DocumentInfo, segments: list[Segment]) -> tuple[list[str], list[str], bool]:
    """MT systems (in ``info.systems`` order first), attribute names, and whether a tags column is needed."""
    mt_seen: dict[str, None] = {}
    attrs: dict[str, None] = {}
    has_tags = False
    for seg in segments:
        for c in seg.candidates:
            if c.kind == "mt":
                mt_seen.setdefault(c.system)
        for a in seg.attributes:
            attrs.setdefault(a)
        has_tags = has_tags or bool(seg.tags)
    order = [s for s in (info.systems or []) if s in mt_seen]
    return order + [s for s in mt_seen if s not in order], list(attrs), has_tags


def _writer(out: IO[str], fmt: str) -> csv.writer:  # type: ignore[valid-type]
    return csv.writer(out, delimiter="\t" if fmt == "tsv" else ",", quotechar='"', quoting=csv.QUOTE_MINIMAL,
                      lineterminator="\r\n" if fmt == "csv" else "\n")


def _fmt_num(v: float | None) -> str:
    return "" if v is None else f"{v:g}"


def write_document(fmt: str, out: IO[str], info: DocumentInfo, segments: Iterable[Segment]) -> None:
    segs = list(segments)
    mt, attrs, has_tags = document_columns(info, segs)
    base = ["key", "source", "context", "reference", "tm_target", "tm_source", "tm_fuzzy", NOTES_COLUMN]
    tail = ["recommended", "recommended_system", "recommended_kind", "confidence"]
    clash = set(base) | set(tail) | {f"mt_{s}" for s in mt} | {TAGS_COLUMN}
    attrs = [a for a in attrs if a not in clash]
    w = _writer(out, fmt)
    w.writerow(base + [f"mt_{s}" for s in mt] + tail + attrs + ([TAGS_COLUMN] if has_tags else []))
    for seg in segs:
        tm = _best_tm(seg)
        by_sys = {c.system: c.text for c in seg.candidates if c.kind == "mt"}
        pick = seg.pick
        row = [seg.key, seg.source, seg.context or "", seg.reference or "",
               tm.text if tm else "", (tm.tm_source or "") if tm else "", _fmt_num(tm.fuzzy) if tm else "",
               "\n".join(seg.notes)]
        row += [by_sys.get(s, "") for s in mt]
        chosen = pick.candidate if pick else None
        row += [chosen.text if chosen else "", chosen.system if chosen else "", chosen.kind if chosen else "",
                _fmt_num(pick.confidence) if pick else ""]
        row += [seg.attributes.get(a, "") for a in attrs]
        if has_tags:
            row.append(json.dumps({"dialect": seg.tags_dialect, "tags": seg.tags}, ensure_ascii=False) if seg.tags else "")
        w.writerow(row)


def write_tm(fmt: str, out: IO[str], info: DocumentInfo, units: Iterable[TMUnit]) -> None:
    w = _writer(out, fmt)
    w.writerow(["source", "target"])
    for u in units:
        w.writerow([u.source, u.target])


