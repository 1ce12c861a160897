"""The UI languages offered (no Qt import: the command line reads it too)."""

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # code -> name, each in its own language
