<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>BatchPanel</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="358"/>
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="358"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="359"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="395"/>
        <source>Wrote %n file(s): {0}</source>
        <translation>
            <numerusform>Wrote %n file: {0}</numerusform>
            <numerusform>Wrote %n files: {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DocumentController</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document/controller.py" line="188"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document/controller.py" line="199"/>
        <source>Exported %n file(s) to {0}</source>
        <translation>
            <numerusform>Exported %n file to {0}</numerusform>
            <numerusform>Exported %n files to {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FieldsPanel</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/fields/panel.py" line="174"/>
        <source>%n field(s)</source>
        <translation>
            <numerusform>%n field</numerusform>
            <numerusform>%n fields</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/window/main_window.py" line="281"/>
        <source>Copied %n line(s)</source>
        <translation>
            <numerusform>Copied %n line</numerusform>
            <numerusform>Copied %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/window/main_window.py" line="286"/>
        <source>Copied all %n line(s)</source>
        <translation>
            <numerusform>Copied the %n line</numerusform>
            <numerusform>Copied all %n lines</numerusform>
        </translation>
    </message>
</context>
</TS>
