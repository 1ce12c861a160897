<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>BatchPanel</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="369"/>
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="369"/>
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="370"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/batch/panel.py" line="406"/>
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
        <location filename="../../scanner_app/gui/document/controller.py" line="214"/>
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/document/controller.py" line="225"/>
        <source>Exported %n file(s) to {0}</source>
        <translation>
            <numerusform>Exported %n file to {0}</numerusform>
            <numerusform>Exported %n files to {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EditBar</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/edit_bar.py" line="54"/>
        <source>%n selected:</source>
        <translation>
            <numerusform>%n selected:</numerusform>
            <numerusform>%n selected:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="54"/>
        <source>The %n receipt(s) found</source>
        <translation>
            <numerusform>The %n receipt found</numerusform>
            <numerusform>The %n receipts found</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/export_dialog.py" line="55"/>
        <source>The %n receipt(s) selected</source>
        <translation>
            <numerusform>The %n receipt selected</numerusform>
            <numerusform>The %n receipts selected</numerusform>
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
    <name>LibraryPanel</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="167"/>
        <source>Changing %n receipt(s)...</source>
        <translation>
            <numerusform>Changing %n receipt...</numerusform>
            <numerusform>Changing %n receipts...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="275"/>
        <source>%n receipt(s) found of {0} in the library</source>
        <translation>
            <numerusform>%n receipt found of {0} in the library</numerusform>
            <numerusform>%n receipts found of {0} in the library</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="280"/>
        <source>%n possible duplicate(s) to decide</source>
        <translation>
            <numerusform>%n possible duplicate to decide</numerusform>
            <numerusform>%n possible duplicates to decide</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="298"/>
        <source>Changed %n receipt(s)</source>
        <translation>
            <numerusform>Changed %n receipt</numerusform>
            <numerusform>Changed %n receipts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="320"/>
        <source>Wrote %n receipt(s) to {0}</source>
        <translation>
            <numerusform>Wrote %n receipt to {0}</numerusform>
            <numerusform>Wrote %n receipts to {0}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="323"/>
        <source>%n left out ({0})</source>
        <translation>
            <numerusform>%n left out ({0})</numerusform>
            <numerusform>%n left out ({0})</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/library/panel.py" line="325"/>
        <source>%n exported before, not again</source>
        <translation>
            <numerusform>%n exported before, not again</numerusform>
            <numerusform>%n exported before, not again</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/window/main_window.py" line="302"/>
        <source>Copied %n line(s)</source>
        <translation>
            <numerusform>Copied %n line</numerusform>
            <numerusform>Copied %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../scanner_app/gui/window/main_window.py" line="307"/>
        <source>Copied all %n line(s)</source>
        <translation>
            <numerusform>Copied the %n line</numerusform>
            <numerusform>Copied all %n lines</numerusform>
        </translation>
    </message>
</context>
</TS>
