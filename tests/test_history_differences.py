"""A history that does not replay is refused naming the first place it differs, exactly (docs/file-formats.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from test_history_files import _doc, _root, _tamper_choice
from medviz.engine import History, MalformedInput

OUTCOME = "g.json: outcome: does not match the replayed game's outcome ({})"


def _outcome(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    return lambda d: change(d["outcome"])


def _set(o: dict[str, Any], path: str, value: Any) -> None:
    *head, last = path.split(".")
    for k in head:
        o = o[k]
    o[last] = value


# (edit of the file's JSON data, the words in parentheses naming the first difference)
CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "top-level value": (_outcome(lambda o: _set(o, "winner", "defender")),
                        "winner is 'defender' in the file, 'attacker' in the replay"),
    "nested value": (_outcome(lambda o: _set(o, "survivors.attacker.aragon L", 2)),
                     "survivors.attacker.aragon L is 2 in the file, 1 in the replay"),
    "a key missing from the file": (_outcome(lambda o: o["survivors"]["attacker"].pop("aragon M")),
                                    "survivors.attacker.aragon M is missing from the file"),
    "a key only the file has": (_outcome(lambda o: _set(o, "eliminated.attacker.aragon M", 1)),
                                "eliminated.attacker.aragon M is in the file but not in the replay"),
    "a list item": (_outcome(lambda o: _set(o, "results", ["DV"])), "results[0] is 'DV' in the file, 'DV+S' in the replay"),
    "a list of another length": (_outcome(lambda o: _set(o, "kings_killed", ["defender", "attacker"])),
                                 "kings_killed is ['defender', 'attacker'] in the file, ['defender'] in the replay"),
    "1 is not true": (_outcome(lambda o: _set(o, "combats", True)), "combats is True in the file, 1 in the replay"),
    "an edited choice": (_tamper_choice, "choice is 'try to avoid' in the file, 'stand' in the replay"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_history_that_does_not_replay_names_its_first_difference(case: str) -> None:
    edit, words = CASES[case]
    d = _doc(_root())
    assert d["outcome"]["survivors"]["attacker"] == {"aragon FA": 2, "aragon L": 1, "aragon M": 1}  # the pinned game
    edit(d)
    with pytest.raises(MalformedInput) as exc:
        History.from_json(json.dumps(d), "g.json")
    message = str(exc.value)
    if case == "an edited choice":
        assert message.startswith("g.json: events[2]: the events do not replay") and f"({words})" in message
    else:
        assert message == OUTCOME.format(words)
