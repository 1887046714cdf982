<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>AfterPage</name>
    <message>
        <source>After the import</source>
        <translation>Después de la importación</translation>
    </message>
    <message>
        <source>Look every segment up in the project&apos;s TM</source>
        <translation>Buscar cada segmento en la memoria de traducción del proyecto</translation>
    </message>
    <message>
        <source>Translate with Apertium (local MT) where a segment has no MT yet</source>
        <translation>Traducir con Apertium (TA local) los segmentos que aún no tengan traducción automática</translation>
    </message>
</context>
<context>
    <name>AnalysisView</name>
    <message>
        <source>Match analysis</source>
        <translation>Análisis de coincidencias</translation>
    </message>
    <message>
        <source>Per document</source>
        <translation>Por documento</translation>
    </message>
    <message>
        <source>Bands</source>
        <translation>Franjas</translation>
    </message>
    <message>
        <source>HTML report (*.html);;PDF report (*.pdf);;Text report (*.txt)</source>
        <translation>Informe HTML (*.html);;Informe PDF (*.pdf);;Informe de texto (*.txt)</translation>
    </message>
    <message>
        <source>TM lookup</source>
        <translation>Consulta de la memoria</translation>
    </message>
    <message>
        <source>MT (Apertium)</source>
        <translation>TA (Apertium)</translation>
    </message>
    <message>
        <source>Recommend</source>
        <translation>Recomendar</translation>
    </message>
    <message>
        <source>and repair fuzzy matches with MT</source>
        <translation>y reparar las coincidencias parciales con TA</translation>
    </message>
    <message>
        <source>after the lookup, the words where a segment differs from its TM match (50 % or more) are translated with Apertium and put into the match: a candidate of its own, tm-repair</source>
        <translation>tras la consulta, las palabras en que un segmento difiere de su coincidencia de la memoria (50 % o más) se traducen con Apertium y se insertan en la coincidencia: un candidato propio, tm-repair</translation>
    </message>
    <message>
        <source>Systems taking part</source>
        <translation>Sistemas participantes</translation>
    </message>
    <message>
        <source>Cost scheme</source>
        <translation>Esquema de costes</translation>
    </message>
    <message>
        <source>Cost per plan</source>
        <translation>Coste por plan</translation>
    </message>
    <message>
        <source>Recommended systems</source>
        <translation>Sistemas recomendados</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confianza</translation>
    </message>
    <message>
        <source>Costs</source>
        <translation>Costes</translation>
    </message>
    <message>
        <source>Systems</source>
        <translation>Sistemas</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Exportar informe…</translation>
    </message>
    <message>
        <source>the report (HTML, PDF or text) of what the dashboard shows</source>
        <translation>el informe (HTML, PDF o texto) de lo que muestra el panel</translation>
    </message>
    <message>
        <source>Import files to see the analysis.</source>
        <translation>Importe archivos para ver el análisis.</translation>
    </message>
    <message>
        <source>Open a project to see its analysis.</source>
        <translation>Abra un proyecto para ver su análisis.</translation>
    </message>
    <message>
        <source>No recommendations yet: import a document with candidates, then Recommend (Ctrl+R).</source>
        <translation>Aún no hay recomendaciones: importe un documento con candidatos y, a continuación, use «Recomendar» (Ctrl+R).</translation>
    </message>
    <message>
        <source>Tick at least one system.</source>
        <translation>Marque al menos un sistema.</translation>
    </message>
    <message>
        <source>Project status</source>
        <translation>Estado del proyecto</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>Estimación</translation>
    </message>
    <message>
        <source>no candidates of this system in the documents</source>
        <translation>no hay candidatos de este sistema en los documentos</translation>
    </message>
    <message>
        <source>Segments: {segments}&lt;br&gt;&lt;span style=&apos;color:gray&apos;&gt;scheme &lt;b&gt;{scheme}&lt;/b&gt; ({state}) · full rate {rate} · model {model}&lt;/span&gt;</source>
        <translation>Segmentos: {segments}&lt;br&gt;&lt;span style=&apos;color:gray&apos;&gt;esquema &lt;b&gt;{scheme}&lt;/b&gt; ({state}) · tarifa completa {rate} · modelo {model}&lt;/span&gt;</translation>
    </message>
    <message>
        <source>no analysis to export yet</source>
        <translation>aún no hay ningún análisis para exportar</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Exportar informe</translation>
    </message>
    <message>
        <source>report written to {path}</source>
        <translation>informe escrito en {path}</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>Informe</translation>
    </message>
    <message>
        <source>Machine translation</source>
        <translation>Traducción automática</translation>
    </message>
