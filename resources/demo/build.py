"""How the demo sample was made (run once by a maintainer; needs Apertium eng-spa and eng-cat, spa-cat).

    python3 resources/demo/build.py

The English strings and their Spanish translations are written here, from
the phrasing of a small desktop/web application's user interface: actions
on objects ("Export report..."), confirmations, errors, counts with
placeholders, and a few release notes. The TM holds one set of
object/action combinations; the files to translate hold others, so the
lookup finds exact, fuzzy and no matches. The two MT systems are real:
Apertium English->Spanish and the pivot English->Catalan->Spanish, run on
every source once and kept as files, so the demo itself runs no engine.
"""

from __future__ import annotations

import random
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

HERE = Path(__file__).resolve().parent

# (English, English plural, Spanish, Spanish plural, gender)
OBJECTS = [
    ("file", "files", "archivo", "archivos", "m"),
    ("folder", "folders", "carpeta", "carpetas", "f"),
    ("document", "documents", "documento", "documentos", "m"),
    ("project", "projects", "proyecto", "proyectos", "m"),
    ("user", "users", "usuario", "usuarios", "m"),
    ("account", "accounts", "cuenta", "cuentas", "f"),
    ("image", "images", "imagen", "imágenes", "f"),
    ("message", "messages", "mensaje", "mensajes", "m"),
    ("report", "reports", "informe", "informes", "m"),
    ("page", "pages", "página", "páginas", "f"),
    ("profile", "profiles", "perfil", "perfiles", "m"),
    ("template", "templates", "plantilla", "plantillas", "f"),
    ("comment", "comments", "comentario", "comentarios", "m"),
    ("task", "tasks", "tarea", "tareas", "f"),
    ("contact", "contacts", "contacto", "contactos", "m"),
    ("event", "events", "evento", "eventos", "m"),
    ("attachment", "attachments", "archivo adjunto", "archivos adjuntos", "m"),
    ("table", "tables", "tabla", "tablas", "f"),
    ("chart", "charts", "gráfico", "gráficos", "m"),
    ("note", "notes", "nota", "notas", "f"),
    ("backup", "backups", "copia de seguridad", "copias de seguridad", "f"),
    ("playlist", "playlists", "lista de reproducción", "listas de reproducción", "f"),
    ("calendar", "calendars", "calendario", "calendarios", "m"),
    ("layer", "layers", "capa", "capas", "f"),
    ("invoice", "invoices", "factura", "facturas", "f"),
    ("order", "orders", "pedido", "pedidos", "m"),
    ("product", "products", "producto", "productos", "m"),
    ("workspace", "workspaces", "espacio de trabajo", "espacios de trabajo", "m"),
]

# (English, English past participle, Spanish infinitive, Spanish participle)
VERBS = [
    ("open", "opened", "abrir", "abierto"),
    ("save", "saved", "guardar", "guardado"),
    ("delete", "deleted", "eliminar", "eliminado"),
    ("copy", "copied", "copiar", "copiado"),
    ("move", "moved", "mover", "movido"),
    ("export", "exported", "exportar", "exportado"),
    ("import", "imported", "importar", "importado"),
    ("share", "shared", "compartir", "compartido"),
    ("print", "printed", "imprimir", "impreso"),
    ("create", "created", "crear", "creado"),
    ("upload", "uploaded", "subir", "subido"),
    ("download", "downloaded", "descargar", "descargado"),
    ("restore", "restored", "restaurar", "restaurado"),
    ("update", "updated", "actualizar", "actualizado"),
    ("edit", "edited", "editar", "editado"),
    ("archive", "archived", "archivar", "archivado"),
    ("duplicate", "duplicated", "duplicar", "duplicado"),
    ("publish", "published", "publicar", "publicado"),
]


def _art(g: str, m: str, f: str) -> str:
    return m if g == "m" else f


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def templates(v: tuple, o: tuple, n: str) -> list[tuple[str, str]]:
    """Every (English, Spanish) string of one action ``v`` on one object ``o``; ``n`` is the count placeholder."""
    en_v, en_pp, es_v, es_pp = v
    en_o, en_os, es_o, es_os, g = o
    return [
        (f"{_cap(en_v)} {en_o}", f"{_cap(es_v)} {es_o}"),
        (f"{_cap(en_v)} {en_o}...", f"{_cap(es_v)} {es_o}..."),
        (f"Could not {en_v} the {en_o}.", f"No se ha podido {es_v} {_art(g, 'el', 'la')} {es_o}."),
        (f"The {en_o} was {en_pp} successfully.", f"{_cap(_art(g, 'el', 'la'))} {es_o} se ha {es_pp} correctamente."),
        (f"Are you sure you want to {en_v} this {en_o}?", f"¿Seguro que quiere {es_v} {_art(g, 'este', 'esta')} {es_o}?"),
        (f"{n} {en_os} were {en_pp}.", f"Se han {es_pp} {n} {es_os}."),
        (f"Select a {en_o} to {en_v}.", f"Seleccione {_art(g, 'un', 'una')} {es_o} para {es_v}."),
        (f"You do not have permission to {en_v} this {en_o}.", f"No tiene permiso para {es_v} {_art(g, 'este', 'esta')} {es_o}."),
        (f"{_cap(en_v)} all {en_os}", f"{_cap(es_v)} {_art(g, 'todos los', 'todas las')} {es_os}"),
        (
            f"Failed to {en_v} {n} {en_os}. Try again later.",
            f"No se han podido {es_v} {n} {es_os}. Inténtelo de nuevo más tarde.",
        ),
        (
            f"Click {_cap(en_v)} to {en_v} the selected {en_os}.",
            f"Haga clic en {_cap(es_v)} para {es_v} {_art(g, 'los', 'las')} {es_os} "
            f"{_art(g, 'seleccionados', 'seleccionadas')}.",
        ),
    ]


