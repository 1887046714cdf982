"""Benchmark: how many candidates break a printf format string of their source, per system.

gettext's ``msgfmt --check`` refuses a translation whose ``%s``/``%1$d``
directives differ from the source's (a missing or extra argument, another
type); shipped anyway, it crashes or garbles the program. On the shared dev
strings (``../shared/data/tm_l10n_en-es/<scenario>/dev.tsv.gz``), for every
string whose source is a format string (:func:`~tmtprime.formats.printf.has_directives`:
``99% of`` is prose, as for xgettext), this counts per system (the TM match, the
three Apertium outputs, and the human reference as a sanity line) the
candidates that break them, with :func:`tmtprime.formats.printf.breaks_format`.

Cross-check with the real tool: each system's candidates are written as one
catalogue of ``c-format`` entries and ``msgfmt --check-format`` counts its
fatal errors; the two counts must agree.

With ``--project P.db`` the picks of the project's newest model are counted too
(per picked system).

Target: every breaking pick is caught, i.e. ``TMTprime check == msgfmt`` on every
line, so a PO export can mark each one ``#, fuzzy`` (and ``msgfmt --check`` passes).
Run: ``python3 bench/po_format_check.py [--shared DIR] [--project P.db]``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _shared_data import MT_COLUMNS, read_tsv, shared_data_dir  # noqa: E402

from tmtprime.formats.po_writer import string_lines  # noqa: E402
from tmtprime.formats.printf import breaks_format, has_directives  # noqa: E402

SYSTEMS = {"tm": "tm_target", **MT_COLUMNS, "reference": "reference"}


def msgfmt_errors(pairs: list[tuple[str, str]]) -> int | None:
    """Fatal errors ``msgfmt --check-format`` finds in ``c-format`` entries source -> translation."""
    if shutil.which("msgfmt") is None:
        return None
    body = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: es\\n"\n']
    for i, (source, translation) in enumerate(pairs):
        body.append(f"#, c-format\n{string_lines('msgctxt', str(i))}{string_lines('msgid', source)}"
                    f"{string_lines('msgstr', translation)}")
    with tempfile.TemporaryDirectory() as tmp:
        po = Path(tmp) / "check.po"
        po.write_text("\n".join(body), encoding="utf-8")
        done = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    # one entry may get several messages; count entries (by line) with an error
    return len({m.group(1) for m in re.finditer(r"check\.po:(\d+): ", done.stderr)})


def scenario(path: Path) -> None:
    rows = [r for r in read_tsv(path) if has_directives(r["source"])]
    print(f"\n{path.parent.name}: {len(rows)} strings with printf directives (of {len(read_tsv(path))})")
    print(f"  {'system':<22} {'candidates':>10} {'break':>6} {'share':>7} {'msgfmt':>7}")
    for name, column in SYSTEMS.items():
        pairs = [(r["source"], r[column]) for r in rows if r[column].strip()]
        broken = sum(breaks_format(s, t) for s, t in pairs)
        checked = msgfmt_errors(pairs)
        share = broken / len(pairs) if pairs else 0.0
        print(f"  {name:<22} {len(pairs):>10} {broken:>6} {share:>7.1%} {'-' if checked is None else checked:>7}")


def project_picks(path: Path) -> None:
    from tmtprime.store import Store

    with Store.open(path) as store:
        model = store.recommendations.latest_model()
        if model is None:
            print(f"\n{path}: no recommendations")
            return
        segs = [s for s in store.segments.list(role="document") if has_directives(s.source)]
        store.recommendations.fill(segs, model=model)
    total, broken = Counter(), Counter()
    pairs = []
    for seg in segs:
        pick = seg.pick
        if pick is None:
            continue
        total[pick.candidate.system] += 1
        broken[pick.candidate.system] += breaks_format(seg.source, pick.candidate.text)
        pairs.append((seg.source, pick.candidate.text))
    print(f"\npicks of model {model!r} in {path.name}: {len(pairs)} picked strings with printf directives")
    print(f"  {'picked system':<22} {'picks':>10} {'break':>6}")
    for system in sorted(total):
        print(f"  {system:<22} {total[system]:>10} {broken[system]:>6}")
    print(f"  {'all picks':<22} {len(pairs):>10} {sum(broken.values()):>6}   msgfmt: {msgfmt_errors(pairs)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, help="the tm_l10n_en-es directory (default: found like the tests do)")
    ap.add_argument("--project", type=Path, help="also count the picks of this project")
    args = ap.parse_args()
    data = args.shared or shared_data_dir()
    if data is None:
        sys.exit("shared data not found (give --shared)")
    print("target: the TMTprime check agrees with msgfmt on every line (each breaking pick gets '#, fuzzy')")
    for name in ("update", "crossproject"):
        scenario(data / name / "dev.tsv.gz")
    if args.project:
        project_picks(args.project)


if __name__ == "__main__":
    main()
