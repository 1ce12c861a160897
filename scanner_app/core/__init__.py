"""The client's Qt-free core: pages (images, results, schema, errors) and the features built on them.

The modules at this level are what every feature shares: reading files into upright pages
(``images``), the results the server gives back (``results``, ``schema``), the app's exceptions
(``errors``) and atomic writes. Each feature is a package of its own: ``client`` (the one way to
talk to Triton), ``batch`` (resumable runs over a store), ``store``, ``watch`` (scan-to-folder),
``devices`` (scanners), ``camera`` (document edges in a frame), ``pdf``, ``einvoice`` (OFD, XML),
``export`` and ``fields``.

May import: ``scanner_app.contract``, each other as the import-linter contracts allow
(pyproject.toml), and ``scanner_app.server`` for process helpers; never Qt or ``scanner_app.gui``.
"""
