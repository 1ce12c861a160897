"""The command line, one module per subcommand (``scan``, ``watch``, ``device``, ``bench``, ``serve``,
``models``, ``gui``); each builds its argparse parser in ``add_parser`` and runs in ``run``.

May import: everything below it; the GUI only inside ``gui`` (PySide6 loads when that command runs).
"""
