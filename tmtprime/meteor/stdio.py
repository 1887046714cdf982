"""The jar's ``-stdio`` protocol: one request per line on stdin, one answer per line on stdout.

* ``SCORE ||| ref1 [||| ref2 ...] ||| hyp`` -> the 23 statistics of the best reference;
* ``EVAL ||| stats1 [||| stats2 ...]`` -> the score of each statistics line, then the
  score of their sum (one stats line gives two answers);
* ``SING ||| stats`` -> its score.

Parsing follows the jar: fields are split on ``|||`` with Java's ``split``
semantics (trailing empty fields dropped), fields are trimmed, the keyword is
the first whitespace-separated token of the first field (so a leading space
makes it unknown) and is case-insensitive. Bad requests get the jar's
``Error: ...`` answer and the loop goes on; statistics that are not numbers
end the session with exit status 1 as in the jar (which dies with a Java
exception there), but with one readable line instead of a stack trace.
Every answer is flushed at once so that a client can talk to the process.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import TextIO

from tmtprime.errors import InputError
from tmtprime.meteor.javafmt import java_double
from tmtprime.meteor.scorer import Meteor
from tmtprime.meteor.stats import MIN_STAGES, MeteorStats, sum_stats

_WS = re.compile(r"\s+")


def java_split(line: str, sep: str = "|||") -> list[str]:
    """``String.split`` of Java with a literal separator: trailing empty strings removed."""
    parts = line.split(sep)
    while len(parts) > 1 and parts[-1] == "":
        parts.pop()
    return parts


def parse_stats(text: str, stages: int, where: str) -> MeteorStats:
    """Statistics from a whitespace-separated list of numbers (extra numbers ignored, like the jar)."""
    tokens = [t for t in _WS.split(text.strip()) if t]
    need = 4 + 4 * stages + 3
    if len(tokens) < need:
        raise InputError(f"Meteor statistics need {need} numbers, got {len(tokens)}", location=where)
    try:
        return MeteorStats.from_list([float(t) for t in tokens[:need]], stages)
    except ValueError as error:
        raise InputError(f"Meteor statistics must be numbers ({error})", location=where) from None


def answer(meteor: Meteor, line: str, where: str = "stdin") -> list[str]:
    """The jar's answer lines for one protocol line."""
    raw = java_split(line)
    keyword = _WS.split(raw[0])[0].upper()
    fields = [f.strip() for f in raw]
    stages = max(MIN_STAGES, len(meteor.config.modules))
    if keyword == "SCORE":
        if len(fields) < 3:
            return ["Error: specify hypothesis and at least one reference"]
        best = meteor.sentence_score(fields[-1], fields[1:-1])
        return [best.stats_line()]
    if keyword == "EVAL":
        if len(fields) < 2:
            return ["Error: specify Meteor stats"]
        all_stats = [parse_stats(f, stages, where) for f in fields[1:]]
        out = [java_double(meteor.score_stats(st).score) for st in all_stats]
        out.append(java_double(meteor.score_stats(sum_stats(all_stats)).score))
        return out
    if keyword == "SING":
        if len(fields) != 2:
            return ["Error: specify Meteor stats"]
        return [java_double(meteor.score_stats(parse_stats(fields[1], stages, where)).score)]
    return ["Error: specify SCORE or EVAL or SING"]


def serve(meteor: Meteor, lines: Iterable[str], out: TextIO | None = None) -> int:
    """Answer every line of ``lines`` (stdin) on ``out`` (stdout), flushing after each answer."""
    out = out or sys.stdout
    for n, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        for text in answer(meteor, line, where=f"stdin line {n}"):
            out.write(text + "\n")
        out.flush()
    return 0