</context>
<context>
    <name>CandidateCard</name>
    <message>
        <source>fuzzy {score}</source>
        <translation>parcial {score}</translation>
    </message>
    <message>
        <source>confidence {value}</source>
        <translation>confianza {value}</translation>
    </message>
    <message>
        <source>predicted TER {value}</source>
        <translation>TER previsto {value}</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#3574f0&apos;&gt;picked&lt;/b&gt;</source>
        <translation>&lt;b style=&apos;color:#3574f0&apos;&gt;elegido&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:gray&apos;&gt;TM source:&lt;/span&gt; {text}</source>
        <translation>&lt;span style=&apos;color:gray&apos;&gt;Origen en la memoria:&lt;/span&gt; {text}</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:gray&apos;&gt;Repaired from the TM match:&lt;/span&gt; {text}</source>
        <translation>&lt;span style=&apos;color:gray&apos;&gt;Reparado a partir de la coincidencia de la memoria:&lt;/span&gt; {text}</translation>
    </message>
    <message>
        <source>Use this</source>
        <translation>Usar este</translation>
    </message>
</context>
<context>
    <name>ChartView</name>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>Imagen PNG (*.png);;Dibujo SVG (*.svg);;Documento PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export chart…</source>
        <translation>Exportar gráfico…</translation>
    </message>
    <message>
        <source>Export {title}</source>
        <translation>Exportar {title}</translation>
    </message>
