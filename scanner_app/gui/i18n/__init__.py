"""UI languages: which one to use, the translators, and the core's English texts in the UI language.

``languages`` imports no Qt (the command line reads it).
May import: the core's texts; no other GUI package.
"""
