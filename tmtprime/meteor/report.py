"""The jar's text output, character for character.

Scripts written for the Meteor 1.5 jar parse its output (``Segment N score:``,
``Final score:``, the system statistics table, ``-writeAlignments`` files), so
``tmtprime meteor`` prints exactly the same text; every layout detail here
(label widths, tabs, blank lines, number formatting) was copied from the jar.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tmtprime.meteor.javafmt import java_double
from tmtprime.meteor.scorer import VERSION, Meteor, MeteorScore
from tmtprime.meteor.stats import MeteorStats


def _field(label: str, value: str, width: int = 16) -> str:
    return f"{label:<{width}}{value}"


def _doubles(values: Iterable[float]) -> str:
    return " ".join(java_double(v) for v in values)


def header_lines(meteor: Meteor, fmt: str = "plaintext") -> list[str]:
    """``Meteor version: 1.5`` ... ``Parameters:``, followed by the blank line the jar prints."""
    c = meteor.config
    return [
        f"Meteor version: {VERSION}",
        "",
        _field("Eval ID:", meteor.eval_id()),
        "",
        _field("Language:", c.language_display),
        _field("Format:", fmt),
        _field("Task:", c.task_name),
        _field("Modules:", " ".join(c.modules)),
        _field("Weights:", _doubles(c.weights)),
        _field("Parameters:", _doubles(c.params)),
        "",
    ]


def segment_line(index: int, score: MeteorScore, verbose: bool = False) -> str:
    """``Segment N score:<TAB>X`` (with ``-vOut``: P, R, fragmentation penalty, score)."""
    if verbose:
        parts = (score.precision, score.recall, score.penalty, score.score)
        return f"Segment {index} score:\t" + "\t".join(java_double(v) for v in parts)
    return f"Segment {index} score:\t{java_double(score.score)}"


def _count(value: float) -> int:
    return int(round(value))


def system_lines(meteor: Meteor, total: MeteorScore) -> list[str]:
    """The blank line, ``System level statistics:`` table and ``Final score:`` the jar prints last."""
    st: MeteorStats = total.stats
    lines = [
        "",
        "System level statistics:",
        "",
        "",
        "           Test Matches                  Reference Matches",
        "Stage      Content  Function    Total    Content  Function    Total",
    ]
    sums = [0, 0, 0, 0]
    for i in range(len(meteor.config.modules)):
        tc, tf = _count(st.test_content_matches[i]), _count(st.test_function_matches[i])
        rc, rf = _count(st.ref_content_matches[i]), _count(st.ref_function_matches[i])
        sums = [sums[0] + tc, sums[1] + tf, sums[2] + rc, sums[3] + rf]
        lines.append(f"{i + 1:<6}{tc:>12}{tf:>10}{tc + tf:>9}{rc:>11}{rf:>10}{rc + rf:>9}")
    tc, tf, rc, rf = sums
    lines.append(f"{'Total':<6}{tc:>12}{tf:>10}{tc + tf:>9}{rc:>11}{rf:>10}{rc + rf:>9}")
    lines += [
        "",
        _field("Test words:", str(_count(st.test_length)), 24),
        _field("Reference words:", str(_count(st.ref_length)), 24),
        _field("Chunks:", str(_count(st.chunks)), 24),
        _field("Precision:", java_double(total.precision), 24),
        _field("Recall:", java_double(total.recall), 24),
        _field("f1:", java_double(total.f1), 24),
        _field("fMean:", java_double(total.fmean), 24),
        _field("Fragmentation penalty:", java_double(total.penalty), 24),
        "",
        _field("Final score:", java_double(total.score), 24),
    ]
    return lines


def alignment_block(index: int, score: MeteorScore) -> str:
    """One entry of the jar's ``<prefix>-align.out`` (``-writeAlignments``)."""
    head = "\t".join(
        ["Alignment", str(index)] + [java_double(v) for v in (score.precision, score.recall, score.penalty, score.score)]
    )
    rows = [head, " ".join(score.hyp_tokens), " ".join(score.ref_tokens), "Line2Start:Length\tLine1Start:Length\tModule\t\tScore"]
    for hs, hl, rs, rl, stage in sorted(score.alignment, key=lambda m: (m[2], m[0])):
        rows.append(f"{rs}:{rl}\t\t\t{hs}:{hl}\t\t\t{stage}\t\t1.0")
    return "\n".join(rows) + "\n\n"


def stats_line(score: MeteorScore) -> str:
    """The 23 numbers of ``-ssOut`` / ``-stdio SCORE`` (segment statistics before scoring)."""
    return score.stats_line()


def json_report(meteor: Meteor, segments: Sequence[MeteorScore], total: MeteorScore) -> dict:
    """Everything the text output shows, as data (``--json``)."""
    return {
        "signature": str(meteor.signature()),
        "eval_id": meteor.eval_id(),
        "config": {
            "language": meteor.config.language,
            "task": meteor.config.task,
            "modules": list(meteor.config.modules),
            "weights": list(meteor.config.weights),
            "params": list(meteor.config.params),
            "norm": meteor.norm_mode,
        },
        "segments": [s.as_dict() | {"hyp_tokens": s.hyp_tokens, "ref_tokens": s.ref_tokens} for s in segments],
        "system": total.as_dict(),
    }