def object_strings(o: tuple, n: str) -> list[tuple[str, str]]:
    en_o, en_os, es_o, es_os, g = o
    return [
        (f"No {en_os} found.", f"No se han encontrado {es_os}."),
        (f"{_cap(en_o)} name", f"Nombre {_art(g, 'del', 'de la')} {es_o}"),
        (f"Search {en_os}", f"Buscar {es_os}"),
        (f'The {en_o} "{n}" already exists.', f'{_cap(_art(g, "el", "la"))} {es_o} "{n}" ya existe.'),
        (f"New {en_o}", f"{_art(g, 'Nuevo', 'Nueva')} {es_o}"),
    ]


RELEASE_NOTES = [
    ("Improved performance when opening large projects.", "Se ha mejorado el rendimiento al abrir proyectos grandes."),
    ("Fixed a crash when printing reports with empty tables.", "Se ha corregido un cierre inesperado al imprimir informes con tablas vacías."),
    ("The search now finds comments and notes as well.", "La búsqueda ahora también encuentra comentarios y notas."),
    ("You can now export charts as PNG or SVG images.", "Ahora puede exportar gráficos como imágenes PNG o SVG."),
    ("Dark mode is available in the display settings.", "El modo oscuro está disponible en la configuración de pantalla."),
    ("Backups are now created automatically every night.", "Ahora las copias de seguridad se crean automáticamente cada noche."),
    ("Invoices can be sent to several contacts at once.", "Las facturas se pueden enviar a varios contactos a la vez."),
    ("The calendar shows public holidays of your country.", "El calendario muestra los días festivos de su país."),
    ("Fixed the order of layers after duplicating a page.", "Se ha corregido el orden de las capas al duplicar una página."),
    ("Uploading large attachments no longer freezes the editor.", "Subir archivos adjuntos grandes ya no bloquea el editor."),
    ("Templates can be shared with other workspaces.", "Las plantillas se pueden compartir con otros espacios de trabajo."),
    ("The dashboard loads twice as fast on slow connections.", "El panel se carga el doble de rápido con conexiones lentas."),
    ("Keyboard shortcuts can now be changed in the preferences.", "Ahora se pueden cambiar los atajos de teclado en las preferencias."),
    ("Deleted tasks stay in the trash for 30 days.", "Las tareas eliminadas permanecen en la papelera durante 30 días."),
    ("Fixed wrong totals in exported order reports.", "Se han corregido los totales incorrectos en los informes de pedidos exportados."),
    ("Profile pictures are shown next to every comment.", "Las fotos de perfil se muestran junto a cada comentario."),
]

UI_EXTRA = [
    ("Settings", "Configuración"),
    ("Preferences", "Preferencias"),
    ("Sign in", "Iniciar sesión"),
    ("Sign out", "Cerrar sesión"),
    ("Cancel", "Cancelar"),
    ("Apply", "Aplicar"),
    ("Help", "Ayuda"),
    ("Your changes have not been saved.", "Los cambios no se han guardado."),
    ("Do you want to save your changes before closing?", "¿Quiere guardar los cambios antes de cerrar?"),
    ("The connection to the server was lost.", "Se ha perdido la conexión con el servidor."),
    ("Check your internet connection and try again.", "Compruebe su conexión a internet e inténtelo de nuevo."),
    ("This field is required.", "Este campo es obligatorio."),
    ("Enter a valid email address.", "Introduzca una dirección de correo electrónico válida."),
    ("The password must have at least 8 characters.", "La contraseña debe tener al menos 8 caracteres."),
    ("Last modified", "Última modificación"),
    ("Show hidden files", "Mostrar archivos ocultos"),
    ("Undo", "Deshacer"),
    ("Redo", "Rehacer"),
]


