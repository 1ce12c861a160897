"""The main window and what belongs to it alone: its actions and menus, the shortcuts page, recent files.

It assembles every GUI feature and owns no logic. May import: any GUI package.
"""
