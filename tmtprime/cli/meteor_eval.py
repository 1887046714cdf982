"""``tmtprime meteor correlate|tune|copy-words|syntax-table``: Meteor against human judgments, and its resources.

Both take a judgment table (``doc_id seg_id system source reference
hypothesis human_score``, see :mod:`tmtprime.meteor.judgments`) and the
scoring options of ``tmtprime meteor`` (``-l -t -p -m -w -x -s -a -norm
-lower -noPunct``), plus the extensions: ``--copy-words FILE|ne|FILE+ne``
and ``--copy-smoothing X`` (Meteor++ copy knowledge), ``--syntax TABLE``,
``--syntax-weight W`` and ``--syntax-distance D`` (Meteor++ 2.0 syntax
stage). ``copy-words`` and ``syntax-table`` build those resources from a TM
or from the best-judged rows of a judgment table. ``tmtprime meteor`` hands
its arguments here when the first one names one of these (:mod:`tmtprime.cli.meteor_tools`).
"""

from __future__ import annotations

import sys

from tmtprime.cli import meteor as jar_cli
from tmtprime.cli._common import progress_reporter
from tmtprime.errors import UsageError

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

  tmtprime meteor copy-words FILE -o WORDS.tsv [--from tm|judgments] [-F 2] [-P 0.8] [--min-human Q] [-l LANG]
      copy words {w : C(w) >= F and p_w >= P} from a TM (any format tmtprime import reads; source and
      target) or from the rows of a judgment table whose human_score is in the top quantile Q (default 0.8)
  tmtprime meteor syntax-table FILE -o TABLE [--min-count 2] [--min-human Q] [-l LANG]
      skip-gram paraphrase pairs from the best-judged rows of a judgment table (aligned with exact stem)
