<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>MappingPage</name>
    <message numerus="yes">
        <source>{file} (first %n row(s))</source>
        <translation>
            <numerusform>{file} (first %n row)</numerusform>
            <numerusform>{file} (first %n rows)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> — the same mapping is used for %n more</source>
        <translation>
            <numerusform> — the same mapping is used for %n more</numerusform>
            <numerusform> — the same mapping is used for %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MeteorView</name>
    <message numerus="yes">
        <source>&lt;b&gt;Final score {score}&lt;/b&gt; over %n segment(s) · P {p} · R {r} · penalty {penalty}</source>
        <translation>
            <numerusform>&lt;b&gt;Final score {score}&lt;/b&gt; over %n segment · P {p} · R {r} · penalty {penalty}</numerusform>
            <numerusform>&lt;b&gt;Final score {score}&lt;/b&gt; over %n segments · P {p} · R {r} · penalty {penalty}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SegmentsView</name>
    <message numerus="yes">
        <source>%n+ segments shown</source>
        <translation>
            <numerusform>%n+ segments shown</numerusform>
            <numerusform>%n+ segments shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n segment(s) shown</source>
        <translation>
            <numerusform>%n segment shown</numerusform>
            <numerusform>%n segments shown</numerusform>
        </translation>
    </message>
</context>
</TS>
