"""CAT files that keep the MT beside the translator's confirmed target carry a post-edit of that MT."""

from __future__ import annotations

from tmtprime.formats import read_document
from tmtprime.store import Store
from tmtprime.workflows.importing import import_files

XLIFF12 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
 <file original="ui.txt" source-language="en" target-language="es" datatype="plaintext">
  <body>
   <trans-unit id="final-one-mt">
    <source>Open the file</source>
    <target state="final">Abra el archivo</target>
    <alt-trans origin="apertium" match-quality="0"><target state-qualifier="mt-suggestion">Abrir el archivo</target></alt-trans>
   </trans-unit>
   <trans-unit id="translated-from-mt">
    <source>Close it</source>
    <target state="translated" state-qualifier="leveraged-mt">Ciérrelo</target>
    <alt-trans origin="apertium"><target state-qualifier="mt-suggestion">Cerrarlo</target></alt-trans>
   </trans-unit>
   <trans-unit id="translated-unmarked">
    <source>Save</source>
    <target state="translated">Guarde</target>
    <alt-trans origin="apertium"><target state-qualifier="mt-suggestion">Guardar</target></alt-trans>
   </trans-unit>
   <trans-unit id="final-two-mts">
    <source>Print</source>
    <target state="final">Imprima</target>
    <alt-trans origin="apertium"><target state-qualifier="mt-suggestion">Imprimir</target></alt-trans>
    <alt-trans origin="deepl"><target state-qualifier="mt-suggestion">Imprime</target></alt-trans>
   </trans-unit>
   <trans-unit id="final-from-tm">
    <source>Quit</source>
    <target state="final" state-qualifier="leveraged-tm">Salga</target>
    <alt-trans origin="apertium"><target state-qualifier="mt-suggestion">Salir</target></alt-trans>
   </trans-unit>
   <trans-unit id="draft">
    <source>Undo</source>
    <target state="needs-review-translation" state-qualifier="leveraged-mt">Deshacer</target>
   </trans-unit>
  </body>
 </file>
</xliff>
"""

XLIFF2 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0"
       version="2.1" srcLang="en" trgLang="es">
 <file id="f1">
  <unit id="u1">
   <mtc:matches><mtc:match ref="#s1" type="mt" origin="apertium"><source>Open the file</source><target>Abrir el archivo</target></mtc:match></mtc:matches>
   <segment id="s1" state="final"><source>Open the file</source><target>Abra el archivo</target></segment>
  </unit>
  <unit id="u2">
   <mtc:matches><mtc:match ref="#s2" type="mt" origin="apertium"><source>Save</source><target>Guardar</target></mtc:match></mtc:matches>
   <segment id="s2" state="translated"><source>Save</source><target>Guarde</target></segment>
  </unit>
  <unit id="u3">
   <mtc:matches><mtc:match ref="#s3" type="mt" origin="apertium"><source>Close it</source><target>Cerrarlo</target></mtc:match></mtc:matches>
   <segment id="s3" state="initial"><source>Close it</source><target>Ciérrelo</target></segment>
  </unit>
 </file>
</xliff>
"""

SDLXLIFF = """<?xml version="1.0" encoding="utf-8"?>
<xliff xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0" version="1.2" sdl:version="1.0" xmlns="urn:oasis:names:tc:xliff:document:1.2">
 <file original="a.docx" datatype="x-sdlfilterframework2" source-language="en-US" target-language="es-ES">
  <body>
   <trans-unit id="t1">
    <source>Open the file</source>
    <seg-source><mrk mtype="seg" mid="1">Open the file</mrk></seg-source>
    <target><mrk mtype="seg" mid="1">Abra el archivo</mrk></target>
    <alt-trans origin="DeepL"><target>Abrir el archivo</target></alt-trans>
    <sdl:seg-defs><sdl:seg id="1" conf="Translated" origin="interactive"><sdl:prev-origin origin="mt" origin-system="DeepL"/></sdl:seg></sdl:seg-defs>
   </trans-unit>
  </body>
 </file>
</xliff>
"""


def _post_edits(path) -> dict[str, list[tuple[str, str | None]]]:
    _info, segments = read_document(path)
    return {s.key: [(c.system, p.text) for c in s.candidates for p in c.post_edits] for s in segments}


def test_xliff12_final_or_mt_marked_targets_are_post_edits_of_their_mt(tmp_path):
    path = tmp_path / "reviewed.xlf"
    path.write_text(XLIFF12, encoding="utf-8")
    assert _post_edits(path) == {
        "final-one-mt": [("apertium", "Abra el archivo")],  # final, one MT: its post-edit
        "translated-from-mt": [("apertium", "Ciérrelo")],  # the file says the target came from MT
        "translated-unmarked": [],  # merely translated, nothing says it was made from the MT
        "final-two-mts": [],  # which MT was edited is unknown
        "final-from-tm": [],  # made from a TM match
        "draft": [],  # not confirmed: an MT candidate, not a post-edit
    }
    _info, segments = read_document(path)
    assert next(s for s in segments if s.key == "final-one-mt").reference == "Abra el archivo"  # still the reference


def test_xliff2_final_target_beside_an_mt_match_is_its_post_edit(tmp_path):
    path = tmp_path / "reviewed.xlf"
    path.write_text(XLIFF2, encoding="utf-8")
    assert _post_edits(path) == {"u1": [("apertium", "Abra el archivo")], "u2": [], "u3": []}


def test_sdlxliff_segment_edited_from_mt_is_a_post_edit(tmp_path):
    path = tmp_path / "edited.sdlxliff"
    path.write_text(SDLXLIFF, encoding="utf-8")
    assert _post_edits(path) == {"t1": [("DeepL", "Abra el archivo")]}
    path.write_text(SDLXLIFF.replace('<sdl:prev-origin origin="mt" origin-system="DeepL"/>', ""), encoding="utf-8")
    assert _post_edits(path) == {"t1": []}  # typed by the translator, not edited from the MT


def test_imported_reviewed_xliff_keeps_the_post_edits_in_the_store(tmp_path):
    path = tmp_path / "reviewed.xlf"
    path.write_text(XLIFF12, encoding="utf-8")
    with Store.create(tmp_path / "P.db", source_lang="en", target_lang="es") as store:
        import_files(store, [path], role="dev")
        segments = {s.source: s for s in store.segments.list(role="dev")}
        ids = [c.id for s in segments.values() for c in s.candidates]
        records = store.post_edits.of(ids)
        edited = {s.source: [p.text for c in s.candidates for p in records.get(c.id, [])] for s in segments.values()}
    assert edited["Open the file"] == ["Abra el archivo"] and edited["Close it"] == ["Ciérrelo"]
    assert edited["Save"] == [] and edited["Print"] == []
