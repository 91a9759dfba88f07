"""Annotation files: parsing, validation (every problem at once), anchors, sanitizing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from medviz.engine import History, play
from medviz.engine.errors import DataError, MalformedInput, MedvizError
from medviz.engine.events import PhaseEvent
from medviz.export.annotations import load_annotations, parse_annotations
from medviz.export.sanitize import clean_html, render_markdown
from medviz.rules.medempires.odds import Doctrine
from medviz.rules.medempires.ruleset import RULESET

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def battle() -> History:
    return play(RULESET, "battle", {"attacker": "aragon:2FA,1L,1M,K2", "defender": "anjou:3FA,2L,K1"}, seed=3,
                players={"attacker": Doctrine(), "defender": Doctrine()})


@dataclasses.dataclass
class Phased:
    """A battle's events spread over two turns and three phases (a history-like object)."""

    events: tuple
    base: History

    def phases(self):  # noqa: ANN201 - same as History.phases
        from medviz.engine.history import PhaseSpan

        starts = [e for e in self.events if isinstance(e, PhaseEvent)]
        return [PhaseSpan(e.turn, e.name, e.seq, starts[i + 1].seq if i + 1 < len(starts) else len(self.events))
                for i, e in enumerate(starts)]

    def rolls(self):  # noqa: ANN201
        return self.base.rolls()

    def decisions(self):  # noqa: ANN201
        return self.base.decisions()


@pytest.fixture(scope="module")
def phased(battle: History) -> Phased:
    # phases: T1 politics [0,5), T1 operations-A [5,12), T2 politics [12,end)
    layout = {0: (1, "politics"), 5: (1, "operations-A"), 12: (2, "politics")}
    out, where = [], None
    for e in battle.events:
        if e.seq in layout:
            where = layout[e.seq]
            out.append(PhaseEvent(seq=len(out), turn=where[0], phase=where[1], name=where[1]))
        out.append(dataclasses.replace(e, seq=len(out), turn=where[0], phase=where[1]))
    return Phased(tuple(out), battle)


def note(anchor: str, title: str = "T", text: str = "some *text*", extra: str = "") -> str:
    return f'[[note]]\nanchor = {anchor}\ntitle = "{title}"\ntext = """{text}"""\n{extra}\n'


# -- parsing and validation ------------------------------------------------------------------
def test_every_problem_is_reported_at_once(battle: History) -> None:
    text = (note('{event = 0}', extra='colour = "red"')
            + note('{roll = "battle-1/combat-1/initiative/attackr"}')
            + note('{decision = "nope"}', extra='kind = "fiction"')
            + note('{event = 999}')
            + '[[note]]\nanchor = {event = 1}\n')
    with pytest.raises(DataError) as err:
        parse_annotations(text, "mine.toml", battle)
    problems = err.value.problems
    assert problems[0] == "note 1: unknown field 'colour' (known: anchor, title, date, kind, source, text)"
    assert any(p.startswith("note 2: roll 'battle-1/combat-1/initiative/attackr' never happens")
               and "did you mean battle-1/combat-1/initiative/attacker" in p for p in problems)
    assert "note 3: kind must be one of history, game, what-if, not 'fiction'" in problems
    assert any(p.startswith("note 3: decision 'nope' never happens") for p in problems)
    assert "note 4: event 999 is outside this history (0..21)" in problems
    assert "note 5: 'title' is required (a line of text)" in problems
    assert "note 5: 'text' is required (markdown)" in problems
    assert str(err.value).startswith("mine.toml: 7 problem(s)")
    assert [int(p.split()[1].rstrip(":")) for p in problems] == sorted(int(p.split()[1].rstrip(":")) for p in problems)


def test_unknown_phase_lists_the_known_ones(phased: Phased) -> None:
    text = note('{turn = 1, phase = "politcs"}') + note('{turn = 3}') + note('{turn = 2, phase = "operations-A"}')
    with pytest.raises(DataError) as err:
        parse_annotations(text, "p.toml", phased)
    assert err.value.problems == [
        "note 1: unknown phase 'politcs' (known: politics, operations-A); did you mean 'politics'?",
        "note 2: turn 3 never happens in this history (turns: 1, 2)",
        "note 3: phase 'operations-A' of turn 2 never happens in this history",
    ]


