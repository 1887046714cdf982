"""``tmtprime meteor paraphrase|funcwords|bitext-paraphrases``: build Meteor resources from the team's data.

Dispatched by :mod:`tmtprime.cli.meteor_tools`; each function takes the
arguments after its name. Bitexts are read with :func:`tmtprime.formats.read_tm`
(TMX, XLIFF, PO, CSV/TSV with a header, parallel text with ``--target-file``).
"""

from __future__ import annotations

import argparse
import gzip
import sys
from collections.abc import Iterator
from pathlib import Path

from tmtprime.cli._common import add_quiet, progress_reporter
from tmtprime.errors import InputError, UsageError
from tmtprime.progress import Reporter


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"tmtprime meteor {prog}", description=description, allow_abbrev=False)
    add_quiet(parser)
    return parser


def _bitext_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source-col", help="source column of a CSV/TSV bitext (default: inferred, e.g. 'source')")
    parser.add_argument("--target-col", help="target column of a CSV/TSV bitext (default: inferred, e.g. 'target')")
    parser.add_argument("--target-file", help="line-aligned target file when the bitext is parallel plain text")


def _bitext(path: str, ns: argparse.Namespace, source_lang: str, target_lang: str) -> list[tuple[str, str]]:
    """(source, target) pairs of a bitext file (units with an empty side skipped)."""
    from tmtprime.formats import ColumnMapping
    from tmtprime.workflows.importing import file_pairs

    mapping = ColumnMapping(source=ns.source_col, target=ns.target_col) if (ns.source_col or ns.target_col) else None
    pairs = file_pairs(path, mapping=mapping, source_lang=source_lang, target_lang=target_lang, target_file=ns.target_file)
    return [(s, t) for s, t in pairs if s.strip() and t.strip()]


def _lines(path: str) -> Iterator[str]:
    """Lines of a plain text file (``.gz`` looked through), without line ends."""
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")) as f:
            for line in f:
                yield line.rstrip("\r\n")
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", file=path) from None
    except (UnicodeDecodeError, EOFError) as error:
        raise InputError(f"not UTF-8 text ({error})", file=path) from None


def _with_size(spec: str) -> tuple[str, int | None]:
    """``FILE`` or ``FILE:SIZE`` (the corpus size used to weight a merge)."""
    path, colon, size = spec.rpartition(":")
    if colon and size.isdigit() and path:
        return path, int(size)
    return spec, None


# --- paraphrase ---------------------------------------------------------------------------------------------


def paraphrase(argv: list[str]) -> int:
    """``tmtprime meteor paraphrase build|merge|compile``."""
    parser = argparse.ArgumentParser(prog="tmtprime meteor paraphrase", allow_abbrev=False,
                                     description="Pivot paraphrase tables in Meteor's format (Meteor-NEXT).")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = sub.add_parser("build", help="pivot a table from bitexts and/or Moses phrase tables", allow_abbrev=False,
                           description="P(n2|n1) = sum_f P(f|n1) P(n2|f) with the filters of Meteor-NEXT and Meteor 1.3; "
                           "several inputs are merged weighted by corpus size.")
    add_quiet(build)
    build.add_argument("-l", "--lang", required=True, help="language of the paraphrases (the native side), e.g. es")
    build.add_argument("--source-lang", help="the other (pivot) language of the bitexts, e.g. en")
    build.add_argument("--bitext", action="append", default=[], metavar="FILE",
                       help="a bitext (TM): word-aligned with the built-in IBM-1 aligner and phrase-extracted; repeatable")
    _bitext_options(build)
    build.add_argument("--native", choices=("target", "source"), default="target",
                       help="which side of the inputs is in the language -l (default: target)")
    build.add_argument("--alignments", metavar="FILE",
                       help="Pharaoh 'i-j' links from an external aligner (eflomal, fast_align) for the single --bitext, "
                       "over the scorer's -norm tokens")
    build.add_argument("--moses", action="append", default=[], metavar="FILE[:SIZE]",
                       help="a Moses phrase table (f ||| e ||| p(f|e) lex p(e|f) lex); SIZE = its corpus size in "
                       "sentence pairs for merging; repeatable")
    build.add_argument("--common-native", metavar="WORDS", help="common words of the native language for --moses tables "
                       "(one per line, e.g. from 'tmtprime meteor funcwords')")
    build.add_argument("--common-foreign", metavar="WORDS", help="common words of the pivot language for --moses tables")
    build.add_argument("--max-phrase-len", type=int, default=4, help="longest phrase extracted from a bitext (default 4)")
    build.add_argument("--min-instance", type=float, default=0.001, help="drop instances with P(f|n1)P(n2|f) below (default 0.001)")
    build.add_argument("--common-frequency", type=float, default=0.001,
                       help="relative frequency from which a word of a --bitext is common (default 0.001)")
    build.add_argument("--threshold", type=float, default=0.01, help="final threshold on P(n2|n1) (default 0.01; 0 for a table to merge later)")
    build.add_argument("-o", "--output", required=True, help="the table to write (Meteor format; .gz compresses)")
    build.add_argument("--no-compile", action="store_true", help="do not compile the scorer's index now (it is compiled on first use)")
    merge = sub.add_parser("merge", help="merge tables of one language weighted by corpus size", allow_abbrev=False)
    add_quiet(merge)
    merge.add_argument("tables", nargs="+", metavar="TABLE:SIZE", help="Meteor-format tables, each with its corpus size")
    merge.add_argument("-l", "--lang", required=True)
    merge.add_argument("--threshold", type=float, default=0.01, help="final threshold (default 0.01)")
    merge.add_argument("-o", "--output", required=True)
    merge.add_argument("--no-compile", action="store_true")
    comp = sub.add_parser("compile", help="compile a Meteor-format table into the index the scorer opens", allow_abbrev=False)
    add_quiet(comp)
    comp.add_argument("table")
    comp.add_argument("-l", "--lang", default="en")
    ns = parser.parse_args(argv)
    reporter = progress_reporter(ns.quiet)
    if ns.action == "build":
        table = _build(ns, reporter)
    elif ns.action == "merge":
        table = _merge(ns)
    else:
        _compile(ns.table, ns.lang, reporter)
        print(f"compiled {ns.table}")
        return 0
    from tmtprime.meteor.pivot import threshold, write_table

    kept = threshold(table, ns.threshold)
    write_table(kept, ns.output)
    if not ns.no_compile:
        _compile(ns.output, ns.lang, reporter)
    print(f"{len(kept)} paraphrase pairs ({len({a for a, _ in kept})} phrases) written to {ns.output}")
    return 0


