"""``tmtprime meteor``: the Meteor 1.5 jar's command line, reimplemented.

Takes the jar's own option syntax (``tmtprime meteor HYP REF -l en -norm -vOut``)
and prints exactly what ``java -jar meteor-1.5.jar`` prints, on the same
streams and with the same exit status (except for files of different lengths:
the jar prints its error and exits 0, this exits 1), so scripts written for the
jar switch over unchanged. ``--json`` is the one addition, for tooling.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from tmtprime.cli.meteor_tools import SUBCOMMANDS, run_tool, usage_lines
from tmtprime.errors import InputError, TmtprimeError
from tmtprime.meteor.javafmt import java_double
from tmtprime.meteor.params import TASK_NAMES
from tmtprime.progress import ConsoleReporter, Reporter

if TYPE_CHECKING:
    from tmtprime.meteor.scorer import Meteor

USAGE = """Meteor version 1.5 (tmtprime)

Usage: tmtprime meteor <test> <reference> [options]

Options:
-l language                     Fully supported: en cz de es fr
                                Supported with language-independent parameters:
                                  da fi hu it nl no pt ro ru se tr
-t task                         One of: rank util adq hter li tune
-p 'alpha beta gamma delta'     Custom parameters (overrides default)
-m 'module1 module2 ...'        Specify modules (overrides default)
                                  Any of: exact stem synonym paraphrase
-w 'weight1 weight2 ...'        Specify module weights (overrides default)
-r refCount                     Number of references (plaintext only)
-x beamSize                     (default 40)
-s wordListFile                 (if not default for language)
-a paraphraseFile               (if not default for language)
-f filePrefix                   Prefix for output files (default 'meteor')
-q                              Quiet: Segment scores to stderr, final to stdout,
                                  no additional output (plaintext only)
-norm                           Tokenize / normalize punctuation and lowercase
-lower                          Lowercase only (not required if -norm specified)
-noPunct                        Do not consider punctuation when scoring
-stdio                          Input is from stdin (use '-' for test and reference)
-vOut                           Output verbose scores (P / R / frag / score)
-ssOut                          Output sufficient statistics instead of scores
-writeAlignments                Output alignments annotated with Meteor scores
                                  (written to <prefix>-align.out)
--json                          Machine-readable output (tmtprime extension)
-j N                            Worker processes for large inputs (tmtprime extension)

Sample options for plaintext: -l <lang> -norm
The English paraphrase table: tmtprime resources fetch-paraphrase

