"""A small synthetic English->Spanish localisation project written for the tests.

Software strings are built from templates and a tiny dictionary, so the TM,
the references and the candidates are consistent and the recommender has
something real to learn:

* the TM holds earlier strings (same templates, other objects);
* the TM match of a new string is the TM unit sharing its template: close
  (and the best candidate) when only the object differs by one word, far when
  the TM has only a different template;
* "good-mt" translates word by word with the project's terminology except for
  one word in three; "bad-mt" drops words and leaves English words untranslated.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

OBJECTS = {
    "file": "archivo", "folder": "carpeta", "image": "imagen", "window": "ventana", "document": "documento",
    "page": "página", "account": "cuenta", "message": "mensaje", "layer": "capa", "printer": "impresora",
    "bookmark": "marcador", "project": "proyecto", "table": "tabla", "font": "tipografía", "theme": "tema",
    "calendar": "calendario", "contact": "contacto", "picture": "foto", "selection": "selección", "track": "pista",
}
TEMPLATES = [
    ("Cannot open the {o}", "No se puede abrir el {o}"),
    ("Save the {o} as %s", "Guardar el {o} como %s"),
    ("Delete the selected {o}?", "¿Eliminar el {o} seleccionado?"),
    ("The {o} %s already exists", "El {o} %s ya existe"),
    ("_Rename {o}", "_Renombrar {o}"),
    ("Could not find the {o} {0}", "No se pudo encontrar el {o} {0}"),
    ("Print the current {o}", "Imprimir el {o} actual"),
    ("Export the {o} to a new location", "Exportar el {o} a una nueva ubicación"),
]
SYNONYMS = {"archivo": "fichero", "abrir": "abrir", "eliminar": "borrar", "carpeta": "directorio"}


def _mt(reference: str, rng: random.Random, good: bool) -> str:
    """A rule-based-MT-like output: word errors at a rate that depends on the system."""
    out = []
    wrong = list(OBJECTS.values()) + list(SYNONYMS.values())
    error = 0.3 if good else 0.6
    for w in reference.split():
        r = rng.random()
        if r < error / 3:
            continue
        if r < error:
            out.append(SYNONYMS.get(w.lower()) or rng.choice(wrong if good else list(OBJECTS)))
        else:
            out.append(w)
    return " ".join(out) if out else reference


def build(directory: Path, *, seed: int = 7, n_dev: int = 120, n_new: int = 40) -> tuple[dict[str, Path], list[dict[str, str]]]:
    """Write tm.tsv.gz, dev.tsv.gz and new.tsv.gz (the shared data's column layout) into ``directory``.

    Returns the paths and the rows of the new document *with* their references
    (the file itself has none), so a test can score the picks.
    """
    rng = random.Random(seed)
    objects = list(OBJECTS)
    tm_objects = objects[:12]
    tm = [(_fill(s, o), _fill(t, OBJECTS[o])) for s, t in TEMPLATES for o in tm_objects]
    header = [
        "doc_id", "seg_id", "msgctxt", "source", "reference", "tm_source", "tm_target", "tm_fuzzy_word",
        "mt_apertium_eng-spa", "mt_apertium_eng-cat-spa", "mt_apertium_en-gl-es",
    ]

    def rows(n: int, docs: list[str]) -> list[list[str]]:
        out = []
        for i in range(n):
            k = rng.randrange(len(TEMPLATES))
            src_t, tgt_t = TEMPLATES[k]
            o = rng.choice(objects)
            source, reference = _fill(src_t, o), _fill(tgt_t, OBJECTS[o])
            if rng.random() < 0.5:  # close match: same template, another object
                m = rng.choice(tm_objects)
                tm_source, tm_target = _fill(src_t, m), _fill(tgt_t, OBJECTS[m])
                fuzzy = 100.0 if m == o else round(100.0 * (1 - 1 / max(len(source.split()), 1)), 2)
            else:  # distant match: another template
                j = (k + 1 + rng.randrange(len(TEMPLATES) - 1)) % len(TEMPLATES)
                m = rng.choice(tm_objects)
                tm_source, tm_target = _fill(TEMPLATES[j][0], m), _fill(TEMPLATES[j][1], OBJECTS[m])
                fuzzy = float(rng.randrange(20, 55))
            good = _mt(reference, rng, good=True)
            bad = _mt(reference, rng, good=False)
            mid = good if rng.random() < 0.5 else bad
            out.append([docs[i % len(docs)], str(i + 1), "", source, reference, tm_source, tm_target, f"{fuzzy:g}", good, mid, bad])
        return out

    paths = {"tm": directory / "tm.tsv.gz", "dev": directory / "dev.tsv.gz", "new": directory / "new.tsv.gz"}
    _write(paths["tm"], ["tm_id", "source", "target"], [[str(i), s, t] for i, (s, t) in enumerate(tm)])
    _write(paths["dev"], header, rows(n_dev, ["gimp/gimp", "gedit/gedit", "vlc/vlc", "apt/apt"]))
    new_rows = rows(n_new, ["inkscape/inkscape", "evince/evince"])
    ref = header.index("reference")
    _write(paths["new"], [h for h in header if h != "reference"], [r[:ref] + r[ref + 1 :] for r in new_rows])
    return paths, [dict(zip(header, r)) for r in new_rows]


def _fill(template: str, word: str) -> str:
    return template.replace("{o}", word)


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("\t".join(header) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


def import_project(directory: Path, paths: dict[str, Path], parts: tuple[str, ...] = ("tm", "dev", "new")) -> str:
    """A project ``P.db`` in ``directory`` holding the given parts of :func:`build`'s files, through the CLI."""
    from tests.test_product_workflow import _mapping
    from tmtprime.cli import main

    db = str(directory / "P.db")
    assert main(["project", "create", db, "--source-lang", "en", "--target-lang", "es"]) == 0
    options = {
        "tm": ["--as", "tm", "--source-col", "source", "--target-col", "target"],
        "dev": ["--as", "dev", "--reference-col", "reference", *_mapping()],
        "new": ["--as", "document", *_mapping()],
    }
    for part in parts:
        assert main(["import", db, str(paths[part]), *options[part], "-q"]) == 0
    return db
