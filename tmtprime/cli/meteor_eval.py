"""``tmtprime meteor correlate|tune``: meta-evaluation and tuning of Meteor against human judgments.

Both take a judgment table (``doc_id seg_id system source reference
hypothesis human_score``, see :mod:`tmtprime.meteor.judgments`) and the
scoring options of ``tmtprime meteor`` (``-l -t -p -m -w -x -s -a -norm
-lower -noPunct``), plus the extensions: ``--copy-words FILE|ne|FILE+ne``
and ``--copy-smoothing X`` (Meteor++ copy knowledge), ``--syntax TABLE``,
``--syntax-weight W`` and ``--syntax-distance D`` (Meteor++ 2.0 syntax
stage). ``tmtprime meteor`` hands its arguments here when the first one
names a subcommand (:data:`SUBCOMMANDS`).
"""

from __future__ import annotations

import sys

USAGE = """Usage:
  tmtprime meteor correlate FILE [scoring options] [-j N] [-q]
  tmtprime meteor tune FILE [scoring options] -o PARAMS.toml [--name NAME] [--objective kendall|pearson]
                       [--grid alpha=0.6,0.8 ...] [--folds K] [-j N] [-q]

FILE: tab-separated judgment table (gzip allowed) with columns
  doc_id seg_id system source reference hypothesis human_score
Scoring options as for tmtprime meteor: -l -t -p -m -w -x -s -a -norm -lower -noPunct
  (-t also takes a tuned parameter set: a NAME saved by tune --name, or a PARAMS.toml)
Extensions:
  --copy-words SPEC        copy knowledge (Meteor++): a word list file, 'ne' (capitalised words and
                           numbers of each segment), or FILE+ne
  --copy-smoothing X       smoothing X of the corrected P and R (default 10)
  --syntax TABLE           syntax stage (Meteor++ 2.0) with a skip-gram paraphrase table
  --syntax-weight W        weight of the syntax stage (default 0.4)
  --syntax-distance D      largest start distance of a syntax match (default 3)
correlate prints Pearson r and Kendall tau over all rows and within each source segment;
its last line is exactly: pearson=X kendall=Y n=N
"""

SUBCOMMANDS = ("correlate", "tune")

_EXT_VALUES = {"--copy-words", "--copy-smoothing", "--syntax", "--syntax-weight", "--syntax-distance", "-j", "-o",
               "--name", "--objective", "--folds"}  # fmt: skip
_EXT_MULTI = {"--grid"}
_EXT_FLAGS = {"-q"}


def run(argv: list[str]) -> int:
    """``tmtprime meteor SUBCOMMAND ...``: errors become one line on stderr (status 1, 2 for usage)."""
    from tmtprime.errors import TmtprimeError, UsageError

    command, rest = argv[0], argv[1:]
    if not rest or rest[0] in {"-h", "--help", "-help"}:
        print(USAGE, end="", file=sys.stdout if rest else sys.stderr)
        return 0 if rest else 2
    try:
        if command == "correlate":
            return _correlate(rest)
        return _tune(rest)
    except UsageError as error:
        print(f"tmtprime: error: {error}", file=sys.stderr)
        return 2
    except TmtprimeError as error:
        print(f"tmtprime: error: {error}", file=sys.stderr)
        return error.exit_code


def _split(argv: list[str]) -> tuple[list[str], dict[str, str], dict[str, list[str]], set[str]]:
    """Take the extension options out; what remains is parsed as ``tmtprime meteor`` options."""
    from tmtprime.errors import UsageError

    rest: list[str] = []
    values: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    flags: set[str] = set()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _EXT_VALUES or arg in _EXT_MULTI:
            if i + 1 >= len(argv):
                raise UsageError(f"option {arg} needs a value")
            if arg in _EXT_MULTI:
                multi.setdefault(arg, []).append(argv[i + 1])
            else:
                values[arg] = argv[i + 1]
            i += 2
            continue
        if arg in _EXT_FLAGS:
            flags.add(arg)
        else:
            rest.append(arg)
        i += 1
    return rest, values, multi, flags


def _number(option: str, text: str, kind=float):
    from tmtprime.errors import UsageError

    try:
        return kind(text)
    except ValueError:
        raise UsageError(f"option {option} needs a number, got {text!r}") from None