</context>
<context>
    <name>CostSchemeEditor</name>
    <message>
        <source>prices TM matches by their fuzzy band in the CAT-convention cost (Costs tab) and the match analysis; the expected estimate prices every candidate by the MT quality bands</source>
        <translation>tarifica las coincidencias de la memoria por su franja de coincidencia parcial en el coste según la convención de las herramientas TAO (pestaña Costes) y en el análisis de coincidencias; la estimación esperada tarifica cada candidato por las franjas de calidad de la TA</translation>
    </message>
    <message>
        <source>prices every candidate&apos;s expected post-editing (equivalent match: 100 − predicted TER)</source>
        <translation>tarifica la posedición esperada de cada candidato (coincidencia equivalente: 100 − TER previsto)</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>From %</source>
        <translation>Desde %</translation>
    </message>
    <message>
        <source>To %</source>
        <translation>Hasta %</translation>
    </message>
    <message>
        <source>Payable %</source>
        <translation>A pagar %</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Base cost</source>
        <translation>Coste base</translation>
    </message>
    <message>
        <source>Per</source>
        <translation>Por</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Abrir…</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>Guardar como…</translation>
    </message>
    <message>
        <source>Keep in project</source>
        <translation>Guardar en el proyecto</translation>
    </message>
    <message>
        <source>store this scheme in the project under a name</source>
        <translation>guarda este esquema en el proyecto con un nombre</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>Esquema</translation>
    </message>
    <message>
        <source>Own rate for this pair</source>
        <translation>Tarifa propia para este par</translation>
    </message>
    <message>
        <source>a per-language-pair rate (word_rate_by_pair) replaces the full rate for this project</source>
        <translation>una tarifa por par de idiomas (word_rate_by_pair) sustituye a la tarifa completa en este proyecto</translation>
    </message>
    <message>
        <source>bands</source>
        <translation>por franjas</translation>
    </message>
    <message>
        <source>flat</source>
        <translation>fija</translation>
    </message>
    <message>
        <source>Full rate</source>
        <translation>Tarifa completa</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Moneda</translation>
    </message>
    <message>
        <source>Pair rate</source>
        <translation>Tarifa del par</translation>
    </message>
    <message>
        <source>Words per day</source>
        <translation>Palabras por día</translation>
    </message>
    <message>
        <source>Rule: TM from %</source>
        <translation>Memoria desde %</translation>
    </message>
    <message>
        <source>Context %</source>
        <translation>Contexto %</translation>
    </message>
    <message>
        <source>Repetitions %</source>
        <translation>Repeticiones %</translation>
    </message>
    <message>
        <source>New words %</source>
        <translation>Nuevas %</translation>
    </message>
    <message>
        <source>MT pricing</source>
        <translation>Precio de TA</translation>
    </message>
    <message>
        <source>MT flat %</source>
        <translation>TA fija %</translation>
    </message>
    <message>
        <source>Rates per band — TM fuzzy bands: CAT-convention cost and match analysis; MT quality bands (100 − predicted TER): the expected estimate of every candidate</source>
        <translation>Tarifas por franja — franjas de coincidencia parcial de la memoria: coste según la convención TAO y análisis de coincidencias; franjas de calidad de la TA (100 − TER previsto): la estimación esperada de cada candidato</translation>
    </message>
    <message>
        <source>Per system (base cost of the system&apos;s own output)</source>
        <translation>Por sistema (coste base de la salida propia del sistema)</translation>
    </message>
    <message>
        <source>the project&apos;s scheme</source>
        <translation>el esquema del proyecto</translation>
    </message>
    <message>
        <source>preset, not saved in the project</source>
        <translation>predefinido, no guardado en el proyecto</translation>
    </message>
    <message>
        <source>{origin}, edited — Keep in project to save</source>
        <translation>{origin}, modificado — «Guardar en el proyecto» para conservarlo</translation>
    </message>
    <message>
        <source>stored in the project (Keep in project makes it the project&apos;s scheme)</source>
        <translation>guardado en el proyecto («Guardar en el proyecto» lo convierte en el esquema del proyecto)</translation>
    </message>
    <message>
        <source>Own rate for {pair}</source>
        <translation>Tarifa propia para {pair}</translation>
    </message>
    <message>
        <source>This project ({pair}) is priced at its own rate, {rate} {currency} a word; the full rate applies to other language pairs.</source>
        <translation>Este proyecto ({pair}) se tarifica a su propia tarifa, {rate} {currency} por palabra; la tarifa completa se aplica a los demás pares de idiomas.</translation>
    </message>
    <message>
        <source>This project is priced at the full rate, {rate} {currency} a word.</source>
        <translation>Este proyecto se tarifica a la tarifa completa, {rate} {currency} por palabra.</translation>
    </message>
    <message>
        <source>Open cost scheme</source>
        <translation>Abrir esquema de costes</translation>
    </message>
    <message>
        <source>Cost schemes (*.toml *.json)</source>
        <translation>Esquemas de costes (*.toml *.json)</translation>
    </message>
    <message>
        <source>Save cost scheme</source>
        <translation>Guardar esquema de costes</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>cost scheme written to {path}</source>
        <translation>esquema de costes escrito en {path}</translation>
    </message>
    <message>
        <source>Name of the scheme</source>
        <translation>Nombre del esquema</translation>
    </message>
    <message>
        <source>cost scheme {name} saved in the project; it is the project&apos;s scheme now</source>
        <translation>esquema de costes {name} guardado en el proyecto; ahora es el esquema del proyecto</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <source>Select a segment to see its candidates.</source>
        <translation>Seleccione un segmento para ver sus candidatos.</translation>
    </message>
    <message>
        <source>Back to the model&apos;s pick</source>
        <translation>Volver a la elección del modelo</translation>
    </message>
    <message>
        <source>Your text: starts from the pick; edit it, then Use my text (Ctrl+Return)</source>
        <translation>Su texto: parte de la elección; modifíquelo y, después, «Usar mi texto» (Ctrl+Intro)</translation>
    </message>
    <message>
        <source>Use my text</source>
        <translation>Usar mi texto</translation>
    </message>
    <message>
        <source>keep the text as edited here as this segment&apos;s pick (Ctrl+Return)</source>
        <translation>conserva el texto tal como se ha modificado aquí como elección de este segmento (Ctrl+Intro)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:gray&apos;&gt;Reference:&lt;/span&gt; {text}</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:gray&apos;&gt;Referencia:&lt;/span&gt; {text}</translation>
    </message>
    <message>
        <source>This segment has no candidates yet: run TM lookup or MT.</source>
        <translation>Este segmento aún no tiene candidatos: ejecute la consulta de la memoria o la TA.</translation>
    </message>