Tools (tmtprime meteor TOOL --help):
"""

_VALUE_OPTIONS = {"-l", "-t", "-p", "-m", "-w", "-r", "-x", "-s", "-d", "-a", "-f", "-new", "-j"}
_FLAGS = {"-q", "-ch", "-norm", "-lower", "-noPunct", "-sgml", "-stdio", "-vOut", "-ssOut", "-writeAlignments", "--json"}
_UNSUPPORTED = {
    "-sgml": "SGML input is not supported; give plain text files (one segment per line)",
    "-new": "-new (a new language from a files directory) is not supported",
    "-ch": "character-based scoring (-ch) is not supported",
    "-d": "a custom synonym directory (-d) is not supported; English synonyms are built in",
}


def _usage() -> str:
    return USAGE + "\n".join(usage_lines()) + "\n"


class _Exit(Exception):
    """Stop with a message on stderr and an exit status (the jar's)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def _parse(argv: list[str]) -> tuple[list[str], dict[str, str], set[str]]:
    files: list[str] = []
    values: dict[str, str] = {}
    flags: set[str] = set()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _VALUE_OPTIONS:
            if i + 1 >= len(argv):
                raise _Exit(f"option {arg} needs a value")
            values[arg] = argv[i + 1]
            i += 2
            continue
        if arg in _FLAGS:
            flags.add(arg)
        elif arg in {"-h", "--help", "-help"}:
            raise _Exit(_usage().rstrip("\n"), 0)
        elif arg.startswith("-") and arg != "-":
            raise _Exit(f'Unknown option "{arg}"')
        else:
            files.append(arg)
        i += 1
    return files, values, flags


def _number(option: str, text: str, kind: Callable[[str], float | int]) -> float | int:
    try:
        return kind(text)
    except ValueError:
        raise _Exit(f"option {option} needs a number, got {text!r}") from None


def run(argv: list[str]) -> int:
    """Entry point of ``tmtprime meteor`` (RAW command: the jar's own option syntax, or a tool's subcommand)."""
    if argv and argv[0] in SUBCOMMANDS:
        return run_tool(argv)
    try:
        return _run(argv)
    except _Exit as stop:
        if str(stop):
            print(str(stop), file=sys.stderr if stop.status else sys.stdout)
        return stop.status
    except BrokenPipeError:
        return 0


def _run(argv: list[str]) -> int:
    files, values, flags = _parse(argv)
    for option, reason in _UNSUPPORTED.items():
        if option in flags or option in values:
            raise _Exit(f"Error: {reason}")
    stdio = "-stdio" in flags
    if len(files) < 2 and not stdio:
        print(_usage(), file=sys.stderr, end="")
        return 2
    try:
        meteor = _build(values, flags)
    except TmtprimeError as error:
        raise _Exit(str(error)) from None
    if stdio:
        from tmtprime.meteor.stdio import serve

        try:
            _load_for_batch(meteor, quiet=True)
            return serve(meteor, sys.stdin)
        except TmtprimeError as error:
            raise _Exit(f"Error: {error}") from None
    return _score_files(meteor, files[0], files[1], values, flags)


def _build(values: dict[str, str], flags: set[str], **extensions):
    from tmtprime.meteor.scorer import Meteor

    params = None
    if "-p" in values:
        params = [float(_number("-p", x, float)) for x in values["-p"].split()]
    weights = None
    if "-w" in values:
        weights = [float(_number("-w", x, float)) for x in values["-w"].split()]
    modules = values["-m"].split() if "-m" in values else None
    beam = int(_number("-x", values["-x"], int)) if "-x" in values else 40
    task = values.get("-t")
    if task is not None and task.lower() not in TASK_NAMES:  # a tuned parameter set (tmtprime meteor tune)
        from tmtprime.meteor.tuning import task_options

        task, modules, params, weights, extensions = task_options(task, modules, params, weights, extensions)
    meteor = Meteor(
        lang=values.get("-l", "en"),
        task=task,
        modules=modules,
        params=params,
        weights=weights,
        normalize="-norm" in flags,
        lowercase="-lower" in flags,
        no_punct="-noPunct" in flags,
        beam_size=beam,
        paraphrase_table=values.get("-a"),
        function_words_file=values.get("-s"),
        **extensions,
    )
    return meteor


class _StatusLines(Reporter):
    """Each status as one line on stderr, on a terminal or not (the one-off compile note)."""

    def on_status(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


def _load_for_batch(meteor: Meteor, quiet: bool, tokens: int | None = None) -> None:
    """Load the scorer's resources, compile the aligner (saying so when that takes a while, unless ``quiet``)
    and take what was loaded out of the garbage collector's sight for this process.

    ``tokens``: about how many words the run scores, hypotheses and
    references (None: a server, as many as it is sent); when that does not
    pay for the machine code (:func:`~tmtprime.meteor.compiled.pays`) the
    scorer runs as plain Python and nothing is compiled or loaded for it.

    A batch run long enough for the machine code keeps what it loaded until
    it exits, so after a collection the loaded tables are frozen
    (``gc.freeze``): otherwise every full collection while scoring walks over
    them again, about 100 ms each, a sixth of the scoring time on WMT22 text.
    This is done here, in the command, not in :meth:`Meteor.load`: freezing
    is process-wide, which a library must not impose on the program that
    imports it.
    """
    from tmtprime.meteor.aligner import compile_now
    from tmtprime.meteor.compiled import pays

    meteor.load(ConsoleReporter() if sys.stderr.isatty() else None)  # a paraphrase table compiles on first use
    if tokens is None or pays(tokens, len(meteor.config.modules)):
        compile_now(
            Reporter() if quiet else _StatusLines(),
            # every module and the search: words that match exactly, by stem, by synonym and by paraphrase
            warm_up=lambda: meteor.score_each(["he was not able to go to the cars"], [["he could not go to his car"]]),
        )
        gc.collect()  # not for a few pairs: the collection alone costs them 8-12 ms
    gc.freeze()  # even then: the collection at exit would walk the loaded tables (synonyms, paraphrase words)


def _score_files(meteor, hyp_path: str, ref_path: str, values: dict[str, str], flags: set[str]) -> int:
    # the scorer and its use case load numpy and the matchers (0.8 s at load 1.6): here, not at start-up
    from tmtprime.meteor import report
    from tmtprime.meteor.batch import BATCH
    from tmtprime.workflows.meteor_scoring import LineCountMismatch, UnreadableFile, read_segment_files, score_segment_files

    quiet = "-q" in flags
    ss_out = "-ssOut" in flags
    as_json = "--json" in flags
    text_header = not (quiet or ss_out or as_json)
    if text_header:
        _emit(report.header_lines(meteor))
    ref_count = int(_number("-r", values["-r"], int)) if "-r" in values else 1
    try:
        files = read_segment_files(hyp_path, ref_path, ref_count)
    except LineCountMismatch as error:
        sys.stdout.flush()
        print(f"Error: {error.reason}", file=sys.stderr)
        return 1  # the jar exits 0 here; scripts must see the failure (a deliberate difference, README)
    except UnreadableFile as error:
        raise _Exit(f"Error: Could not score text files: {error.file or ''} ({error.reason})") from None
    except InputError as error:
        raise _Exit(f"Error: {error.reason}") from None
    jobs = int(_number("-j", values["-j"], int)) if "-j" in values else None
    # progress only on a terminal, and only in the jar's plain text mode (stderr carries scores with -q)
    progress = ConsoleReporter() if text_header and sys.stderr.isatty() and len(files.hyps) > BATCH else Reporter()
    try:
        words = sum(len(h.split()) + sum(len(r.split()) for r in refs) for h, refs in zip(files.hyps, files.refs))
        _load_for_batch(meteor, quiet=not text_header, tokens=words)
        result = score_segment_files(meteor, files, n_jobs=jobs, reporter=progress)
    except TmtprimeError as error:
        raise _Exit(f"Error: {error}") from None
    segments, total = result.segments, result.total
    if "-writeAlignments" in flags:
        prefix = values.get("-f", "meteor")
        with open(f"{prefix}-align.out", "w", encoding="utf-8") as f:
            for i, seg in enumerate(segments, start=1):
                f.write(report.alignment_block(i, seg))
    if as_json:
        json.dump(report.json_report(meteor, segments, total), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if ss_out:
        _emit(seg.stats_line() for seg in segments)
        return 0
    if quiet:
        sys.stderr.write("".join(java_double(seg.score) + "\n" for seg in segments))
        sys.stderr.flush()
        print(java_double(total.score))
        return 0
    verbose = "-vOut" in flags
    _emit(report.segment_line(i, seg, verbose) for i, seg in enumerate(segments, start=1))
    _emit(report.system_lines(meteor, total))
    return 0


def _emit(lines) -> None:
    sys.stdout.write("".join(line + "\n" for line in lines))


RAW_COMMANDS = {"meteor": ("score MT output with Meteor 1.5 (the jar's options: HYP REF -l en -norm ...)", run)}
