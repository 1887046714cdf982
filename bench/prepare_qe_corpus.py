"""Prepare an English-Spanish news/parliament bitext for the QE features (issue 31), outside the repo.

The WMT12 QE baseline read LMs and an IBM-1 table built from in-domain corpora
(Europarl and news). The one public source the team can reach with the
``fetch`` tool is the GitHub repository ``devonzuegel/fiesta`` (a Stanford
course project), which holds

* ``es-en/train/europarl-v7.es-en.{en,es}``: the first 20,000 lines of
  Europarl v7 (Koehn 2005; statmt.org/europarl: "we are not aware of any
  copyright restrictions of the material");
* ``es-en/dev/newstest2012.*`` and ``es-en/test/newstest2013.*``: the WMT
  2012/2013 news test sets (3,003 + 3,000 sentences; WMT releases them for
  research use, as the WMT12 QE data itself).

newstest2012 is left out by default: 234 of the WMT12 QE test set's 422
sources are newstest2012 sentences, so its other sentences are the test
documents' context (and their human translations). This script reads those files from the fetched git directory, undoes the Moses tokenization,
drops empty lines, repeats and every pair whose English side is a source of the WMT12 QE training
or test set (6 of newstest2012's sentences are in the QE test set), and writes
one TSV (``source``, ``target``) that ``tmtprime import P --as corpus`` reads:

    python3 bench/prepare_qe_corpus.py /work/.mirror/devonzuegel+fiesta/repo /tmp/effort_cache/en-es-news.tsv
    python3 bench/prepare_qe_corpus.py REPO resources/qe/en-es.tsv.gz --only europarl   # the shipped resource

The shipped ``resources/qe/en-es.tsv.gz`` is the Europarl part alone (no
research-use clause); a ``.gz`` output is written reproducibly (gzip mtime 0).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import html
import io
import re
import subprocess
import sys
from pathlib import Path

PARTS = {
    "europarl": "es-en/train/europarl-v7.es-en",
    "newstest2012": "es-en/dev/newstest2012",
    "newstest2013": "es-en/test/newstest2013",
}
QE_SETS = ("wmt12_qe_en-es_train.tsv.gz", "wmt12_qe_en-es_test.tsv.gz")


_NO_SPACE_BEFORE = re.compile(r" ([,.;:?!%)\]}]|'s\b|n't\b)")
_NO_SPACE_AFTER = re.compile(r"([(\[{¿¡$]) ")


def detokenize(line: str) -> str:
    """Undo the Moses tokenizer's escapes and the spaces it put around punctuation (the files are tokenized)."""
    text = html.unescape(" ".join(line.split()))
    return _NO_SPACE_AFTER.sub(r"\1", _NO_SPACE_BEFORE.sub(r"\1", text))


def _show(git_dir: Path, path: str) -> list[str]:
    out = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"], capture_output=True, check=True)
    return out.stdout.decode("utf-8").splitlines()


def _qe_sources(shared: Path) -> set[str]:
    sources: set[str] = set()
    for name in QE_SETS:
        path = shared / name
        if path.exists():
            with gzip.open(path, "rt", encoding="utf-8") as f:
                header = f.readline().rstrip("\n").split("\t")
                at = header.index("source")
                sources.update(line.rstrip("\n").split("\t")[at].strip() for line in f)
    return sources


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path, help="the fetched git directory of devonzuegel/fiesta")
    parser.add_argument("out", type=Path, help="the TSV to write (keep it out of the repo)")
    parser.add_argument("--only", default="europarl,newstest2013",
                        help=f"parts to keep, of {', '.join(PARTS)} (default: europarl,newstest2013)")
    parser.add_argument("--shared", type=Path, default=Path("/work/shared/data/post_editing"),
                        help="where the WMT12 QE sets are (their sources are left out of the corpus)")
    ns = parser.parse_args()
    held_out = _qe_sources(ns.shared)
    if not held_out:
        print(f"{ns.shared}: no WMT12 QE set found; cannot check the corpus against it", file=sys.stderr)
        return 2
    pairs: dict[tuple[str, str], None] = {}
    dropped = 0
    for part in ns.only.split(","):
        stem = PARTS[part]
        en, es = _show(ns.repo, f"{stem}.en"), _show(ns.repo, f"{stem}.es")
        if len(en) != len(es):
            print(f"{stem}: {len(en)} English but {len(es)} Spanish lines; not a bitext", file=sys.stderr)
            return 2
        for s, t in zip(en, es):
            s, t = detokenize(s), detokenize(t)
            if not s or not t:
                continue
            if s in held_out:
                dropped += 1
                continue
            pairs[(s, t)] = None
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    raw = gzip.GzipFile(ns.out, "wb", compresslevel=9, mtime=0) if ns.out.suffix == ".gz" else open(ns.out, "wb")
    with raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(("source", "target"))
        writer.writerows(pairs)
    print(f"{ns.out}: {len(pairs)} pairs ({dropped} left out: sources of the WMT12 QE sets)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
