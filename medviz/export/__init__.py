"""Standalone HTML replays: annotation files, sanitizing, the one-file export and its command.

``medviz.export.annotations.load_annotations`` reads and checks a notes file (docs/annotations.md);
``medviz.export.html.export_html`` writes one offline page for a history (docs/export.md).
"""
