"""Reports of a recommended project in every format, and the ``cost``/``report`` commands."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from matplotlib.figure import Figure

from tests.conftest import require
from tmtprime.cli import main
from tmtprime.cost import estimate_costs, load_scheme
from tmtprime.report import REPORT_FORMATS, write_report
from tmtprime.report.figures import confidence_histogram, cost_bars, systems_pie
from tmtprime.store import Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def estimate(recommended_project):
    with Store.open(recommended_project) as store:
        return estimate_costs(store, load_scheme("matecat"))


def test_estimate_of_a_project_with_partial_references(estimate):
    assert estimate.segments == 100 and estimate.reference_segments == 60
    assert estimate.documents == ["dev.tsv.gz", "new.tsv.gz"]
    assert [p.plan for p in estimate.plans] == ["tm", "apertium_eng-spa", "apertium_eng-cat-spa", "apertium_en-gl-es", "rule", "tmtprime", "cost-aware", "oracle"]
    for p in estimate.plans:
        assert p.actual_cost is not None and p.estimate_on_references is not None
        assert p.estimate_on_references < p.cost  # the estimate over 60 of the 100 segments
        assert sum(v["segments"] for v in p.by_band.values()) == 100
        assert sum(v["segments"] for v in p.by_document.values()) == 100
        assert sum(v["cost"] for v in p.by_document.values()) == pytest.approx(p.cost)
        assert p.by_document["new.tsv.gz"]["actual_cost"] is None
    assert estimate.plan("cost-aware").cost <= estimate.best_single.cost
    # the oracle: the cheapest candidate by actual cost where actuals exist, so no plan's actual is lower
    assert estimate.plan("oracle").actual_cost <= min(p.actual_cost for p in estimate.plans)
    assert sum(sum(v["segments"]) for v in estimate.confidence["by_system"].values()) == 100
    assert estimate.confusion["segments"] == 60


def test_systems_filter_keeps_only_the_chosen_candidates(recommended_project, estimate):
    with Store.open(recommended_project) as store:
        est = estimate_costs(store, load_scheme("matecat"), systems=["tm", "apertium_eng-cat-spa"], document="dev.tsv.gz")
    assert est.segments == 60 and est.systems == ["tm", "apertium_eng-cat-spa"]
    assert set(est.plan("tmtprime").by_system) <= {"tm", "apertium_eng-cat-spa", "(none)"}
    assert est.plan("tm").cost == pytest.approx(estimate.plan("tm").by_document["dev.tsv.gz"]["cost"])


def test_json_has_the_stable_plan_keys(estimate, tmp_path):
    out = write_report(estimate, "json", tmp_path / "r.json")
    data = json.loads(Path(out).read_text(encoding="utf-8"))
    assert [p["plan"] for p in data["plans"]][-4:] == ["rule", "tmtprime", "cost-aware", "oracle"]
    for p in data["plans"]:
        assert {"plan", "words", "weighted_words", "cost", "actual_cost"} <= set(p)
        assert isinstance(p["cost"], float) and isinstance(p["actual_cost"], float)
    assert data["scheme"]["name"] == "matecat" and data["currency"] == "EUR"


def test_text_and_csv_agree(estimate):
    text = write_report(estimate, "text")
    assert "Analysis: the TM alone" in text and "Plans compared" in text and "Band confusion" in text
    rows = list(csv.reader(io.StringIO(write_report(estimate, "csv"))))
    plans = [r for r in rows if r[0] == "plans"]
    tp = next(r for r in plans if r[1] == "TMTprime")
    assert float(tp[3]) == pytest.approx(round(estimate.plan("tmtprime").cost, 2))
    assert f"{estimate.plan('tmtprime').cost:,.2f}" in text


def test_trados_xml_layout(estimate, tmp_path):
    root = etree.parse(str(write_report(estimate, "trados-xml", tmp_path / "a.xml"))).getroot()
    assert root.tag == "task" and root.get("name") == "analyse"
    files = root.findall("file")
    assert [f.get("name") for f in files] == ["dev.tsv.gz", "new.tsv.gz"]
    total = root.find("batchTotal/analyse")
    fuzzy = total.findall("fuzzy")
    assert [(f.get("min"), f.get("max")) for f in fuzzy] == [("95", "99"), ("85", "94"), ("75", "84"), ("50", "74")]
    parts = ["inContextExact", "exact", "repeated", "crossFileRepeated", "new"]
    counted = sum(int(total.find(p).get("segments")) for p in parts) + sum(int(f.get("segments")) for f in fuzzy)
    assert counted == int(total.find("total").get("segments")) == 100
    per_file = sum(int(f.find("analyse/total").get("words")) for f in files)
    assert per_file == int(total.find("total").get("words")) == estimate.words
    assert int(files[1].find("analyse/crossFileRepeated").get("segments")) > 0


def test_figures_draw_on_a_given_figure_without_pyplot(estimate):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    fig = Figure()
    for draw in (systems_pie, cost_bars, confidence_histogram):
        assert draw(estimate, fig) is fig and fig.axes
        assert isinstance(draw(estimate), Figure)
    assert plt.get_fignums() == before
    bars = cost_bars(estimate)
    heights = [round(p.get_height(), 6) for p in bars.axes[0].patches]
    assert round(estimate.plan("tmtprime").cost, 6) in heights and round(estimate.plan("tmtprime").actual_cost, 6) in heights


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_html_report_renders_in_headless_chromium_with_both_charts(estimate, tmp_path):
    browser = _chromium()
    require(browser is not None, "chromium")
    html = Path(write_report(estimate, "html", tmp_path / "report.html"))
    text = html.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "<script" not in text  # self-contained
    assert text.count('src="data:image/png;base64,') == 3
    # a page holding only the two charts of the paper, in place, so the screenshot's pixels can be checked
    charts = tmp_path / "charts.html"
    imgs = [line for line in text.splitlines() if 'id="img-systems"' in line or 'id="img-costs"' in line]
    charts.write_text("<!DOCTYPE html><html><body style='margin:0;background:#fff'>" + "".join(imgs) + "</body></html>", encoding="utf-8")
    for page, size in ((html, "1200,2400"), (charts, "900,1000")):
        shot = tmp_path / f"{page.stem}.png"
        result = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={size}",
             f"--screenshot={shot}", "--enable-logging=stderr", "--v=0", page.as_uri()],
            capture_output=True, text=True, timeout=120,
        )
        assert result.returncode == 0, result.stderr[-2000:]
        console = [line for line in result.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
        assert not console, console
        assert shot.is_file()
    from matplotlib.image import imread

    pixels = imread(str(tmp_path / "charts.png"))[:, :, :3]
    rows_with_colour = np.nonzero((pixels.max(axis=2) - pixels.min(axis=2) > 0.3).any(axis=1))[0]
    # matplotlib's C0 blue (pie wedge, estimate bars) and C1 orange (pie wedge, actual bars)
    blue = np.all(np.abs(pixels - np.array([0.12, 0.47, 0.71])) < 0.06, axis=2)
    orange = np.all(np.abs(pixels - np.array([1.0, 0.5, 0.05])) < 0.06, axis=2)
    pie_height = 4.0 * 110  # systems_pie is 4 inches high at 110 dpi, the bars chart below it
    assert blue[: int(pie_height)].sum() > 2000 and orange[: int(pie_height)].sum() > 2000, "pie chart missing"
    assert blue[int(pie_height) :].sum() > 2000 and orange[int(pie_height) :].sum() > 2000, "bar chart missing"
    assert rows_with_colour.max() > pie_height + 100


def test_pdf_report_renders_with_pdftoppm(estimate, tmp_path):
    require(shutil.which("pdftoppm") is not None, "pdftoppm (poppler-utils)")
    pdf = Path(write_report(estimate, "pdf", tmp_path / "report.pdf"))
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")], check=True, timeout=120)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) >= 4
    from matplotlib.image import imread

    def coloured(page: Path) -> int:
        px = imread(str(page))[:, :, :3]
        return int((px.max(axis=2) - px.min(axis=2) > 0.3).sum())

    # page 1 holds tables (black on white), pages 2-4 the charts (colour)
    assert coloured(pages[0]) < 200
    assert all(coloured(p) > 2000 for p in pages[1:4])


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tmtprime", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda t: t.replace("word_rate = 0.10 ", "word_rate = -0.10 "), "key 'word_rate': must be zero or more"),
        (lambda t: t.replace("[tm]\n", "[tm]\nhundred = 30\n"), "key 'tm.hundred': unknown key"),
        (lambda t: t.replace("{ min = 85, max = 94, payable = 60 },\n  { min = 75", "{ min = 80, max = 94, payable = 60 },\n  { min = 75"), "overlap"),
    ],
)
def test_cli_rejects_bad_schemes_in_one_line(tmp_path, recommended_project, edit, needle):
    text = (ROOT / "resources" / "cost" / "matecat.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    changed = edit(text)
    assert changed != text
    bad.write_text(changed, encoding="utf-8")
    for args in (["cost", "check", str(bad)], ["report", str(recommended_project), "--scheme", str(bad)]):
        result = cli(*args)
        assert result.returncode == 1
        lines = result.stderr.strip().splitlines()
        assert lines[-1].startswith(f"tmtprime: error: {bad}:") and needle in lines[-1], result.stderr
        assert "Traceback" not in result.stderr


def test_report_without_recommendations_names_the_command(unrecommended_project):
    result = cli("report", str(unrecommended_project))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"tmtprime: error: {unrecommended_project} has no recommendations yet; run 'tmtprime recommend {unrecommended_project}' first"


def test_cost_commands_and_a_stored_scheme(recommended_project, tmp_path, capsys):
    assert main(["cost", "schemes"]) == 0
    assert "matecat" in capsys.readouterr().out
    mine = tmp_path / "mine.toml"
    mine.write_text((ROOT / "resources" / "cost" / "memoq.toml").read_text(encoding="utf-8").replace("word_rate = 0.10", "word_rate = 0.20"), encoding="utf-8")
    assert main(["cost", "save", str(recommended_project), str(mine), "--name", "agency"]) == 0
    assert main(["cost", "schemes", str(recommended_project)]) == 0
    assert "agency\tstored" in capsys.readouterr().out
    assert main(["cost", "show", "agency", "--project", str(recommended_project)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["word_rate"] == 0.20 and shown["name"] == "memoq"
    out = tmp_path / "r.json"
    assert main(["report", str(recommended_project), "--scheme", "agency", "-o", str(out), "-q"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["word_rate"] == 0.20 and data["scheme"]["tm"]["repetitions"] == 20
    assert main(["report", str(recommended_project), "--systems", "tm,nope", "-q"]) == 2  # a usage error (UnknownSystem)
    assert "no system named 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", REPORT_FORMATS)
def test_every_format_through_the_cli(recommended_project, tmp_path, fmt):
    out = tmp_path / f"r.{fmt}"
    assert main(["report", str(recommended_project), "--format", fmt, "-o", str(out), "-q"]) == 0
    assert out.stat().st_size > 500
    assert not list(tmp_path.glob(".*part"))


def test_a_cancelled_estimate_raises_cancelled(recommended_project):
    from tmtprime.errors import Cancelled
    from tmtprime.progress import Reporter

    class CancelAtOnce(Reporter):
        def on_progress(self, done, total):
            if done >= 10:
                self.request_cancel()

    with Store.open(recommended_project) as store, pytest.raises(Cancelled):
        estimate_costs(store, load_scheme("matecat"), reporter=CancelAtOnce())
