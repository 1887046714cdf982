"""The segment-page use case: the lines a segment list shows agree with the estimate (repetitions included),
a user's pick or edited text is stored, and an export of what is shown writes just that."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tmtprime import workflows as wf
from tmtprime.cost import estimate_costs, load_scheme
from tmtprime.errors import UsageError
from tmtprime.formats import ColumnMapping
from tmtprime.store import CandidatePrediction, NewRecommendation, Store, import_file
from tmtprime.workflows.segment_page import EDITED_SYSTEMS

ROWS = [  # source, TM source, TM target, fuzzy, MT; "Save the file" comes twice: a repetition
    ("Open the file", "Open the file", "Abra el archivo", "100", "Abre el archivo"),
    ("Save the file", "Save a file", "Guarde un archivo", "80", "Guarda el archivo"),
    ("Close the window", "Close a window", "Cierre una ventana", "70", "Cierra la ventana"),
    ("Save the file", "Save a file", "Guarde un archivo", "80", "Guarda el archivo"),
    ("Print the report", "Print a page", "Imprima una página", "55", "Imprime el informe"),
]


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Store]:
    for name, rows in (("a.tsv", ROWS), ("b.tsv", ROWS[:2])):
        with open(tmp_path / name, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["source", "tm_source", "tm_target", "tm_fuzzy", "mt_a"])
            w.writerows(rows)
    store = Store.create(tmp_path / "p.db", source_lang="en", target_lang="es")
    mapping = ColumnMapping(source="source", tm="tm_target", tm_source="tm_source", tm_score="tm_fuzzy", mt={"mt-a": "mt_a"})
    for name in ("a.tsv", "b.tsv"):
        import_file(store, tmp_path / name, role="document", mapping=mapping)
    store.models.save("m", b"", {"what": "picks of the test"})
    recs = []
    for n, seg in enumerate(store.segments.iter(role="document")):
        preds = {c.id: CandidatePrediction(0.5, 10.0 + 20 * ((n + j) % 3), 0.5) for j, c in enumerate(seg.candidates)}
        pick = min(preds, key=lambda cid: preds[cid].predicted_ter)
        recs.append(NewRecommendation(seg.id, pick, 0.7, preds))
    store.recommendations.save("m", recs)
    yield store
    store.close()


def test_the_lines_bands_are_the_estimates_bands_repetitions_included(project):
    scheme = load_scheme("matecat")
    bands = wf.pick_bands(project, scheme)
    lines = list(wf.segment_lines(project, wf.SegmentQuery(), bands))
    counted = {band: int(v["segments"]) for band, v in estimate_costs(project, scheme).plan("tmtprime").by_band.items()}
    assert dict(Counter(line.band for line in lines)) == counted
    assert "repetitions" in counted and bands.names == list(counted)
    only_b = list(wf.segment_lines(project, wf.SegmentQuery(document="b.tsv"), bands))
    assert [line.segment.document for line in only_b] == ["b.tsv", "b.tsv"]


def test_choose_stores_a_pick_or_an_edited_text_and_back(project):
    line = next(wf.segment_lines(project, wf.SegmentQuery()))
    other = next(c for c in line.segment.candidates if c.id != line.pick.candidate.id)
    chosen = wf.choose(project, line, other.id)
    assert chosen.pick.candidate.id == other.id and chosen.pick.overridden
    edited = wf.choose(project, chosen, other.id, text=other.text + " ya")
    assert edited.pick.candidate.text == other.text + " ya" and edited.pick.candidate.origin == "edited"
    assert edited.pick.candidate.system == EDITED_SYSTEMS[other.kind]
    again = next(wf.segment_lines(project, wf.SegmentQuery()))
    assert again.pick.candidate.text == other.text + " ya"
    back = wf.choose(project, again, None)
    assert back.pick.candidate.id == line.pick.candidate.id and not back.pick.overridden


def test_export_shown_writes_the_filtered_lines_and_refuses_a_folder_in_disguise(project, tmp_path):
    query = wf.SegmentQuery(system="mt-a")
    shown = list(wf.segment_lines(project, query))
    out = tmp_path / "shown.csv"
    wf.export_shown(project, query, "csv", str(out))
    with open(out, encoding="utf-8") as f:
        assert len(list(csv.DictReader(f))) == len(shown) > 0
    with pytest.raises(UsageError, match="one file per document"):
        wf.export_shown(project, wf.SegmentQuery(), "xliff", str(tmp_path / "picks.xlf"))
    assert not (tmp_path / "picks.xlf").exists()
    wf.export_shown(project, wf.SegmentQuery(document="b.tsv"), "xliff", str(tmp_path / "picks.xlf"))
    assert (tmp_path / "picks.xlf").is_file()
    with pytest.raises(UsageError, match="no segments"):
        wf.export_shown(project, wf.SegmentQuery(text="nowhere at all"), "csv", str(tmp_path / "none.csv"))