def _scorer(argv: list[str]):
    """The judgment file, the configured scorer and the remaining extension options."""
    from tmtprime.cli import meteor as jar_cli
    from tmtprime.errors import UsageError

    rest, ext, multi, flags = _split(argv)
    try:
        files, values, jar_flags = jar_cli._parse(rest)
    except jar_cli._Exit as stop:
        raise UsageError(str(stop)) from None
    if len(files) != 1:
        raise UsageError(f"give exactly one judgment table, got {len(files)} file arguments ({' '.join(files)})")
    unsupported = sorted((set(values) | jar_flags) - {"-l", "-t", "-p", "-m", "-w", "-x", "-s", "-a", "-norm",
                                                      "-lower", "-noPunct"})  # fmt: skip
    if unsupported:
        raise UsageError(f"option {unsupported[0]} has no meaning here (see tmtprime meteor correlate --help)")
    extensions = _extensions(ext)
    try:
        meteor = jar_cli._build(values, jar_flags, **extensions)
    except jar_cli._Exit as stop:
        raise UsageError(str(stop)) from None
    return files[0], meteor, ext, multi, flags


def _extensions(ext: dict[str, str]) -> dict:
    """Scorer keyword arguments for the extension options given."""
    out: dict = {}
    if "--copy-words" in ext or "--copy-smoothing" in ext:
        from tmtprime.meteor.copy_words import CopyKnowledge

        spec = ext.get("--copy-words", "ne")
        smoothing = _number("--copy-smoothing", ext.get("--copy-smoothing", "10"))
        out["copy_knowledge"] = CopyKnowledge.from_spec(spec, smoothing)
    if "--syntax" in ext:
        from tmtprime.meteor.syntax import SyntaxStage

        out["syntax"] = SyntaxStage.open(
            ext["--syntax"],
            weight=_number("--syntax-weight", ext.get("--syntax-weight", "0.4")),
            max_distance=_number("--syntax-distance", ext.get("--syntax-distance", "3"), int),
        )
    elif "--syntax-weight" in ext or "--syntax-distance" in ext:
        from tmtprime.errors import UsageError

        raise UsageError("--syntax-weight and --syntax-distance need --syntax TABLE")
    return out


def _correlate(argv: list[str]) -> int:
    from tmtprime.meteor.correlation import correlations
    from tmtprime.meteor.judgments import read_judgments
    from tmtprime.meteor.tuning import score_rows
    from tmtprime.progress import ConsoleReporter

    path, meteor, ext, _multi, flags = _scorer(argv)
    reporter = ConsoleReporter(quiet="-q" in flags)
    judgments = read_judgments(path)
    jobs = _number("-j", ext["-j"], int) if "-j" in ext else 1
    scores = score_rows(meteor, judgments, reporter, n_jobs=jobs)
    result = correlations(scores, judgments.human, judgments.groups)
    sys.stdout.write("".join(line + "\n" for line in result.lines()))
    return 0


def _tune(argv: list[str]) -> int:
    from tmtprime.errors import UsageError
    from tmtprime.meteor.judgments import read_judgments
    from tmtprime.meteor.tuning import Grid, save_parameter_set, tune
    from tmtprime.progress import ConsoleReporter

    path, meteor, ext, multi, flags = _scorer(argv)
    if "-o" not in ext:
        raise UsageError("tune needs -o PARAMS.toml (where to write the tuned parameter set)")
    objective = ext.get("--objective", "kendall")
    if objective not in {"kendall", "pearson"}:
        raise UsageError(f"--objective must be kendall or pearson, got {objective!r}")
    grid = Grid.default(meteor).with_overrides(multi.get("--grid", []))
    reporter = ConsoleReporter(quiet="-q" in flags)
    judgments = read_judgments(path)
    jobs = _number("-j", ext["-j"], int) if "-j" in ext else 1
    folds = _number("--folds", ext.get("--folds", "5"), int)
    result = tune(meteor, judgments, grid, objective=objective, folds=folds, n_jobs=jobs, reporter=reporter,
                  state_path=ext["-o"] + ".partial")  # fmt: skip
    name = ext.get("--name")
    written = save_parameter_set(result, ext["-o"], name=name)
    for line in result.lines():
        print(line)
    print(f"written: {', '.join(str(p) for p in written)}")
    return 0
