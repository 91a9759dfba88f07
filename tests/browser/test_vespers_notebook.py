"""The annotated Vespers replay in JupyterLab, driven by chromium: run it, step the viewer, change a die.

The notebook is opened from a copy with its saved outputs cleared (with its ``annotations/``
folder beside it, so ``load_annotations("annotations/vespers-1282.toml", ...)`` resolves), under
the git-ignored test-artifacts/, so everything we read can only come from running it now. The
maps are plotly FigureWidgets; we read their data straight from the graph divs in the page
(``div.js-plotly-plot``'s ``.data`` and ``.layout``), so a change asserted here is a change the
browser actually received, not one the kernel merely computed. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import ast
import re
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT, cleared_copy, open_and_run_all, wait_for

NOTEBOOK = ROOT / "notebooks" / "vespers-1282.ipynb"
ANNOTATIONS = ROOT / "notebooks" / "annotations"

#: Reads a state map from the first plotly graph div under ``root``: the title, every area's fill
#: (area traces carry ``meta.area``) and every other named trace's text and small coordinates
#: (unit badges, Kings, overlays). Big geometry arrays are left out: they never change.
SNAPSHOT_JS = """
(root) => {
  const el = root.querySelector('.js-plotly-plot');
  if (!el || !Array.isArray(el.data) || el.data.length === 0) return null;
  const small = (v) => (v && v.length !== undefined && v.length < 400) ? Array.from(v) : (v ? v.length : null);
  const fills = {}, traces = {};
  for (const t of el.data) {
    const area = t.meta && t.meta.area;
    if (area) {
      fills[area] = JSON.stringify([t.fillcolor ?? null, t.fillpattern ?? null]);
    } else if (t.name) {
      traces[t.name] = JSON.stringify([t.text ?? null, small(t.x), small(t.y), t.visible ?? null]);
    }
  }
  const title = el.layout && el.layout.title;
  return {title: typeof title === 'string' ? title : ((title && title.text) || ''), fills, traces,
          n: el.data.length};
}
"""


#: How a map sits in its output area: the figure's width, the area's, the right edge of the figure and
#: the rightmost edge of its annotations (the side panel's boxes) and legend, in page pixels.
FIT_JS = """
(root) => {
  const el = root.querySelector('.js-plotly-plot');
  const svg = el && el.querySelector('svg.main-svg');
  if (!svg) return null;
  const out = el.closest('.jp-OutputArea-output').getBoundingClientRect();
  const box = svg.getBoundingClientRect();
  const parts = Array.from(el.querySelectorAll('.annotation, .legend')).map(a => a.getBoundingClientRect().right);
  return {svg: Number(svg.getAttribute('width')), out: out.width, right: box.right, panel: Math.max(...parts)};
}
"""


def changed(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """What differs between two map snapshots: title, areas whose fill changed, other traces changed."""
    return {
        "title": a["title"] != b["title"],
        "areas": sorted(k for k in set(a["fills"]) | set(b["fills"]) if a["fills"].get(k) != b["fills"].get(k)),
        "traces": sorted(k for k in set(a["traces"]) | set(b["traces"]) if a["traces"].get(k) != b["traces"].get(k)),
    }


def txt(locator: Any) -> str:
    """A locator's text (its DOM text, so cells the notebook has not painted off-screen read too)."""
    return (locator.text_content() or "").replace("\u00a0", " ")


