"""Parallel plain text: one segment per line, the translation in a second, line-aligned file.

The source file gives the segments (key = line number); the optional target
file (``target_file=``) gives, line for line, the reference of a document or
the target of a TM. Files of different lengths are an error naming both
lengths: a shifted line would silently pair every later segment with the
wrong translation. Blank source lines are skipped (counted) but keep the
alignment.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from tmtprime.errors import FormatError

from .base import ReadOptions, primed
from .model import DocumentInfo, Segment, TMUnit
from .sources import iter_text_lines

REFERENCE = "the same line of the target file (target_file=)"


def _pairs(opts: ReadOptions, target: str | None) -> tuple[str, Iterator[tuple[int, str, str | None]]]:
    """``(line number, source, target or None)``; line counts are checked before anything is read."""
    encoding, src_lines = iter_text_lines(opts.path)
    if target is None:
        return encoding, ((n, s.rstrip("\r\n"), None) for n, s in src_lines)
    n_src, n_tgt = _count(opts.path), _count(target)
    if n_src != n_tgt:
        raise FormatError(
            f"the source has {n_src} lines but the target file {target} has {n_tgt}: they must be line-aligned",
            file=opts.name,
        )
    _, tgt_lines = iter_text_lines(target)
    return encoding, ((n, s.rstrip("\r\n"), t.rstrip("\r\n")) for (n, s), (_, t) in zip(src_lines, tgt_lines))


def _count(path: str) -> int:
    _, lines = iter_text_lines(path)
    return sum(1 for _ in lines)


def read_document(opts: ReadOptions, target_file: str | os.PathLike[str] | None = None
                  ) -> tuple[DocumentInfo, Iterator[Segment]]:
    target = os.fspath(target_file) if target_file is not None else None
    encoding, pairs = _pairs(opts, target)
    info = DocumentInfo(path=opts.name, format="text", source_lang=opts.source_lang, target_lang=opts.target_lang,
                        encoding=encoding)
    if target:
        info.properties["target_file"] = target

    def gen() -> Iterator[Segment | None]:
        yield None
        for n, src, tgt in pairs:
            if not src.strip():
                info.skip("blank line", f"line {n}")
                continue
            yield Segment(key=str(n), source=src, reference=tgt or None, location=f"line {n}")

    return info, primed(gen())


def read_tm(opts: ReadOptions, target_file: str | os.PathLike[str] | None = None
            ) -> tuple[DocumentInfo, Iterator[TMUnit]]:
    if target_file is None:
        raise FormatError("a plain-text TM needs the line-aligned target file: give it with --target-file (Python: target_file=)",
                          file=opts.name)
    info, segments = read_document(opts, target_file)

    def gen() -> Iterator[TMUnit]:
        for seg in segments:
            if seg.reference:
                yield TMUnit(source=seg.source, target=seg.reference, location=seg.location)
            else:
                info.skip("line with an empty target", seg.location)

    return info, gen()
