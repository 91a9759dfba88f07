"""Cards by meaning (DESIGN.md): a deck's order is one addressed chance event; changing one card in a
branch swaps it with that card's old place, so every other card stays where it was."""

from __future__ import annotations

from typing import Any

import pytest

from medviz.engine import Context, FirstOptionPolicy, History, MalformedInput, Ruleset, Seat, Task, play
from medviz.engine.events import ShuffleEvent
from medviz.engine.registry import register_ruleset, unregister_ruleset

DECK = ["pope", "plague", "crusade", "knight", "knight", "spy", "assassin", "mongols"]


class Deal(Ruleset):
    """A one-seat toy: shuffle the deck, then draw the top three cards, one task each."""

    game = "deal-toy"

    def scenarios(self) -> tuple[str, ...]:
        return ("three",)

    def seats(self, scenario: str) -> tuple[Seat, ...]:
        return (Seat("P", "Player"),)

    def setup(self, scenario: str, options: Any) -> tuple[dict[str, list[str]], list[Task]]:
        return {"deck": [], "hand": []}, [Task.of("shuffle")] + [Task.of("draw", checkpoint=True) for _ in range(3)]

    def run_task(self, task: Task, state: Any, ctx: Context) -> None:
        if task.name == "shuffle":
            ctx.change("deck", order=list(ctx.shuffle("action-deck", DECK, purpose="the action deck")))
        else:
            ctx.change("drawn", card=state["deck"][0])

    def apply(self, state: Any, event: Any) -> None:
        if event.change == "deck":
            state["deck"] = list(event.data["order"])
        else:
            state["hand"].append(state["deck"].pop(0))

    def outcome(self, state: Any) -> dict[str, Any]:
        return {"winner": "P" if "pope" in state["hand"] else None, "reason": "the Pope drawn or not",
                "hand": list(state["hand"]), "deck": list(state["deck"])}


def _game(seed: int = 11) -> History:
    return play(Deal(), "three", {}, seed=seed, players={"P": FirstOptionPolicy()})


def test_the_order_is_a_pure_function_of_seed_and_id_and_a_permutation_of_the_deck() -> None:
    a, b, c = _game(11), _game(11), _game(12)
    sa = a.shuffles()[0]
    assert isinstance(sa, ShuffleEvent) and sorted(sa.order) == sorted(DECK) and sa.order == sa.natural
    assert a.to_json() == b.to_json()
    assert any(_game(s).shuffles()[0].order != sa.order for s in (12, 13, 14)) and c.shuffles()
    # pinned: Fisher-Yates with BLAKE2b-addressed swaps gives this order for seed 11 (changed only on purpose)
    assert sa.order == ("spy", "crusade", "pope", "plague", "knight", "assassin", "mongols", "knight")
    assert a.outcome["hand"] == ["spy", "crusade", "pope"]


def test_changing_one_card_swaps_it_with_its_old_place_and_keeps_every_other_card() -> None:
    h = _game()
    order = h.shuffles()[0].order
    wanted = next(c for c in DECK if c != order[1])
    child = h.branch("action-deck/2", wanted)
    new = child.shuffles()[0].order
    old_place = order.index(wanted)
    assert new[1] == wanted and new[old_place] == order[1]
    assert all(new[i] == order[i] for i in range(len(order)) if i not in (1, old_place))
    assert child.shuffles()[0].overridden and child.outcome["hand"][1] == wanted
    register_ruleset("deal-toy", Deal())
    try:
        again = History.from_json(child.to_json())  # a branch of a card round-trips through JSON
    finally:
        unregister_ruleset("deal-toy")
    assert again.to_json() == child.to_json() and again.override == ("action-deck/2", wanted)


def test_a_card_set_to_its_own_place_changes_nothing() -> None:
    h = _game()
    order = h.shuffles()[0].order
    for place, card in enumerate(order, start=1):
        child = h.branch(f"action-deck/{place}", card)
        assert [e.to_dict() for e in child.events] == [e.to_dict() for e in h.events]


def test_bad_card_overrides_are_refused() -> None:
    h = _game()
    with pytest.raises(MalformedInput, match="not in the deck"):
        h.branch("action-deck/1", "emperor")
    with pytest.raises(MalformedInput, match="not in the deck"):
        play(Deal(), "three", {}, seed=1, players={"P": FirstOptionPolicy()}, overrides={"action-deck/3": "joker"})
    two = play(Deal(), "three", {}, seed=1, players={"P": FirstOptionPolicy()},
               overrides={"action-deck/1": "knight", "action-deck/2": "knight"})
    assert two.shuffles()[0].order[:2] == ("knight", "knight")
    with pytest.raises(MalformedInput, match="already placed"):
        play(Deal(), "three", {}, seed=1, players={"P": FirstOptionPolicy()},
             overrides={"action-deck/1": "spy", "action-deck/2": "spy"})


@pytest.mark.parametrize("place", ["0", "9", "x", "01x", ""])
def test_a_place_outside_the_deck_never_happens(place: str) -> None:
    from medviz.engine.errors import UnknownReference

    with pytest.raises(UnknownReference, match=rf"^roll id 'action-deck/{place}' never happens in this history"):
        _game().branch(f"action-deck/{place}", "pope")
    with pytest.raises(UnknownReference, match=rf"^roll id 'action-deck/{place}' never happens in this game"):
        play(Deal(), "three", {}, seed=1, players={"P": FirstOptionPolicy()}, overrides={f"action-deck/{place}": "pope"})
