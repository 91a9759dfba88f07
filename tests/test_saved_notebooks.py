"""Saved notebooks without dead widget views (medviz.apps.saved): the pre-save hook and the command."""

from __future__ import annotations

import json
from pathlib import Path

import ipywidgets as widgets

from medviz.apps.saved import NOTE_TEXT, WIDGET_VIEW, drop_widget_views, main


def _notebook() -> dict:
    bundle = widgets.IntSlider()._repr_mimebundle_()  # what a kernel sends for an app's output
    assert WIDGET_VIEW in bundle
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}},
            "cells": [{"cell_type": "code", "source": "app", "metadata": {}, "execution_count": 1,
                       "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                    "data": bundle},
                                   {"output_type": "stream", "name": "stdout", "text": "1,397 events\n"}]},
                      {"cell_type": "markdown", "source": "# x", "metadata": {}}]}


def test_the_pre_save_hook_leaves_a_note_where_an_app_was_and_keeps_other_outputs() -> None:
    model = {"type": "notebook", "content": _notebook()}
    drop_widget_views(model=model, path="x.ipynb", contents_manager=None)
    outputs = model["content"]["cells"][0]["outputs"]
    assert outputs[0]["data"]["text/plain"] == NOTE_TEXT and WIDGET_VIEW not in outputs[0]["data"]
    assert "Run the cell" in outputs[0]["data"]["text/html"]
    assert outputs[1]["text"] == "1,397 events\n"
    assert "widgets" not in model["content"]["metadata"]  # no embedded widget state (megabytes)
    other = {"type": "file", "content": "app"}
    drop_widget_views(model=other, path="x.txt", contents_manager=None)
    assert other == {"type": "file", "content": "app"}


def test_the_command_cleans_a_saved_notebook_in_place(tmp_path: Path, capsys) -> None:
    path = tmp_path / "v.ipynb"
    path.write_text(json.dumps(_notebook()))
    assert main([str(path)]) == 0
    assert "2 widget output(s)" in capsys.readouterr().out  # the view and the saved state
    text = path.read_text()
    assert WIDGET_VIEW not in text and NOTE_TEXT in text
    before = path.stat().st_mtime_ns
    assert main([str(path)]) == 0 and path.stat().st_mtime_ns == before  # nothing left to do: untouched
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    assert main([str(bad)]) == 2
    assert "bad.ipynb: not a readable notebook" in capsys.readouterr().err
    assert bad.read_text() == "{not json"