</context>
<context>
    <name>DropList</name>
    <message>
        <source>Drop TMX, XLIFF (Trados, memoQ, Phrase…), PO, CSV/TSV, JSON or text files here
or use Add files…</source>
        <translation>Suelte aquí archivos TMX, XLIFF (Trados, memoQ, Phrase…), PO, CSV/TSV, JSON o de texto
o use «Añadir archivos…»</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export picks</source>
        <translation>Exportar las elecciones</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Formato</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>Exportar a</translation>
    </message>
</context>
<context>
    <name>FilesPage</name>
    <message>
        <source>Translation files (*.tmx *.xlf *.xliff *.sdlxliff *.mqxliff *.mxliff *.txlf *.po *.csv *.tsv *.txt *.json *.jsonl *.gz);;All files (*)</source>
        <translation>Archivos de traducción (*.tmx *.xlf *.xliff *.sdlxliff *.mqxliff *.mxliff *.txlf *.po *.csv *.tsv *.txt *.json *.jsonl *.gz);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Document to translate</source>
        <translation>Documento para traducir</translation>
    </message>
    <message>
        <source>Dev data (with references)</source>
        <translation>Datos de desarrollo (con referencias)</translation>
    </message>
    <message>
        <source>Translation memory</source>
        <translation>Memoria de traducción</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Archivos</translation>
    </message>
    <message>
        <source>Drop files here or add them; the format is detected from the content.</source>
        <translation>Suelte aquí los archivos o añádalos; el formato se detecta a partir del contenido.</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Añadir archivos…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Vaciar</translation>
    </message>
    <message>
        <source>Import as</source>
        <translation>Importar como</translation>
    </message>
    <message>
        <source>Import files</source>
        <translation>Importar archivos</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import files</source>
        <translation>Importar archivos</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importación</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>TMTprime projects (*.db *.sqlite);;All files (*)</source>
        <translation>Proyectos de TMTprime (*.db *.sqlite);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>Análisis</translation>
    </message>
    <message>
        <source>Segments</source>
        <translation>Segmentos</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Meteor</source>
        <translation>Meteor</translation>
    </message>
    <message>
        <source>&amp;New project…</source>
        <translation>&amp;Nuevo proyecto…</translation>
    </message>
    <message>
        <source>create a project file</source>
        <translation>crea un archivo de proyecto</translation>
    </message>
    <message>
        <source>&amp;Open project…</source>
        <translation>&amp;Abrir proyecto…</translation>
    </message>
    <message>
        <source>open a project file or database URL</source>
        <translation>abre un archivo de proyecto o una URL de base de datos</translation>
    </message>
    <message>
        <source>&amp;Import files…</source>
        <translation>&amp;Importar archivos…</translation>
    </message>
    <message>
        <source>import documents, dev data or a TM</source>
        <translation>importa documentos, datos de desarrollo o una memoria de traducción</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportar…</translation>
    </message>
    <message>
        <source>write the picks as CSV, JSON, XLIFF or TMX</source>
        <translation>escribe las elecciones en CSV, JSON, XLIFF o TMX</translation>
    </message>
    <message>
        <source>&amp;Close project</source>
        <translation>&amp;Cerrar proyecto</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>TM &amp;lookup</source>
        <translation>Consulta de la &amp;memoria</translation>
    </message>
    <message>
        <source>find TM matches for every segment</source>
        <translation>busca coincidencias de la memoria para cada segmento</translation>
    </message>
    <message>
        <source>Machine &amp;translation (Apertium)</source>
        <translation>&amp;Traducción automática (Apertium)</translation>
    </message>
    <message>
        <source>&amp;Recommend</source>
        <translation>&amp;Recomendar</translation>
    </message>
    <message>
        <source>pick a candidate per segment</source>
        <translation>elige un candidato por segmento</translation>
    </message>
    <message>
        <source>&amp;Train model</source>
        <translation>E&amp;ntrenar modelo</translation>
    </message>
    <message>
        <source>train on the dev data</source>
        <translation>entrena con los datos de desarrollo</translation>
    </message>
    <message>
        <source>&amp;Cancel task</source>
        <translation>&amp;Cancelar tarea</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>Actuali&amp;zar</translation>
    </message>
    <message>
        <source>show what other processes changed in the project</source>
        <translation>muestra lo que otros procesos han cambiado en el proyecto</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Abrir &amp;reciente</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>Recientes</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Project</source>
        <translation>&amp;Proyecto</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <source>&amp;About TMTprime</source>
        <translation>&amp;Acerca de TMTprime</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Cannot create the project</source>
        <translation>No se puede crear el proyecto</translation>
    </message>
    <message>
        <source>Cannot open the project</source>
        <translation>No se puede abrir el proyecto</translation>
    </message>
    <message>
        <source>The password was not accepted. </source>
        <translation>No se ha aceptado la contraseña. </translation>
    </message>
    <message>
        <source>Database password</source>
        <translation>Contraseña de la base de datos</translation>
    </message>
    <message>
        <source>Password for {location}