def _build(ns: argparse.Namespace, reporter: Reporter):
    from tmtprime.meteor.phrase_extract import read_pharaoh
    from tmtprime.meteor.pivot import build_from_bitext, merge, pivot, read_moses

    if not ns.bitext and not ns.moses:
        raise UsageError("give at least one --bitext or --moses input")
    if ns.bitext and not ns.source_lang:
        raise UsageError("--source-lang is needed with --bitext (the pivot language)")
    if ns.alignments and len(ns.bitext) != 1:
        raise UsageError("--alignments goes with exactly one --bitext")
    tables = []
    for path in ns.bitext:
        src_lang, tgt_lang = (ns.source_lang, ns.lang) if ns.native == "target" else (ns.lang, ns.source_lang)
        pairs = _bitext(path, ns, src_lang, tgt_lang)
        links = read_pharaoh(_lines(ns.alignments), name=ns.alignments) if ns.alignments else None
        if links is not None and len(links) != len(pairs):
            raise InputError(f"{len(links)} alignment lines for {len(pairs)} sentence pairs of {path}", file=ns.alignments)
        reporter.status(f"{path}: {len(pairs)} sentence pairs")
        tables.append(build_from_bitext(
            pairs, source_lang=src_lang, target_lang=tgt_lang, native=ns.native, max_phrase_len=ns.max_phrase_len,
            alignments=links, min_instance=ns.min_instance, common_frequency=ns.common_frequency, reporter=reporter,
        ))  # fmt: skip
    common_native = frozenset(_lines(ns.common_native)) - {""} if ns.common_native else frozenset()
    common_foreign = frozenset(_lines(ns.common_foreign)) - {""} if ns.common_foreign else frozenset()
    for spec in ns.moses:
        path, size = _with_size(spec)
        if size is None and len(ns.moses) + len(ns.bitext) > 1:
            raise UsageError(f"--moses {path}: give its corpus size (FILE:SIZE) to merge it with other inputs")
        bilingual = read_moses(_lines(path), native=ns.native, corpus_size=size or 1, name=path,
                               common_native=common_native, common_foreign=common_foreign)
        tables.append((pivot(bilingual, min_instance=ns.min_instance, reporter=reporter), bilingual.corpus_size))
    return tables[0][0] if len(tables) == 1 else merge(tables)


def _merge(ns: argparse.Namespace):
    from tmtprime.meteor.pivot import merge, read_table

    tables = []
    for spec in ns.tables:
        path, size = _with_size(spec)
        if size is None:
            raise UsageError(f"{spec}: give each table's corpus size as TABLE:SIZE")
        tables.append((read_table(path), size))
    return merge(tables)


def _compile(path: str, lang: str, reporter: Reporter) -> None:
    from tmtprime.meteor.paraphrase import ParaphraseTable

    ParaphraseTable.open(lang, path=path, reporter=reporter)


# --- funcwords ----------------------------------------------------------------------------------------------