"""


_EXT_VALUES = {"--copy-words", "--copy-smoothing", "--syntax", "--syntax-weight", "--syntax-distance", "-j", "-o",
               "--name", "--objective", "--folds", "--from", "-F", "-P", "--min-human", "--min-count"}  # fmt: skip
_EXT_MULTI = {"--grid"}
_EXT_FLAGS = {"-q"}


def _usage_or(args: list[str], action) -> int:
    """The usage text for no arguments or ``--help``, else ``action(args)``."""
    if not args or args[0] in {"-h", "--help", "-help"}:
        print(USAGE, end="", file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    return action(args)


def correlate(args: list[str]) -> int:
    """``tmtprime meteor correlate``."""
    return _usage_or(args, _correlate)


def tune(args: list[str]) -> int:
    """``tmtprime meteor tune``."""
    return _usage_or(args, _tune)


def copy_words(args: list[str]) -> int:
    """``tmtprime meteor copy-words``."""
    return _usage_or(args, lambda rest: _build_resource("copy-words", rest))


def syntax_table(args: list[str]) -> int:
    """``tmtprime meteor syntax-table``."""
    return _usage_or(args, lambda rest: _build_resource("syntax-table", rest))


def _split(argv: list[str]) -> tuple[list[str], dict[str, str], dict[str, list[str]], set[str]]:
    """Take the extension options out; what remains is parsed as ``tmtprime meteor`` options."""
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
    try:
        return kind(text)
    except ValueError:
        raise UsageError(f"option {option} needs a number, got {text!r}") from None


def _scorer(argv: list[str]):
    """The judgment file, the configured scorer and the remaining extension options."""
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
        raise UsageError("--syntax-weight and --syntax-distance need --syntax TABLE")
    return out


def _correlate(argv: list[str]) -> int:
    from tmtprime.meteor.correlation import correlations
    from tmtprime.meteor.judgments import read_judgments
    from tmtprime.meteor.tuning import score_rows

    path, meteor, ext, _multi, flags = _scorer(argv)
    reporter = progress_reporter("-q" in flags)
    judgments = read_judgments(path)
    jobs = _number("-j", ext["-j"], int) if "-j" in ext else 1
    scores = score_rows(meteor, judgments, reporter, n_jobs=jobs)
    result = correlations(scores, judgments.human, judgments.groups)
    sys.stdout.write("".join(line + "\n" for line in result.lines()))
    return 0


def _tune(argv: list[str]) -> int:
    from tmtprime.meteor.judgments import read_judgments
    from tmtprime.meteor.tuning import Grid, save_parameter_set, tune

    path, meteor, ext, multi, flags = _scorer(argv)
    if "-o" not in ext:
        raise UsageError("tune needs -o PARAMS.toml (where to write the tuned parameter set)")
    objective = ext.get("--objective", "kendall")
    if objective not in {"kendall", "pearson"}:
        raise UsageError(f"--objective must be kendall or pearson, got {objective!r}")
    grid = Grid.default(meteor).with_overrides(multi.get("--grid", []))
    reporter = progress_reporter("-q" in flags)
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


def _build_resource(command: str, argv: list[str]) -> int:
    """``copy-words`` and ``syntax-table``: extract from data, write ``-o``."""
    import numpy as np

    from tmtprime.meteor.copy_words import extract_copy_words, write_copy_words
    from tmtprime.meteor.scorer import Meteor

    rest, ext, _multi, flags = _split(argv)
    files = [a for a in rest if not a.startswith("-")]
    options = [a for a in rest if a.startswith("-")]
    lang = "en"
    if "-l" in rest:
        at = rest.index("-l")
        if at + 1 >= len(rest):
            raise UsageError("option -l needs a value")
        lang = rest[at + 1]
        files = [f for f in files if f != lang]
        options = [o for o in options if o != "-l"]
    if options:
        raise UsageError(f"option {options[0]} has no meaning for {command} (see tmtprime meteor {command} --help)")
    if len(files) != 1 or "-o" not in ext:
        raise UsageError(f"usage: tmtprime meteor {command} FILE -o OUTPUT (see --help)")
    reporter = progress_reporter("-q" in flags)
    tokenizer = Meteor(lang, modules=("exact", "stem") if command == "syntax-table" else ("exact",), normalize=True)
    source = ext.get("--from", "tm" if command == "copy-words" else "judgments")
    if source not in {"tm", "judgments"} or (command == "syntax-table" and source != "judgments"):
        raise UsageError(f"--from {source!r}: {command} reads " + ("tm or judgments" if command == "copy-words" else "judgments"))
    reporter.status(f"reading {files[0]}")
    if source == "tm":
        from tmtprime.workflows.importing import file_pairs

        pairs = [(tokenizer.tokenize(s), tokenizer.tokenize(t)) for s, t in file_pairs(files[0])]
    else:
        from tmtprime.meteor.judgments import read_judgments

        j = read_judgments(files[0])
        quantile = _number("--min-human", ext.get("--min-human", "0.8"))
        if not 0.0 <= quantile <= 1.0:
            raise UsageError(f"--min-human is a quantile between 0 and 1, got {quantile}")
        keep = np.flatnonzero(j.human >= np.quantile(j.human, quantile)).tolist()
        pairs = [(tokenizer.tokenize(j.hypotheses[i]), tokenizer.tokenize(j.references[i])) for i in keep]
    reporter.status(f"extracting from {len(pairs)} pairs")
    if command == "copy-words":
        words = extract_copy_words(pairs, _number("-F", ext.get("-F", "2"), int), _number("-P", ext.get("-P", "0.8")))
        write_copy_words(words, ext["-o"])
        print(f"{len(words)} copy words from {len(pairs)} pairs written to {ext['-o']}")
        return 0
    from tmtprime.meteor.syntax import extract_pairs, write_table

    aligned = []
    for h, r in reporter.track(pairs, desc="aligning"):
        aligned.append((h, r, tokenizer.align_tokens(h, r)))
    kept = write_table(extract_pairs(aligned, tokenizer.function_words), ext["-o"], _number("--min-count", ext.get("--min-count", "2"), int))
    print(f"{kept} skip-gram pairs from {len(pairs)} pairs written to {ext['-o']}")
    return 0