(kept for this session only, never saved)</source>
        <translation>Contraseña de {location}
(se conserva solo durante esta sesión; nunca se guarda)</translation>
    </message>
    <message>
        <source>(no recent projects)</source>
        <translation>(no hay proyectos recientes)</translation>
    </message>
    <message>
        <source>&lt;i&gt;no project open — New or Open one&lt;/i&gt;</source>
        <translation>&lt;i&gt;no hay ningún proyecto abierto: cree uno nuevo o abra uno&lt;/i&gt;</translation>
    </message>
    <message>
        <source>reloaded from the project</source>
        <translation>recargado desde el proyecto</translation>
    </message>
    <message>
        <source>The project cannot be read or written</source>
        <translation>No se puede leer ni escribir el proyecto</translation>
    </message>
    <message>
        <source>About TMTprime</source>
        <translation>Acerca de TMTprime</translation>
    </message>
    <message>
        <source>&lt;b&gt;TMTprime {version}&lt;/b&gt;&lt;p&gt;Recommends, segment by segment, the TM match or an MT output to post-edit, with a calibrated confidence and cost estimates; includes a Meteor 1.5 scorer.&lt;/p&gt;</source>
        <translation>&lt;b&gt;TMTprime {version}&lt;/b&gt;&lt;p&gt;Recomienda, segmento a segmento, qué poseditar: la coincidencia de la memoria de traducción o una salida de traducción automática, con una confianza calibrada y estimaciones de coste; incluye un evaluador Meteor 1.5.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>{task} failed</source>
        <translation>Error en «{task}»</translation>
    </message>
</context>
<context>
    <name>MappingPage</name>
    <message>
        <source>source</source>
        <translation>origen</translation>
    </message>
    <message>
        <source>target</source>
        <translation>destino</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>referencia</translation>
    </message>
    <message>
        <source>tm</source>
        <translation>memoria</translation>
    </message>
    <message>
        <source>tm source</source>
        <translation>origen de la memoria</translation>
    </message>
    <message>
        <source>tm score</source>
        <translation>puntuación de la memoria</translation>
    </message>
    <message>
        <source>context</source>
        <translation>contexto</translation>
    </message>
    <message>
        <source>key</source>
        <translation>clave</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Columnas</translation>
    </message>
    <message>
        <source>Say which column holds what; &apos;(auto)&apos; lets TMTprime recognise the usual names.</source>
        <translation>Indique qué contiene cada columna; «(auto)» deja que TMTprime reconozca los nombres habituales.</translation>
    </message>
    <message>
        <source>TM system name</source>
        <translation>Nombre del sistema de la memoria</translation>
    </message>
    <message>
        <source>MT columns (ticked: system = column)</source>
        <translation>Columnas de TA (marcadas: sistema = columna)</translation>
    </message>
    <message numerus="yes">
        <source>{file} (first %n row(s))</source>
        <translation>
            <numerusform>{file} (primera fila)</numerusform>
            <numerusform>{file} (primeras %n filas)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> — the same mapping is used for %n more</source>
        <translation>
            <numerusform> — la misma asignación se usa para %n más</numerusform>
            <numerusform> — la misma asignación se usa para %n más</numerusform>
        </translation>
    </message>
    <message>
        <source>(auto)</source>
        <translation>(auto)</translation>
    </message>