def test_without_a_history_phases_are_checked_against_the_game(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="note 1: unknown phase 'politcs' .*did you mean 'politics'"):
        parse_annotations(note('{turn = 1, phase = "politcs"}'))
    ok = parse_annotations(note('{turn = 1, phase = "politics"}') + note('{event = 3}'))
    assert len(ok) == 2 and not ok.bound
    with pytest.raises(MedvizError, match="not bound to a history"):
        ok.for_event(3)


@pytest.mark.parametrize("anchor, message", [
    ("{}", "empty anchor"),
    ('{event = 2, phase = "politics"}', "anchor mixes event and phase"),
    ('{event = 1, roll = "x"}', "anchor mixes event and roll"),
    ("{event = -1}", "anchor.event must be an event number from 0 to 999999999, not -1"),
    ("{event = true}", "anchor.event must be an event number from 0 to 999999999, not True"),
    ("{event = 1.0}", "anchor.event must be an event number from 0 to 999999999, not 1.0"),
    ("{event = 1_000_000_000}", "anchor.event must be an event number from 0 to 999999999, not 1000000000"),
    ("{turn = 0}", "anchor.turn must be a turn number from 1 to 999999999, not 0"),
    ('{turn = "1"}', "anchor.turn must be a turn number from 1 to 999999999, not '1'"),
    ('{roll = ""}', "anchor.roll must be a non-empty id, not ''"),
    ("{decision = 7}", "anchor.decision must be a non-empty id, not 7"),
    ('{area = "malta"}', "unknown anchor field 'area'"),
    ('"turn 1"', "anchor must be a table .*, not 'turn 1'"),
])
def test_bad_anchors(anchor: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        parse_annotations(note(anchor))


def test_date_needs_a_year_and_top_level_is_checked() -> None:
    with pytest.raises(DataError) as err:
        parse_annotations('titel = "x"\nversion = 2\n' + note("{event = 1}", extra='date = "Easter Monday"'))
    assert err.value.problems == [
        "unknown top-level field 'titel' (known: format, version, title, note)",
        "top-level 'version' must be 1 (this medviz reads version 1), not 2",
        "note 1: date must be text with a year, e.g. \"30 Mar 1282\", not 'Easter Monday'",
    ]


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(MalformedInput, match="annotation file not found"):
        load_annotations(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[note]\nanchor = ", encoding="utf-8")
    with pytest.raises(MalformedInput, match="bad.toml: not valid TOML"):
        load_annotations(bad)


# -- where notes show -------------------------------------------------------------------------
def test_point_notes_run_to_the_next_point_note(battle: History) -> None:
    text = (note("{event = 0}", "start") + note('{roll = "battle-1/combat-1/initiative/attacker"}', "init")
            + note('{decision = "battle-1/combat-1/table"}', "table") + note("{event = 8}", "same event"))
    a = parse_annotations(text, history=battle)
    # both sides commit initiative markers (events 3, 4) before either die is rolled (10.3.2 step 2)
    assert battle.roll("battle-1/combat-1/initiative/attacker").seq == 5
    titles = {seq: [n.title for n in a.for_event(seq)] for seq in range(len(battle))}
    assert titles[0] == titles[4] == ["start"]
    assert titles[5] == titles[7] == ["init"]
    assert titles[8] == titles[21] == ["table", "same event"]  # both anchored to event 8, file order


def test_phase_notes_show_for_every_event_of_their_phase(phased: Phased) -> None:
    text = (note('{turn = 1, phase = "operations-A"}', "ops") + note('{phase = "politics"}', "every politics")
            + note("{turn = 2}", "turn two") + note("{event = 8}", "point"))
    a = parse_annotations(text, history=phased)
    spans = {p.phase + str(p.turn): (p.start, p.end) for p in phased.phases()}
    s1, e1 = spans["operations-A1"]
    assert [n.title for n in a.for_event(s1)] == ["ops"]
    assert [n.title for n in a.for_event(e1 - 1)] == ["ops", "point"]  # the point note stops at its phase end
    assert [n.title for n in a.for_event(spans["politics1"][0])] == ["every politics"]
    assert [n.title for n in a.for_event(spans["politics2"][0])] == ["every politics", "turn two"]
    assert a.notes[3].spans == ((8, e1),)


def test_the_lead_vespers_annotations_load() -> None:
    path = ROOT / "notebooks" / "annotations" / "vespers-1282.toml"
    if not path.exists():
        pytest.skip("notebooks/annotations/vespers-1282.toml is not there yet")
    a = load_annotations(path)
    assert len(a) >= 1 and all(n.html for n in a)


def test_the_example_battle_notes_resolve_in_the_example_history() -> None:
    h = History.load(ROOT / "examples" / "battle-seed3.json")
    a = load_annotations(ROOT / "examples" / "battle-notes.toml", h)
    assert a.title == "A land battle, die by die"
    assert {n.kind for n in a} == {"game", "what-if"}
    assert all(a.for_event(seq) for seq in range(len(h)))  # every step has a note


# -- sanitizing ------------------------------------------------------------------------------
HOSTILE = [
    "<script>window.__pwned = 1</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    '<a href="jAvAsCrIpT:alert(1)">x</a>',
    "[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![i](data:image/svg+xml;base64,PHN2Zz4=)",
    "<svg onload=alert(1)><circle r=4></svg>",
    '<p style="background:url(https://evil.example/x)">s</p>',
    "[x](java\tscript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "<iframe src=https://evil.example></iframe>",
]


def elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Every element (tag, attributes) a browser would build from ``html``."""
    from html.parser import HTMLParser

    found: list[tuple[str, dict[str, str | None]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, dict(attrs)))

    Collect().feed(html)
    return found


def assert_inert(html: str) -> None:
    """Only allow-listed tags; no handlers, styles or sources; links only to http(s)/mailto."""
    from medviz.export.sanitize import ALLOWED_TAGS

    for tag, attrs in elements(html):
        assert tag in ALLOWED_TAGS, (tag, html)
        assert set(attrs) <= {"href", "title", "rel", "target", "start"}, (tag, attrs)
        href = (attrs.get("href") or "").strip().lower()
        assert not href or href.startswith(("http://", "https://", "mailto:")), (href, html)


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_markdown_never_yields_active_html(payload: str) -> None:
    html = render_markdown(payload)
    assert_inert(html)
    assert not any(tag in ("script", "img", "svg", "iframe") for tag, _ in elements(html))


@pytest.mark.parametrize("fragment", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '<a href="jAvAsCrIpT:alert(1)">x</a>',
    '<a href="data:text/html,hi">d</a>', "<svg onload=alert(1)></svg>", '<b style="color:red" onclick="x()">b</b>',
    '<a href="//evil.example/x">p</a>', '<a href="relative.html">r</a>', '<a href=" javascript:alert(1)">s</a>',
])
def test_the_allow_list_cleans_raw_html_too(fragment: str) -> None:
    # Second layer: even if the markdown step let raw HTML through, nh3 would clean it.
    html = clean_html(fragment)
    assert_inert(html)
    assert all(not attrs.get("href") for _, attrs in elements(html))
    assert "alert" not in html


def test_safe_markdown_survives_with_safe_links() -> None:
    html = render_markdown("**bold** *it* `code`\n\n- a\n- b\n\n[web](https://example.org/x) <mailto:me@example.org>\n\n"
                           "| a | b |\n|---|---|\n| 1 | 2 |\n\n![a map](https://example.org/m.png)")
    assert "<strong>bold</strong>" in html and "<em>it</em>" in html and "<code>code</code>" in html
    assert "<ul>" in html and "<table>" in html
    assert '<a href="https://example.org/x" target="_blank" rel="noopener noreferrer">web</a>' in html
    assert 'href="mailto:me@example.org"' in html
    assert "[image: a map]" in html and "<img" not in html  # an image would fetch from the network


def test_raw_html_in_a_note_is_shown_as_text(battle: History) -> None:
    a = parse_annotations(note("{event = 0}", text="<b>hi</b> <script>x()</script>"), history=battle)
    assert a.notes[0].html == "<p>&lt;b&gt;hi&lt;/b&gt; &lt;script&gt;x()&lt;/script&gt;</p>\n"


# -- loading is total: malformed input is a MedvizError naming the place (issue 17, points 2 and 7) --
DEEP = 500


@pytest.mark.parametrize("value, line", [
    ("[" * DEEP + "]" * DEEP, 4),  # 500-deep arrays: tomllib itself would raise RecursionError
    ("{a = " * DEEP + "1" + "}" * DEEP, 4),
    ('[[1, 2], "x", ' + "[" * 40 + "]" * 40 + "]", 4),
])
def test_deep_nesting_is_refused_naming_the_line(value: str, line: int) -> None:
    text = '[[note]]\nanchor = {event = 0}\ntitle = "T"\ntext = ' + value + "\n"
    with pytest.raises(MalformedInput) as err:
        parse_annotations(text, "deep.toml")
    msg = str(err.value)
    assert msg.startswith("deep.toml: ") and f"nested more than 32 deep (line {line})" in msg
    assert "\n" not in msg


def test_nesting_inside_strings_and_comments_does_not_count() -> None:
    brackets = "[" * 100
    text = (f'# {brackets}\ntitle = "{brackets}"\n[[note]]\nanchor = {{event = 0}}\ntitle = \'{brackets}\'\n'
            f'text = """\nx = {brackets} \\""" still text\n"""\n')
    notes = parse_annotations(text, "ok.toml")
    assert notes.title == brackets and notes.notes[0].title == brackets


def test_an_integer_of_5000_digits_is_refused_naming_the_line() -> None:
    text = '[[note]]\ntitle = "T"\ntext = "x"\nanchor = {event = ' + "9" * 5000 + "}\n"
    with pytest.raises(MalformedInput) as err:
        parse_annotations(text, "huge.toml")
    assert str(err.value) == "huge.toml: not valid for medviz: an integer with more than 4300 digits (line 4)"


@pytest.mark.parametrize("value, shown", [
    ("0x" + "f" * 5000, "not an integer of about 6021 digits"),  # hex has no digit limit in Python
    ("1e400", "not inf"),
    ("nan", "not nan"),
    ("1979-05-27T07:32:00Z", "not a TOML datetime 1979-05-27T07:32:00+00:00"),
    ("[" * 20 + "]" * 20, "not an array [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]"),
    ('"' + "x" * 5000 + '"', "not '" + "x" * 56 + "..."),
])
def test_huge_or_odd_numbers_in_anchors_get_a_short_message(value: str, shown: str) -> None:
    with pytest.raises(DataError) as err:
        parse_annotations(note(f"{{event = {value}}}"), "odd.toml")
    [problem] = err.value.problems
    assert problem.startswith("note 1: anchor.event must be an event number from 0 to 999999999, ")
    assert problem.endswith(shown) and len(problem) < 160


WRONG = ["1", "true", "1.5", '"x"', "1282-03-30", "[1]", "{a = 1}", "[[[1]]]", "0x" + "f" * 5000]
#: Values of WRONG that have the right type at a key.
RIGHT_TYPE = {"version": {"1"}, "title": {'"x"'}, "note": {"[1]", "[[[1]]]"}, "note[1]": {"{a = 1}"},
              "anchor": {"{a = 1}"}, "anchor.event": {"1"}, "anchor.turn": {"1"}, "anchor.phase": {'"x"'},
              "anchor.roll": {'"x"'}, "anchor.decision": {'"x"'}, "note.title": {'"x"'}, "note.text": {'"x"'},
              "note.source": {'"x"'}}


@pytest.mark.parametrize("where, expected", [
    ("format", "top-level 'format' must be 'medviz-annotations', not"), ("version", "top-level 'version' must be 1"), ("title", "top-level 'title' must be text"),
    ("note", "'note' must be a list of [[note]] tables"), ("note[1]", "note 1: must be a [[note]] table"),
    ("anchor", "note 1: anchor must be a table"), ("anchor.event", "note 1: anchor.event must be"),
    ("anchor.turn", "note 1: anchor.turn must be"), ("anchor.phase", "note 1: anchor.phase must be"),
    ("anchor.roll", "note 1: anchor.roll must be"), ("anchor.decision", "note 1: anchor.decision must be"),
    ("note.title", "note 1: title must be a line of text"), ("note.text", "note 1: text must be markdown"),
    ("note.kind", "note 1: kind must be one of"), ("note.date", "note 1: date must be text with a year"),
    ("note.source", "note 1: source must be text"),
])
@pytest.mark.parametrize("value", WRONG)
def test_a_wrong_type_anywhere_names_the_key(where: str, expected: str, value: str) -> None:
    fields = {"anchor": "{turn = 1}", "title": '"T"', "text": '"x"'}
    top = ""
    anchor_key = where.removeprefix("anchor.") if where.startswith("anchor.") else None
    if anchor_key is not None:
        fields["anchor"] = f"{{{anchor_key} = {value}}}"
    elif where == "anchor":
        fields["anchor"] = value
    elif where.startswith("note."):
        fields[where.removeprefix("note.")] = value
    elif where in ("format", "version", "title"):
        top = f"{where} = {value}\n"
    body = "\n".join(f"{k} = {v}" for k, v in fields.items())
    text = top + f"[[note]]\n{body}\n"
    if where == "note":
        text = f"note = {value}\n"
    elif where == "note[1]":
        text = f"note = [{value}]\n"
    if value in RIGHT_TYPE.get(where, ()):
        return  # a value of the right type here (its own checks are tested above); the others cover the key
    with pytest.raises(MedvizError) as err:
        parse_annotations(text, "types.toml")
    problems = err.value.problems if isinstance(err.value, DataError) else [str(err.value)]
    assert any(expected in p for p in problems), problems
    assert all("\n" not in p and len(p) < 400 for p in problems)


@pytest.mark.parametrize("content, expected", [
    ('[[note]]\nanchor = {event = 0}\ntitle = "T"\ntext = ' + "[" * DEEP + "]" * DEEP + "\n",
     "deep.toml: not valid for medviz: arrays or inline tables nested more than 32 deep (line 4)"),
    ('[[note]]\nanchor = {event = ' + "9" * 5000 + '}\ntitle = "T"\ntext = "x"\n',
     "deep.toml: not valid for medviz: an integer with more than 4300 digits (line 2)"),
    ('[[note]]\nanchor = {event = 0x' + "f" * 5000 + '}\ntitle = 3\ntext = "x"\n',
     "deep.toml: 2 problem(s): note 1: title must be a line of text, not 3; note 1: anchor.event must be"),
    ('[[note]]\nanchor = {event = 0', "deep.toml: not valid TOML: "),
])
def test_cli_export_refuses_a_malformed_annotation_file_on_one_line(
        content: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from medviz.cli import main

    notes = tmp_path / "deep.toml"
    notes.write_text(content, encoding="utf-8")
    out = tmp_path / "out.html"
    rc = main(["export", str(ROOT / "examples" / "battle-seed3.json"), "--annotations", str(notes),
               "--html", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists()
    assert len(err.strip().splitlines()) == 1 and expected in err and "Traceback" not in err, err


def test_a_lone_surrogate_in_a_python_string_is_refused_naming_the_line() -> None:
    with pytest.raises(MalformedInput, match=r"s.toml: not valid for medviz: a lone surrogate '\\ud800' \(line 4\)"):
        parse_annotations(note("{event = 0}", text="a \ud800 b"), "s.toml")
