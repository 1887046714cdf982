"""The Meteor tab on a Spanish project: it scores by default, and takes a paraphrase table from a file picker."""

from __future__ import annotations

import gzip

from tests.gui.conftest import wait_idle


def test_spanish_scores_by_default_without_a_table_and_takes_one_from_the_window(window, qtbot, tmp_path, monkeypatch):
    from tmtprime.meteor import Meteor
    from tmtprime.meteor import paraphrase  # where module_choice looks the installed tables up

    monkeypatch.setattr(paraphrase, "default_sources", lambda lang: [tmp_path / "absent.gz"])
    view = window.meteor
    window.tabs.setCurrentWidget(view)
    wait_idle(qtbot, window)
    view._follow_project_language()
    assert view.lang.currentText() == "es"  # the demo project translates into Spanish
    box = view.module_boxes["paraphrase"]
    assert not box.isChecked() and not box.isEnabled() and "no paraphrase table" in box.toolTip()
    assert "choose one" in view.config_text.text()

    view.hypothesis.setText("Abra los archivos")
    view.references.setPlainText("Abra el archivo")
    assert view.score_pair()
    qtbot.waitUntil(lambda: view.last_score is not None, timeout=180000)
    expected = Meteor(lang="es", modules=("exact", "stem")).sentence_score("Abra los archivos", ["Abra el archivo"])
    assert view.result.text() == f"<b>Meteor {expected.score:.4f}</b>"

    table = tmp_path / "paraphrase-es.gz"
    with gzip.open(table, "wt", encoding="utf-8") as f:  # Meteor's format: probability, phrase, paraphrase
        f.write("0.5\narchivos\nficheros\n")
    view.paraphrase_file.setText(str(table))
    view._language_defaults()
    assert box.isEnabled() and box.isChecked()
    options = view.options()
    assert options.paraphrase_table == str(table) and options.modules is None  # the language's own modules
    view.last_score = None
    view.hypothesis.setText("Abra los ficheros")
    view.references.setPlainText("Abra los archivos")
    assert view.score_pair()
    qtbot.waitUntil(lambda: view.last_score is not None, timeout=180000)
    assert ("ficheros", "archivos", "paraphrase") in view.alignment.pairs()
