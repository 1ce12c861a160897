"""The app's link to Triton: configured endpoints or the embedded server, watched by a timer.

``link`` is the Qt side; ``logic`` and ``session`` are Qt-free and run on its worker thread;
``embedded_host`` holds the embedded server and its supervisor.

May import: the GUI's shared modules, ``core.client``, ``scanner_app.server`` and the core.
"""