</context>
<context>
    <name>MeteorView</name>
    <message>
        <source>Modules: {items}</source>
        <translation>Módulos: {items}</translation>
    </message>
    <message>
        <source>(language default)</source>
        <translation>(predeterminada del idioma)</translation>
    </message>
    <message>
        <source>custom α β γ δ</source>
        <translation>α β γ δ personalizados</translation>
    </message>
    <message>
        <source>normalize (-norm)</source>
        <translation>normalizar (-norm)</translation>
    </message>
    <message>
        <source>the language&apos;s table, if installed</source>
        <translation>la tabla del idioma, si está instalada</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>Opciones</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tarea</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>Módulos</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parámetros</translation>
    </message>
    <message>
        <source>Paraphrase table</source>
        <translation>Tabla de paráfrasis</translation>
    </message>
    <message>
        <source>Hypothesis (the translation to score)</source>
        <translation>Hipótesis (la traducción que se evalúa)</translation>
    </message>
    <message>
        <source>Reference(s), one per line — the best one wins</source>
        <translation>Referencia(s), una por línea; cuenta la mejor</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Puntuar</translation>
    </message>
    <message>
        <source>hyp content</source>
        <translation>hip.
contenido</translation>
    </message>
    <message>
        <source>hyp function</source>
        <translation>hip.
función</translation>
    </message>
    <message>
        <source>ref content</source>
        <translation>ref.
contenido</translation>
    </message>
    <message>
        <source>ref function</source>
        <translation>ref.
función</translation>
    </message>
    <message>
        <source>Hypothesis</source>
        <translation>Hipótesis</translation>
    </message>
    <message>
        <source>References</source>
        <translation>Referencias</translation>
    </message>
    <message>
        <source>Matches per module</source>
        <translation>Correspondencias por módulo</translation>
    </message>
    <message>
        <source>hypotheses, one segment per line</source>
        <translation>hipótesis, un segmento por línea</translation>
    </message>
    <message>
        <source>references, one segment per line</source>
        <translation>referencias, un segmento por línea</translation>
    </message>
    <message>
        <source>Hypotheses</source>
        <translation>Hipótesis</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>References per segment (-r)</source>
        <translation>Referencias por segmento (-r)</translation>
    </message>
    <message>
        <source>Score files</source>
        <translation>Puntuar archivos</translation>
    </message>
    <message>
        <source>Penalty</source>
        <translation>Penalización</translation>
    </message>
    <message>
        <source>Sentence pair</source>
        <translation>Par de oraciones</translation>
    </message>
    <message>
        <source>Score two files</source>
        <translation>Puntuar dos archivos</translation>
    </message>
    <message>
        <source>{language}, task {task}: α {alpha} β {beta} γ {gamma} δ {delta}, weights {weights}</source>
        <translation>{language}, tarea {task}: α {alpha} β {beta} γ {gamma} δ {delta}, pesos {weights}</translation>
    </message>
    <message>
        <source>Paraphrase table (Meteor&apos;s format)</source>
        <translation>Tabla de paráfrasis (formato de Meteor)</translation>
    </message>
    <message>
        <source>Segments file</source>
        <translation>Archivo de segmentos</translation>
    </message>
    <message>
        <source>type at least one reference</source>
        <translation>escriba al menos una referencia</translation>
    </message>
    <message>
        <source>P {p} · R {r} · Fmean {f} · penalty {penalty} · chunks {chunks} · fragmentation {frag}</source>
        <translation>P {p} · R {r} · Fmedia {f} · penalización {penalty} · bloques {chunks} · fragmentación {frag}</translation>
    </message>
    <message>
        <source> · best reference #{n}</source>
        <translation> · mejor referencia: n.º {n}</translation>
    </message>
    <message>
        <source>Meteor batch</source>
        <translation>Meteor por lotes</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Final score {score}&lt;/b&gt; over %n segment(s) · P {p} · R {r} · penalty {penalty}</source>
        <translation>
            <numerusform>&lt;b&gt;Puntuación final {score}&lt;/b&gt; en %n segmento · P {p} · R {r} · penalización {penalty}</numerusform>
            <numerusform>&lt;b&gt;Puntuación final {score}&lt;/b&gt; en %n segmentos · P {p} · R {r} · penalización {penalty}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NameOnlyIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>Carpeta</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <source>{suffix} file</source>
        <translation>Archivo {suffix}</translation>
    </message>
