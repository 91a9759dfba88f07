"""The annotated Vespers replay in JupyterLab, driven by chromium: run it, step the viewer, change a die.

The notebook is opened from a copy with its saved outputs cleared (with its ``annotations/``
folder beside it, so ``load_annotations("annotations/vespers-1282.toml", ...)`` resolves), under
the git-ignored test-artifacts/, so everything we read can only come from running it now. The
maps are plotly FigureWidgets; we read their data straight from the graph divs in the page
(``div.js-plotly-plot``'s ``.data`` and ``.layout``), so a change asserted here is a change the
browser actually received, not one the kernel merely computed. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_sample import ROOT, cleared_copy, open_and_run_all, wait_for
from screen_fit import fits_one_screen, page_errors

NOTEBOOK = ROOT / "notebooks" / "vespers-1282.ipynb"
ANNOTATIONS = ROOT / "notebooks" / "annotations"

#: Reads a state map from the first plotly graph div under ``root``: the title, every area's fill
#: (area traces carry ``meta.area``, merged fixed areas ``meta.areas``) and every other named trace's text and small coordinates
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
    } else if (t.meta && t.meta.areas) {  // seas and context lands that never change, merged by fill
      for (const a of Object.keys(t.meta.areas)) fills[a] = JSON.stringify([t.fillcolor ?? null, t.fillpattern ?? null]);
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


#: What must be on the screen with the map: the place and step, play and step buttons, the slider, the
#: jump menu, the step's line of the log and its notes (ReplayViewer); the roll menu, a face, Branch here
#: and the roll in words (DiceLab).
VIEWER_PARTS = [".medviz-where", "button:▶ play", "button:step ▶", ".noUi-handle", ".medviz-jump select",
                ".medviz-now-event", ".medviz-now-notes", ".medviz-fullscreen"]
DICELAB_PARTS = [".widget-dropdown select", "button:1", "button:Branch here", ".medviz-roll-name",
                 ".medviz-fullscreen"]


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
    whatif = page.locator(".jp-OutputArea-output", has_text="What if it had shown")
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

    # The jump menu speaks the game's years and phases (Ruleset.turn_label, phase_names), and holds
    # a bookmark for each annotated moment.
    jump = viewer.locator(".widget-dropdown select").first
    stops = [o.replace("\u00a0", " ") for o in jump.evaluate("s => Array.from(s.options).map(o => o.label)")]
    assert "GT2 (1291-1300) · politics" in stops and "GT2 (1291-1300) · Player B's operations" in stops, stops
    assert not any("operations-B" in o or "_" in o for o in stops), stops
    assert sum(o.startswith("★ ") for o in stops) >= 3, stops
    # The slider's ticks are titled in the same words.
    ticks = viewer.evaluate("r => Array.from(r.querySelectorAll('span[title]')).map(s => s.title)")
    assert "GT1 (1282-1290) · Player A's operations" in ticks, ticks[:12]
    # The jump menu puts the slider (and map, log, notes) on the first event of turn 2's politics.
    jump.select_option(label=next(o for o in jump.evaluate("s => Array.from(s.options).map(o => o.label)")
                                  if o.replace("\u00a0", " ") == "GT2 (1291-1300) · politics"))
    wait_for("the viewer to reach turn 2", lambda: txt(where).startswith("GT2 (1291-1300) · politics · event"))
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
    wait_for("the slider to follow the jump", lambda: float(handle.get_attribute("aria-valuenow") or -1) == at)
    # One event number everywhere: the viewer's line and the log's current line say the same number.
    number = re.search(r"(?:T\d+|set-up) (\d+) ", txt(current))
    assert number and number.group(1) == str(at), (txt(current), at)
    notes = viewer.locator(".medviz-note")
    wait_for("the note for turn 2's politics", lambda: notes.count() > 0)
    viewer.screenshot(path=str(artifacts / "jupyterlab-vespers-viewer-turn2.png"))

    # One screen at a projector's 1280x720 and at 1920x1080, JupyterLab's file browser open beside the
    # notebook: the place, the controls, the step's words and the whole map without scrolling (the map
    # drawn as tall as there is room for, scaled down where that is less than its panel needs). No plotly
    # mode bar over the map's title.
    assert page.locator("#filebrowser").is_visible(), "the test means JupyterLab with its side bar open"
    viewer_app = viewer.locator(".medviz-app").first
    for size in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        fits_one_screen(viewer_app, VIEWER_PARTS, f"the ReplayViewer at {size[0]}x{size[1]}")
        page.screenshot(path=str(artifacts / f"jupyterlab-vespers-viewer-{size[0]}x{size[1]}.png"))
    assert viewer.evaluate("(root) => root.querySelectorAll('.modebar-container .modebar-btn').length") == 0, \
        "a plotly mode bar sits over the map"
    # Full screen: the app alone on the screen, still whole; the same button leaves it.
    page.set_viewport_size({"width": 1280, "height": 720})
    viewer_app.locator(".medviz-fullscreen").click()
    wait_for("the viewer to go full screen",
             lambda: page.evaluate("() => !!document.fullscreenElement && "
                                   "document.fullscreenElement.classList.contains('medviz-app')"))
    fits_one_screen(viewer_app, VIEWER_PARTS, "the ReplayViewer in full screen at 1280x720")
    page.screenshot(path=str(artifacts / "jupyterlab-vespers-viewer-fullscreen-1280x720.png"))
    viewer_app.locator(".medviz-fullscreen").click()
    wait_for("the viewer to leave full screen", lambda: page.evaluate("() => !document.fullscreenElement"))
    page.set_viewport_size({"width": 1800, "height": 1900})

    # Play, fast, then pause: the viewer stays where it paused (ipywidgets' ■ went back to the set-up).
    viewer.locator(".widget-dropdown select").nth(1).select_option(label="fast")
    before = int(re.search(r"event (\d+) of", txt(where)).group(1))  # type: ignore[union-attr]
    viewer.locator("button", has_text="▶ play").click()
    wait_for("play to move on", lambda: int(re.search(r"event (\d+) of", txt(where)).group(1)) > before + 2)  # type: ignore[union-attr]
    viewer.locator("button", has_text="❚❚ pause").click()
    page.wait_for_timeout(600)  # a tick already on its way may land
    paused = txt(where)
    at = int(re.search(r"event (\d+) of", paused).group(1))  # type: ignore[union-attr]
    page.wait_for_timeout(1500)
    assert txt(where) == paused and at > before + 2, (paused, txt(where))
    wait_for("the slider to stay where play paused", lambda: float(handle.get_attribute("aria-valuenow") or -1) == at)
    assert viewer.locator("button", has_text="▶ play").count() == 1

    # The slider itself, moved from the keyboard as a user would: End goes to the last event.
    handle.focus()
    handle.press("End")
    wait_for("the slider to reach the last event", lambda: f"event {total} of {total}" in txt(where))
    # The end of the game: a winner banner on the map, and the panel's count agrees with it (13.0).
    map_end = wait_for("the viewer's map to show the end",
                       lambda: (m := viewer.evaluate(SNAPSHOT_JS)) and "Game over" in m["title"] and m)
    assert changed(map2, map_end)["areas"] or changed(map2, map_end)["traces"]
    assert "▶" in txt(current) and f"{total} " in txt(current)
    assert re.search(r"^Game over. Player [AB] \(.+\) wins: ", map_end["title"].replace("<b>", "")), map_end["title"]
    panel = viewer.evaluate("(root) => Array.from(root.querySelectorAll('.annotation-text')).map(a => a.textContent).join(' | ')")
    assert "Game over" in panel and re.search(r"Player [AB] wins", panel), panel
    # The historical replay: Aragon holds Sicily and Malta (3 of 3), but France took Aragonese areas: A wins (13.0).
    assert "Victory" not in panel and "Held: 3 of 3" in panel and "Taken: 3 of 4" in panel, panel

    # -- 2. The what-if: a die whose other face changes the result, the two wars side by side ---------
    said = txt(whatif.first)
    m = re.search(r"The roll: (.+)\.\s*As played it showed (\d+): (\S+) — .*?What if it had shown (\d+): (\S+) — ", said, re.S)
    assert m, said
    roll_words, shown, shown_result, face_tried, tried_result = m.group(1), int(m.group(2)), m.group(3), int(m.group(4)), m.group(5)
    assert shown_result != tried_result, "the what-if must pick a face whose result differs from the one rolled"
    assert "_" not in roll_words and "/" not in roll_words, f"the roll is named by its id, not in words: {roll_words}"
    assert re.search(r"'s (attack|defence|counterattack) roll in the (sea )?battle in ", roll_words), roll_words
    compare = page.locator(".medviz-compare").first
    compare.scroll_into_view_if_needed()
    maps = compare.locator(".medviz-compare-column")
    assert maps.count() == 2
    wait_for("both maps of the what-if to be drawn", lambda: maps.nth(0).evaluate(SNAPSHOT_JS) and maps.nth(1).evaluate(SNAPSHOT_JS), timeout=60)
    compare_words = compare.locator(".medviz-compare-words").first

    def both() -> tuple[dict[str, Any], dict[str, Any]]:
        return maps.nth(0).evaluate(SNAPSHOT_JS), maps.nth(1).evaluate(SNAPSHOT_JS)

    def marked() -> list[str]:
        return maps.nth(1).evaluate("""(root) => { const el = root.querySelector('.js-plotly-plot');
            const t = el.data.find(t => t.name === 'marked-areas'); return t && t.meta ? t.meta.marked : null; }""") or []

    for when in ("at the roll's phase", "at the end"):
        if when == "at the end":
            before = both()[0]["title"]
            compare.get_by_role("button", name="at the end", exact=True).click()
            wait_for("the what-if maps to move to the end", lambda: both()[0]["title"] != before)
        played, branch = wait_for(f"the two maps {when}", lambda: (b := both())
                                  and (b[0]["title"] == b[1]["title"] or "Game over" in b[0]["title"] + b[1]["title"]) and b)
        delta = changed(played, branch)
        assert delta["areas"] or delta["traces"], f"the what-if map shows the same war {when}"
        # both maps and the outline arrive in several messages: read them again until they have all
        # arrived (a snapshot taken half-way through the branch map's update differs in passing areas)
        def settled() -> Any:
            d, m = changed(*both()), marked()
            return (d, m) if m and set(d["areas"]) <= set(m) else None

        delta, outlined = wait_for(f"the changed areas to be outlined {when}", settled, timeout=30)
        assert delta["areas"] or delta["traces"], f"the what-if map shows the same war {when}"
        assert set(delta["areas"]) <= set(outlined), (delta, outlined)
        # at the roll's phase only a sea may differ (the seed-1490 what-if is a sea battle off Malta)
        assert "Outlined" in txt(compare_words) and ("held by" in txt(compare_words) or (
            when == "at the roll's phase" and "No area ends in other hands" in txt(compare_words))), txt(compare_words)
        assert re.search(r"[a-z]+_[a-z]+", txt(compare_words)) is None, f"raw area ids: {txt(compare_words)}"
        page.screenshot(path=str(artifacts / f"jupyterlab-vespers-whatif-{'phase' if 'phase' in when else 'end'}.png"))
    assert "France and Anjou (Player A)" in txt(compare_words) or "Aragon (Player B)" in txt(compare_words)
    compare.screenshot(path=str(artifacts / "jupyterlab-vespers-whatif-compare.png"))  # docs/img/app-whatif.png

    # -- 3. DiceLab: it opens on the what-if's roll, in words, with a key; try another face, branch ----
    dl = dicelab.first
    dl.scroll_into_view_if_needed()
    info = dl.locator(".widget-html", has_text="what it would mean").first
    headline = dl.locator(".medviz-roll-name").first
    assert txt(headline).startswith(roll_words), (txt(headline), roll_words)
    assert f"It showed {shown} → {shown_result}" in txt(headline)
    key = txt(info.locator(".medviz-key"))
    for code in {shown_result, tried_result}:
        assert re.search(rf"{re.escape(code)} — [A-Z][a-z]+", key), key
    rolls = dl.locator(".widget-dropdown select").first
    options = [o.replace("\u00a0", " ") for o in rolls.evaluate("s => Array.from(s.options).map(o => o.label)")]
    assert not [o for o in options if re.search(r"GT\d/|/round-|[a-z]+_[a-z]+", o)], [o for o in options if "/" in o][:3]
    diff_box = dl.locator(".medviz-diff").first
    assert "history as played" in txt(diff_box)
    effects = dict(info.locator("table").first.evaluate(
        "t => Array.from(t.querySelectorAll('tr')).slice(1).map(r => Array.from(r.cells).map(c => c.textContent.trim()))"))
    assert effects.get(str(shown)) == shown_result, effects

    map_at_roll = dl.evaluate(SNAPSHOT_JS)
    turn = re.search(r"game turn (\d+)", roll_words)
    assert turn and f"turn {turn.group(1)}" in map_at_roll["title"], map_at_roll["title"]

    # Try another face -- one with another result, and not the one the what-if cell already branched on.
    tree = dl.locator(".widget-select select").first
    entries_before = tree.evaluate("s => Array.from(s.options).map(o => o.label.replace(/\\u00a0/g, ' '))")
    assert "as played" in entries_before[0]
    assert any(f"{roll_words} = {face_tried}" in e for e in entries_before), entries_before
    untried = [int(f) for f, r in effects.items() if r not in (shown_result,) and int(f) != face_tried]
    assert untried, effects
    # The face farthest along the Combat Results from the one rolled (as the notebook's what-if picks):
    # a near result (NE for BB) can leave the map at the phase's end as it was.
    order = ["CA", "NE", "BB", "DV", "DV+S"]
    if shown_result in order and all(effects[str(f)] in order for f in untried):
        untried.sort(key=lambda f: (-abs(order.index(effects[str(f)]) - order.index(shown_result)),
                                    -order.index(effects[str(f)])))  # a tie: the stronger result
    face = untried[0]
    picked = dl.evaluate(SNAPSHOT_JS)
    face_button = dl.get_by_role("button", name=str(face), exact=True)
    face_button.click()
    wait_for(f"face {face} to be picked", lambda: "mod-active" in (face_button.get_attribute("class") or "")
             and "outline" in (info.inner_html() or ""))  # the tried face is outlined in the table
    dl.get_by_role("button", name="Branch here").click()
    wait_for("the branch to be made", lambda: f"Branch made: {roll_words} — the die shows {face}." in txt(dl))
    wait_for("the diff in words", lambda: f"This branch: {roll_words} shows {face} instead of {shown}." in txt(diff_box))
    words = txt(diff_box)
    assert "The two histories part at event" in words
    assert not re.search(r"\{|\}|'[A-Z]' →|[a-z]+_[a-z]+", words), f"code on screen: {words}"
    assert len(re.findall(r"\bVP\b|victory points", words, re.I)) <= 1, words
    branch_map = wait_for("the DiceLab's map to show the branch",
                          lambda: (s := dl.evaluate(SNAPSHOT_JS)) and s != picked and s)
    entries = tree.evaluate("s => Array.from(s.options).map(o => o.label.replace(/\\u00a0/g, ' '))")
    # The what-if cell's search may have made this branch already: then the tree selects it, adds none.
    listed = any(f"{roll_words} = {face} " in e for e in entries_before)
    assert len(entries) == len(entries_before) + (0 if listed else 1), entries
    mine = tree.evaluate("s => s.selectedIndex")
    assert entries[mine].strip().startswith(f"└ {roll_words} = {face}"), entries
    dl.screenshot(path=str(artifacts / "jupyterlab-vespers-dicelab-branch.png"))

    tree.select_option(index=0)
    wait_for("the parent's words", lambda: "history as played" in txt(diff_box))
    parent_map = wait_for("the parent's map at the same moment",
                          lambda: (s := dl.evaluate(SNAPSHOT_JS)) and s["title"] == branch_map["title"] and s)
    assert parent_map["title"] == branch_map["title"]
    dl.get_by_role("button", name="at the end", exact=True).click()
    wait_for("the parent's map at the end of the game",
             lambda: (s := dl.evaluate(SNAPSHOT_JS)) and s != parent_map and s)
    tree.select_option(index=mine)
    wait_for("the branch's words again", lambda: f"This branch: {roll_words} shows {face}" in txt(diff_box))
    dl.screenshot(path=str(artifacts / "jupyterlab-vespers-dicelab-branch-end.png"))

    # The DiceLab on one screen: the roll menu, its faces, Branch here, the roll in words and the whole map.
    lab_app = dl.locator(".medviz-app").first
    for size in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        fits_one_screen(lab_app, DICELAB_PARTS, f"the DiceLab at {size[0]}x{size[1]}")
        page.screenshot(path=str(artifacts / f"jupyterlab-vespers-dicelab-{size[0]}x{size[1]}.png"))

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

    # -- 4. Saved and reopened with a new kernel: no "model not found" where the apps were --------------
    # (the server saves through medviz.apps.saved.drop_widget_views, as `make lab` does).
    saved = artifacts / "lab-vespers" / "vespers-1282.ipynb"
    unsaved = saved.stat().st_mtime_ns
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Save Notebook$")).first.click()
    page.wait_for_timeout(1000)
    page.screenshot(path=str(artifacts / "jupyterlab-vespers-saving.png"))
    dialog = page.locator(".jp-Dialog")
    assert dialog.count() == 0, txt(dialog.first)
    wait_for("the notebook to be saved with its outputs", lambda: saved.stat().st_mtime_ns != unsaved
             and '"output_type"' in saved.read_text(), timeout=30)
    text = saved.read_text()
    assert "application/vnd.jupyter.widget-view+json" not in text and "Run the cell to bring it back" in text
    assert saved.stat().st_size < 2_000_000
    sessions = page.request.get(f"{lab['base']}/api/sessions?token={lab['token']}").json()
    for sess in sessions:  # the kernel goes: the widgets' models go with it
        page.request.delete(f"{lab['base']}/api/sessions/{sess['id']}?token={lab['token']}")
    page.reload()
    page.locator(".jp-OutputArea-output", has_text="Outcome:").first.wait_for(timeout=60_000)
    page.locator(".jp-OutputArea-output", has_text="Run the cell to bring it back").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    assert page.get_by_text("model not found").count() == 0
    assert page.locator(".jp-OutputArea-output", has_text="Error displaying widget").count() == 0
    page.screenshot(path=str(artifacts / "jupyterlab-vespers-reopened.png"))

    assert not page_errors(offline_page.errors), offline_page.errors[:3]  # (anywidget's slow load: see there)
    assert not offline_page.blocked, offline_page.blocked[:5]

