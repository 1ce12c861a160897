"""One document of a page in its own frame: the geometry that turns a receipt on a glass page upright.

May import: nothing of the app's but ``scanner_app.contract``.
"""
