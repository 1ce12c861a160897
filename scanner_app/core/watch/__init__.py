"""A watched folder (a copier's scan-to-folder): every file that lands is read once, when complete.

``watcher`` runs it; ``observer`` chooses native events or polling, ``settle`` and ``complete``
decide when a file is whole, ``events`` is what it reports besides the batch's own events.

May import: the core's shared modules, ``core.batch``, ``core.store``, ``core.export``. Not the
scanners, the camera or the client (a recognizer is handed in), never Qt.
"""