</context>
<context>
    <name>NewProjectDialog</name>
    <message>
        <source>New project</source>
        <translation>Nuevo proyecto</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Project file</source>
        <translation>Archivo de proyecto</translation>
    </message>
    <message>
        <source>Source language</source>
        <translation>Idioma de origen</translation>
    </message>
    <message>
        <source>Target language</source>
        <translation>Idioma de destino</translation>
    </message>
</context>
<context>
    <name>OpenProjectDialog</name>
    <message>
        <source>Open project</source>
        <translation>Abrir proyecto</translation>
    </message>
    <message>
        <source>project file, or database URL such as postgresql+psycopg://user@host/db</source>
        <translation>archivo de proyecto o URL de base de datos, como postgresql+psycopg://usuario@servidor/bd</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>A password in a URL is used for this session only; it is never saved. Without one, PGPASSWORD or ~/.pgpass is used, or you are asked.</source>
        <translation>Una contraseña incluida en la URL se usa solo durante esta sesión; nunca se guarda. Si no hay ninguna, se usa PGPASSWORD o ~/.pgpass, o se le pide.</translation>
    </message>
</context>
<context>
    <name>ProjectContext</name>
    <message>
        <source>open or create a project first</source>
        <translation>primero abra o cree un proyecto</translation>
    </message>
</context>
<context>
    <name>SegmentTableModel</name>
    <message>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <source>#</source>
        <translation>N.º</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Origen</translation>
    </message>
    <message>
        <source>Recommended text</source>
        <translation>Texto recomendado</translation>
    </message>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Band</source>
        <translation>Franja</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confianza</translation>
    </message>
    <message>
        <source>Fuzzy</source>
        <translation>Parcial</translation>
    </message>
    <message>
        <source> (yours)</source>
        <translation> (suya)</translation>
    </message>
</context>
<context>
    <name>SegmentsView</name>
    <message>
        <source>(any)</source>
        <translation>(cualquiera)</translation>
    </message>
    <message>
        <source>Find in source or recommended text</source>
        <translation>Buscar en el origen o en el texto recomendado</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <source>Dev data</source>
        <translation>Datos de desarrollo</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Todo</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Mostrar</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Band</source>
        <translation>Franja</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Confianza</translation>
    </message>
    <message>
        <source>to</source>
        <translation>a</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>bands not shown: {error}</source>
        <translation>franjas no mostradas: {error}</translation>
    </message>
    <message>
        <source>reading the segments…</source>
        <translation>leyendo los segmentos…</translation>
    </message>
    <message numerus="yes">
        <source>%n+ segments shown</source>
        <translation>
            <numerusform>%n+ segmentos mostrados</numerusform>
            <numerusform>%n+ segmentos mostrados</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n segment(s) shown</source>
        <translation>
            <numerusform>%n segmento mostrado</numerusform>
            <numerusform>%n segmentos mostrados</numerusform>
        </translation>
    </message>
    <message>
        <source>your text is stored; exports and the analysis use it</source>
        <translation>su texto se ha guardado; las exportaciones y el análisis lo usan</translation>
    </message>
    <message>
        <source>your pick is stored; exports and the analysis use it</source>
        <translation>su elección se ha guardado; las exportaciones y el análisis la usan</translation>
    </message>
    <message>
        <source>Export {format}</source>
        <translation>Exportar {format}</translation>
    </message>
</context>
<context>
    <name>TaskRunner</name>
    <message>
        <source>cancelling…</source>
        <translation>cancelando…</translation>
    </message>
    <message>
        <source>{task}: done</source>
        <translation>{task}: terminado</translation>
    </message>
    <message>
        <source>{task}: cancelled, nothing was changed</source>
        <translation>{task}: cancelado; no se ha cambiado nada</translation>
    </message>