def funcwords(argv: list[str]) -> int:
    """``tmtprime meteor funcwords CORPUS... -l LANG -o FILE``."""
    parser = _parser("funcwords", "Function words of a monolingual corpus (relative frequency >= 1e-3, Meteor 1.3); "
                     "the list works with 'tmtprime meteor ... -s FILE'.")
    parser.add_argument("corpus", nargs="+", help="plain text, one segment per line (.gz read too)")
    parser.add_argument("-l", "--lang", required=True)
    parser.add_argument("--min-frequency", type=float, default=1e-3, help="relative frequency threshold (default 1e-3)")
    parser.add_argument("-o", "--output", required=True, help="word list to write (one word per line)")
    ns = parser.parse_args(argv)
    from tmtprime.meteor.funcwords import learn_function_words, write_word_list

    lines = (line for path in ns.corpus for line in _lines(path))
    words = learn_function_words(lines, ns.lang, ns.min_frequency, progress_reporter(ns.quiet))
    write_word_list(words, ns.output)
    print(f"{len(words)} function words written to {ns.output}")
    return 0


# --- bitext-paraphrases -------------------------------------------------------------------------------------


def bitext_paraphrases(argv: list[str]) -> int:
    """``tmtprime meteor bitext-paraphrases SOURCE REFERENCE -l LANG --source-lang LANG -o REFS``."""
    parser = _parser("bitext-paraphrases", "Extra references by single substitution from equivalence sets aligned in "
                     "the evaluation bitext itself (source + reference). Writes N references per segment "
                     "(use with 'tmtprime meteor HYP REFS -r N -norm' or any multi-reference metric).")
    parser.add_argument("source", help="source text, one segment per line")
    parser.add_argument("reference", help="reference translation, line-aligned with the source")
    parser.add_argument("-l", "--lang", required=True, help="language of the reference")
    parser.add_argument("--source-lang", required=True)
    parser.add_argument("--train-bitext", metavar="FILE", help="extra parallel data (e.g. the TM) to train the aligner on")
    _bitext_options(parser)
    parser.add_argument("--closed-class", metavar="WORDS", help="closed-class words of the reference language "
                        "(default: the jar's function words of the language)")
    parser.add_argument("--max-phrase-len", type=int, default=3)
    parser.add_argument("--max-refs", type=int, default=20, help="references per segment at most (default 20)")
    parser.add_argument("--sets", metavar="FILE", help="also write the equivalence sets (source phrase TAB elements joined by ' | ')")
    parser.add_argument("--hyp", help="a system output: print its Meteor, BLEU and TER with one and with all references")
    parser.add_argument("-o", "--output", required=True, help="references, segment by segment (N lines each)")
    ns = parser.parse_args(argv)
    from tmtprime.meteor.bitext_paraphrase import (
        equivalence_sets, expand_reference, padded_streams, score_with_references, substitution_index,
    )  # fmt: skip

    sources, references = list(_lines(ns.source)), list(_lines(ns.reference))
    if len(sources) != len(references):
        raise InputError(f"{len(references)} lines, the source {ns.source} has {len(sources)}", file=ns.reference)
    training = _bitext(ns.train_bitext, ns, ns.source_lang, ns.lang) if ns.train_bitext else []
    closed = frozenset(_lines(ns.closed_class)) - {""} if ns.closed_class else None
    sets = equivalence_sets(sources, references, source_lang=ns.source_lang, lang=ns.lang, max_phrase_len=ns.max_phrase_len,
                            closed_target=closed, training_pairs=training, reporter=progress_reporter(ns.quiet))
    index = substitution_index(sets)
    refs = [expand_reference(r, index, ns.lang, max_refs=ns.max_refs) for r in references]
    streams = padded_streams(refs)
    try:
        with open(ns.output, "w", encoding="utf-8") as f:
            for k in range(len(refs)):
                f.writelines(stream[k] + "\n" for stream in streams)
        if ns.sets:
            Path(ns.sets).write_text("".join(f"{s.source}\t{' | '.join(s.phrases)}\n" for s in sets), encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror}", file=error.filename) from None
    added = sum(len(r) - 1 for r in refs)
    print(f"{len(sets)} equivalence sets; {added} extra references ({added / max(len(refs), 1):.2f} per segment); "
          f"{ns.output} holds {len(streams)} references per segment (-r {len(streams)})")
    if ns.hyp:
        hyps = list(_lines(ns.hyp))
        single = score_with_references(hyps, [[r[0]] for r in refs], ns.lang)
        multi = score_with_references(hyps, refs, ns.lang)
        for name in ("meteor", "bleu", "ter"):
            print(f"{name}: one reference {single[name]:.4f}  with bitext paraphrases {multi[name]:.4f}")
    sys.stdout.flush()
    return 0