def test_vespers_notebook_steps_and_branches_in_jupyterlab(lab: dict[str, Any], offline_page: Any,
                                                           artifacts: Path) -> None:
    page = offline_page.page
    page.set_viewport_size({"width": 1800, "height": 1900})  # room for a whole app in a screenshot
    open_and_run_all(page, lab, cleared_copy(NOTEBOOK, artifacts / "lab-vespers", beside=[ANNOTATIONS]))

    # The last cell is the DiceLab: once its map is drawn, every cell has run.
    viewer = page.locator(".jp-CodeCell").filter(has=page.locator(".jp-OutputArea-output", has_text="What happens"))
    dicelab = page.locator(".jp-CodeCell").filter(has=page.locator(".jp-OutputArea-output", has_text="Branch here"))
    whatif = page.locator(".jp-OutputArea-output", has_text="what each face would have meant")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    wait_for("the notebook to run to its DiceLab (or fail)", lambda: dicelab.count() or errors.count(), timeout=150)
    assert errors.count() == 0, txt(errors.first)
    wait_for("the DiceLab's map to be drawn", lambda: dicelab.first.evaluate(SNAPSHOT_JS), timeout=60)
    wait_for("the ReplayViewer's map to be drawn", lambda: viewer.first.evaluate(SNAPSHOT_JS), timeout=60)
    assert viewer.count() == 1 and dicelab.count() == 1
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=60_000)
    assert errors.count() == 0, txt(errors.first)
    first = txt(page.locator(".jp-OutputArea-output", has_text="dice rolls and draws").first)
    assert re.search(r"[\d,]+ events, \d+ dice rolls and draws", first), first
    assert "Outcome:" in first

    # JupyterLab's one toast here asks about its news feed (the fetch itself is off); it would sit on
    # the maps in the screenshots. Error toasts are checked before it is hidden.
    assert page.locator(".jp-Notification-Toast-error").count() == 0, txt(page.locator(".jp-Notification-Toast-error").first)
    page.add_style_tag(content=".Toastify__toast-container { display: none !important; }")

    # -- 1. ReplayViewer: step forward, then jump into turn 2 -----------------------------------
    viewer = viewer.first
    viewer.scroll_into_view_if_needed()
    where = viewer.locator(".widget-html", has_text=re.compile(r"event \d+ of \d+")).first
    log = viewer.locator(".medviz-log").first
    current = viewer.locator(".medviz-current").first
    start_where, start_log, start_current = txt(where), txt(log), txt(current)
    found = re.search(r"event (\d+) of (\d+)", start_where)
    assert found, start_where
    first_event, total = int(found.group(1)), int(found.group(2))
    assert total > 100 and first_event > 100, start_where  # the notebook opens after the set-up (3.0)
    map0 = viewer.evaluate(SNAPSHOT_JS)
    assert len(map0["fills"]) > 50, "the viewer's map should paint every area"
    assert "turn 1" in map0["title"], map0["title"]

    viewer.locator("button", has_text="step ▶").click()
    wait_for("the viewer to step one event on", lambda: f"event {first_event + 1} of {total}" in txt(where))
    wait_for("the log to follow the step", lambda: txt(current) != start_current)
    assert txt(log) != start_log

    # The jump menu puts the slider (and map, log, notes) on the first event of turn 2's politics.
    jump = viewer.locator(".widget-dropdown select").first
    stops = jump.evaluate("s => Array.from(s.options).map(o => o.label)")
    turn2 = next(o for o in stops if o.replace("\u00a0", " ") == "Turn 2 · politics")
    jump.select_option(label=turn2)
    wait_for("the viewer to reach turn 2", lambda: txt(where).startswith("turn 2"))
    map2 = wait_for("the viewer's map to show turn 2",
                    lambda: (m := viewer.evaluate(SNAPSHOT_JS)) and "turn 2" in m["title"] and m)
    delta = changed(map0, map2)
    assert delta["title"]
    assert delta["areas"] or delta["traces"], "stepping into turn 2 changed nothing on the map"
    assert map2["n"] == map0["n"], "a step should restyle the figure's traces, not add or drop any"
    assert "politics" in txt(where)
    assert txt(current) != start_current
    # The slider moved with the jump: its handle sits on the event the viewer names.
    handle = viewer.locator(".noUi-handle").first
    at = int(re.search(r"event (\d+) of", txt(where)).group(1))  # type: ignore[union-attr]
    wait_for("the slider to follow the jump", lambda: float(handle.get_attribute("aria-valuenow") or -1) == at - 1)
    notes = viewer.locator(".medviz-note")
    wait_for("the note for turn 2's politics", lambda: notes.count() > 0)
    viewer.screenshot(path=str(artifacts / "jupyterlab-vespers-viewer-turn2.png"))

    # The slider itself, moved from the keyboard as a user would: End goes to the last event.
    handle.focus()
    handle.press("End")
    wait_for("the slider to reach the last event", lambda: f"event {total} of {total}" in txt(where))
    map_end = wait_for("the viewer's map to show the end",
                       lambda: (m := viewer.evaluate(SNAPSHOT_JS)) and m["title"] != map2["title"] and m)
    assert changed(map2, map_end)["areas"] or changed(map2, map_end)["traces"]
    assert "▶" in txt(current) and f"{total - 1} " in txt(current)

    # -- 2. DiceLab: pick the what-if cell's roll, try another face, branch -----------------------
    said = txt(whatif.first)
    m = re.search(r"deciding roll (\S+) = (\d+)", said)
    assert m, said
    roll_id, shown = m.group(1), int(m.group(2))
    effects = {int(k): v for k, v in ast.literal_eval(said.split("what each face would have meant:", 1)[1]
                                                      .strip().splitlines()[0]).items()}

    dl = dicelab.first
    dl.scroll_into_view_if_needed()
    info = dl.locator(".widget-html", has_text="what it would mean").first
    first_pick = info.locator("b").first.inner_text()
    map_before_pick = dl.evaluate(SNAPSHOT_JS)
    diff_box = dl.locator("pre").first
    assert "history as played" in txt(diff_box)
    rolls = dl.locator(".widget-dropdown select").first
    options = rolls.evaluate("s => Array.from(s.options).map(o => o.label)")
    candidates = [o for o in options
                  if "Battle Table" in o.replace("\u00a0", " ") and f": {shown} → {effects[shown]}" in o.replace("\u00a0", " ")]
    assert candidates, f"no roll showing {shown} → {effects[shown]} in the DiceLab's menu"

    # Picking a roll moves the DiceLab's map to the roll's phase at once (no branch, no toggle):
    # first a roll of another phase than the what-if roll's, then the what-if roll itself.
    def phase_of(rid: str) -> str:
        return "/".join(rid.split("/")[:2])  # GT3/ops-B

    def picked_id() -> str:
        return info.locator("b").first.inner_text()

    for label in (options[-1], options[0]):
        was = txt(info)
        rolls.select_option(label=label)
        wait_for(f"the DiceLab to show {label!r}", lambda was=was: txt(info) != was, timeout=15)
        if phase_of(picked_id()) != phase_of(roll_id):
            break
    assert phase_of(picked_id()) != phase_of(roll_id)
    if phase_of(picked_id()) != phase_of(first_pick):
        wait_for("the DiceLab's map to follow the pick",
                 lambda: dl.evaluate(SNAPSHOT_JS)["title"] != map_before_pick["title"])
    elsewhere = dl.evaluate(SNAPSHOT_JS)
    for label in candidates:  # several rolls may read alike; the info box names the one picked
        if roll_id in txt(info):
            break
        was = txt(info)
        rolls.select_option(label=label)
        wait_for(f"the DiceLab to show {label!r}", lambda was=was: txt(info) != was, timeout=15)
    assert roll_id in txt(info), f"the DiceLab's menu has no entry for {roll_id}"
    assert f"shows {shown}" in txt(info)
    turn = re.match(r"GT(\d+)/", roll_id)
    wait_for("the DiceLab's map to move to the what-if roll's phase",
             lambda: (t := dl.evaluate(SNAPSHOT_JS)["title"]) != elsewhere["title"] and (not turn or f"turn {turn.group(1)}" in t))

    def settled() -> Any:
        a = dl.evaluate(SNAPSHOT_JS)
        time.sleep(0.5)
        return a == dl.evaluate(SNAPSHOT_JS) and a
    assert changed(elsewhere, wait_for("the DiceLab's map to settle", settled))["title"]

    # Try another face -- one with another result, and not the one the what-if cell already
    # branched on (the tree would then show that branch again) -- and branch: the map moves to it.
    tree = dl.locator(".widget-select select").first
    entries_before = tree.evaluate("s => Array.from(s.options).map(o => o.label.replace(/\\u00a0/g, ' '))")
    assert "as played" in entries_before[0]
    tried = {int(t) for t in re.findall(rf"{re.escape(roll_id)} = (\d+)", " ".join(entries_before))}
    untried = [f for f in sorted(effects) if f != shown and f not in tried]
    assert untried, f"every face of {roll_id} has been branched on already: {entries_before}"
    # The battle table's results from the attacker's best to worst (as the notebook orders them); the face whose
    # result lies farthest from the one shown is the likeliest to show on the map.
    order = ["DV+S", "DV", "BB", "NE", "CA"]
    rank = {r: i for i, r in enumerate(order)}
    face = max(untried, key=lambda f: abs(rank.get(effects[f], 2) - rank.get(effects[shown], 2)))
    picked = dl.evaluate(SNAPSHOT_JS)
    face_button = dl.get_by_role("button", name=str(face), exact=True)
    face_button.click()
    wait_for(f"face {face} to be picked", lambda: "mod-active" in (face_button.get_attribute("class") or "")
             and "outline" in (info.inner_html() or ""))  # the tried face is outlined in the table
    dl.get_by_role("button", name="Branch here").click()
    wait_for("the branch to be made", lambda: f"branch made: {roll_id} = {face}" in txt(dl))
    wait_for("the diff in words", lambda: f"Branch {roll_id} = {face} against its parent" in txt(diff_box))
    words = txt(diff_box)
    assert "They part at event" in words
    branch_map = wait_for("the DiceLab's map to show the branch",
                          lambda: (s := dl.evaluate(SNAPSHOT_JS)) and s != picked and s)
    # The branch tree lists it (besides any branch the notebook's what-if cell made) and selects it.
    entries = tree.evaluate("s => Array.from(s.options).map(o => o.label.replace(/\\u00a0/g, ' '))")
    assert len(entries) == len(entries_before) + 1, entries
    mine = tree.evaluate("s => s.selectedIndex")
    assert entries[mine].strip().startswith(f"└ {roll_id} = {face}"), entries
    dl.screenshot(path=str(artifacts / "jupyterlab-vespers-dicelab-branch.png"))

    # Same moment, other die: switching to the history as played shows the parent's map at the end
    # of the same phase -- same title, other colours or badges. That difference is the die's doing.
    tree.select_option(index=0)
    wait_for("the parent's words", lambda: "history as played" in txt(diff_box))
    parent_map = wait_for("the parent's map at the same moment",
                          lambda: (s := dl.evaluate(SNAPSHOT_JS)) and s != branch_map
                          and s["title"] == branch_map["title"] and s)
    delta = changed(parent_map, branch_map)
    assert delta["areas"] or delta["traces"], "changing the die changed nothing on the map"

    # At the end of the game: every area the diff says changed hands is painted differently.
    moved = re.search(r"Areas that changed hands: (.*)", words)
    dl.get_by_role("button", name="at the end", exact=True).click()
    parent_end = wait_for("the parent's map at the end of the game",
                          lambda: (s := dl.evaluate(SNAPSHOT_JS)) and s != parent_map and s)
    tree.select_option(index=mine)
    wait_for("the branch's words again", lambda: f"Branch {roll_id} = {face}" in txt(diff_box))
    branch_end = wait_for("the branch's map at the end of the game",
                          lambda: (s := dl.evaluate(SNAPSHOT_JS)) and (s != parent_end or not moved)
                          and s["title"] == parent_end["title"] and s)  # the same end when no area moved
    if moved:
        hands = re.findall(r"(\w+) \(", moved.group(1))
        assert hands and set(hands) <= set(changed(parent_end, branch_end)["areas"]), (hands, changed(parent_end, branch_end))
    else:
        assert "No area ends in other hands" in words
    dl.screenshot(path=str(artifacts / "jupyterlab-vespers-dicelab-branch-end.png"))

    # -- 3. The maps follow the width they have -----------------------------------------------------
    # At 1500 px with JupyterLab's file browser open the output area is narrower than 1200 px: each map
    # fits it, side panel (TP/VP boxes, legend) included, and the branch list shows every entry whole.
    page.set_viewport_size({"width": 1500, "height": 1000})
    for app in (viewer, dl):
        seen: list[Any] = []

        def fits(app: Any = app, seen: list[Any] = seen) -> bool:
            seen.append(f := app.evaluate(FIT_JS))
            return bool(f) and abs(f["svg"] - f["out"]) <= 2 and f["panel"] <= f["right"] + 0.5

        try:
            wait_for("the map to fit its output area", fits, timeout=20)
        except pytest.fail.Exception:
            pytest.fail(f"a map does not fit its output area at 1500 px: {seen[-1]}")
        assert seen[-1]["out"] < 1200, seen[-1]  # meaningful only if the area is narrower than 1200 px
    lst = dl.locator("select.medviz-branch-list, .medviz-branch-list select").first
    assert lst.evaluate("s => s.scrollWidth <= s.clientWidth"), "an entry of the branch list is cut off"
    box = lst.evaluate("s => { const b = s.closest('.medviz-branch-list').parentElement; "
                       "return [b.scrollWidth, b.clientWidth]; }")
    assert box[0] <= box[1] + 1, f"the branch list's box hides part of its entries: {box}"  # room enough here
    dl.locator(".widget-select").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "jupyterlab-vespers-dicelab-1500.png"))

    assert not offline_page.errors, offline_page.errors[:3]
    assert not offline_page.blocked, offline_page.blocked[:5]