</context>
<context>
    <name>TrainingView</name>
    <message>
        <source>No model in this project yet.</source>
        <translation>Este proyecto aún no tiene ningún modelo.</translation>
    </message>
    <message>
        <source>always taking &lt;b&gt;{system}&lt;/b&gt;</source>
        <translation>elegir siempre &lt;b&gt;{system}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>always taking the best single system</source>
        <translation>elegir siempre el mejor sistema individual</translation>
    </message>
    <message>
        <source>&lt;b&gt;This model is worse than {system}&lt;/b&gt;: its picks need more post-editing on the dev data (it closes {percent} % of the gap to the best possible picks). Do not recommend with it; train on more or more varied development data, or use another model.</source>
        <translation>&lt;b&gt;Este modelo es peor que {system}&lt;/b&gt;: sus elecciones requieren más posedición en los datos de desarrollo (cierra el {percent} % de la distancia hasta las mejores elecciones posibles). No recomiende con él; entrénelo con más datos de desarrollo o más variados, o use otro modelo.</translation>
    </message>
    <message>
        <source>recall (MT outputs that beat the TM match)</source>
        <translation>exhaustividad (salidas de TA mejores que la coincidencia de la memoria)</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>precisión</translation>
    </message>
    <message>
        <source>MT over TM match (cross-validated)</source>
        <translation>TA frente a coincidencia de la memoria (validación cruzada)</translation>
    </message>
    <message>
        <source>Train on the dev data</source>
        <translation>Entrenar con los datos de desarrollo</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Mean sentence TER of</source>
        <translation>TER medio por oración de</translation>
    </message>
    <message>
        <source>TER</source>
        <translation>TER</translation>
    </message>
    <message>
        <source>Precision-recall</source>
        <translation>Precisión-exhaustividad</translation>
    </message>
    <message>
        <source>Apply to the documents</source>
        <translation>Aplicar a los documentos</translation>
    </message>
    <message>
        <source>Precision of MT over the TM match</source>
        <translation>Precisión de la TA frente a la coincidencia de la memoria</translation>
    </message>
    <message>
        <source>train a model on the project&apos;s development data</source>
        <translation>entrena un modelo con los datos de desarrollo del proyecto</translation>
    </message>
    <message>
        <source>Train a model to see its precision-recall curve.</source>
        <translation>Entrene un modelo para ver su curva de precisión-exhaustividad.</translation>
    </message>
    <message>
        <source>trained on {segments} segments, {documents} documents; systems {systems}</source>
        <translation>entrenado con {segments} segmentos y {documents} documentos; sistemas: {systems}</translation>
    </message>
    <message>
        <source>gap to the oracle closed &lt;b&gt;{percent} %&lt;/b&gt; · ECE {ece} · r(confidence, TER) {r}</source>
        <translation>distancia al oráculo cerrada: &lt;b&gt;{percent} %&lt;/b&gt; · ECE {ece} · r(confianza, TER) {r}</translation>
    </message>
    <message>
        <source>The model card has no MT-over-TM decisions (no TM matches of fuzzy ≥ 50 in the dev data).</source>
        <translation>La ficha del modelo no tiene decisiones de TA frente a memoria (no hay coincidencias de la memoria con parcial ≥ 50 en los datos de desarrollo).</translation>
    </message>
    <message>
        <source>MT over the TM match when at least &lt;b&gt;{threshold}&lt;/b&gt; sure: precision &lt;b&gt;{precision}&lt;/b&gt;, recall {recall} — &lt;b&gt;{to_mt}&lt;/b&gt; of the dev segments go to MT ({better} would be better with MT).</source>
        <translation>TA en lugar de la coincidencia de la memoria con una seguridad de al menos &lt;b&gt;{threshold}&lt;/b&gt;: precisión &lt;b&gt;{precision}&lt;/b&gt;, exhaustividad {recall} — &lt;b&gt;{to_mt}&lt;/b&gt; de los segmentos de desarrollo van a la TA ({better} estarían mejor con TA).</translation>
    </message>
    <message>
        <source>&lt;br&gt;Documents now: &lt;b&gt;{mt}&lt;/b&gt; of {segments} segments picked from MT, TMTprime estimate &lt;b&gt;{cost} {currency}&lt;/b&gt;.</source>
        <translation>&lt;br&gt;Documentos ahora: &lt;b&gt;{mt}&lt;/b&gt; de {segments} segmentos elegidos de la TA; estimación de TMTprime: &lt;b&gt;{cost} {currency}&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>trained model {name}</source>
        <translation>modelo {name} entrenado</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Recommend</source>
        <translation>Recomendar</translation>
    </message>
</context>
</TS>