def main() -> None:
    rng = random.Random(2026)
    pairs = [(v, o) for v in VERBS for o in OBJECTS]
    rng.shuffle(pairs)
    tm_pairs, job_pairs = pairs[:60], pairs[60:100]
    # TM: every template of 60 action/object pairs would be 660 units; keep a few hundred
    tm: dict[str, str] = {}
    for v, o in tm_pairs:
        for en, es in rng.sample(templates(v, o, "%d"), 5):
            tm.setdefault(en, es)
    for o in OBJECTS[::2]:
        for en, es in object_strings(o, "%s")[:3]:
            tm.setdefault(en, es)
    for en, es in UI_EXTRA[:12] + RELEASE_NOTES[:4]:
        tm.setdefault(en, es)

    def job_strings(chosen: list[tuple], n: str, count: int) -> list[tuple[str, str]]:
        out: dict[str, str] = {}
        for v, o in chosen:
            for en, es in rng.sample(templates(v, o, n), 3):
                out.setdefault(en, es)
        return list(out.items())[:count]

    # ui-strings.xlf: new combinations (fuzzy against the TM), some strings the TM has (exact), UI extras
    ui = job_strings(job_pairs[:20], "{0}", 60) + [p for p in list(tm.items()) if p[0] not in dict(RELEASE_NOTES)][:15] + UI_EXTRA[8:]
    # messages.po: other combinations and object strings; about half already translated (references)
    po = job_strings(job_pairs[20:], "%d", 45) + [s for o in OBJECTS[1::2] for s in object_strings(o, "%s")[:2]]
    # release-notes.xlf: reviewed translations of release notes and a few messages (all references)
    notes = RELEASE_NOTES + job_strings(tm_pairs[:8], "{0}", 14)

    write_tmx(HERE / "tm.tmx", list(tm.items()))
    write_xliff(HERE / "jobs" / "ui-strings.xlf", "ui-strings.json", ui, reviewed=lambda i: False)
    write_xliff(HERE / "jobs" / "release-notes.xlf", "release-notes.md", notes, reviewed=lambda i: True)
    write_po(HERE / "jobs" / "messages.po", po, translated=lambda i: i % 2 == 0)
    sources = list(dict.fromkeys(en for en, _ in ui + po + notes))
    write_mt(sources)
    print(f"TM {len(tm)} units; ui-strings {len(ui)}, messages {len(po)}, release-notes {len(notes)} segments")


def write_tmx(path: Path, units: list[tuple[str, str]]) -> None:
    body = "".join(
        f'    <tu tuid="{i}">\n      <tuv xml:lang="en"><seg>{escape(en)}</seg></tuv>\n'
        f'      <tuv xml:lang="es"><seg>{escape(es)}</seg></tuv>\n    </tu>\n'
        for i, (en, es) in enumerate(units, start=1)
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
        '  <header creationtool="tmtprime demo" creationtoolversion="1" segtype="sentence" o-tmf="tmtprime"\n'
        '          adminlang="en" srclang="en" datatype="plaintext"/>\n'
        f"  <body>\n{body}  </body>\n</tmx>\n",
        encoding="utf-8",
    )


def write_xliff(path: Path, original: str, segments: list[tuple[str, str]], *, reviewed) -> None:  # noqa: ANN001
    units = []
    for i, (en, es) in enumerate(segments, start=1):
        target = f'\n        <target state="final">{escape(es)}</target>' if reviewed(i) else ""
        units.append(f'      <trans-unit id="{i}">\n        <source>{escape(en)}</source>{target}\n      </trans-unit>\n')
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
        f'  <file original={quoteattr(original)} source-language="en" target-language="es" datatype="plaintext">\n'
        f"    <body>\n{''.join(units)}    </body>\n  </file>\n</xliff>\n",
        encoding="utf-8",
    )


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_po(path: Path, segments: list[tuple[str, str]], *, translated) -> None:  # noqa: ANN001
    header = (
        'msgid ""\nmsgstr ""\n"Project-Id-Version: demo 1.0\\n"\n"Language: es\\n"\n'
        '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'
    )
    entries = []
    for i, (en, es) in enumerate(segments):
        flag = "#, c-format\n" if "%d" in en or "%s" in en else ""
        entries.append(f"{flag}msgid {_po_string(en)}\nmsgstr {_po_string(es if translated(i) else '')}\n")
    path.write_text(header + "\n" + "\n".join(entries), encoding="utf-8")


def write_mt(sources: list[str]) -> None:
    from tmtprime.mt.apertium import ApertiumEngine

    for pair in ("eng-spa", "eng-cat-spa"):
        engine = ApertiumEngine(source_lang="en", target_lang="es", pair=pair)
        outputs = engine.translate(sources)
        lines = ["source\ttarget"] + [f"{s}\t{t}" for s, t in zip(sources, outputs)]
        (HERE / "mt" / f"apertium_{pair}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
