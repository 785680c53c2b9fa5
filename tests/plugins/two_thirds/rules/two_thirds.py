"""Two thirds of the average: a sixth game, written only as a rules module.

Test data, not a product game: tests/e2e/test_sixth_game.py drops this file into
``domain/rules/`` of a copy of the tree, with its presentation folder, and plays it.

* Options: ``rounds`` (1 to 10, default 3).
* Each round every player seals a whole number from 0 to 100 (``{"number": 42}``).
* The round's target is two thirds of the average of the numbers sent; whoever is
  nearest wins a point (a tie: all of them). A player who sends nothing takes no part.
* Public state: ``round``, ``points``, ``targets``, ``finished``, ``winners``.
"""  # noqa: INP001 - a module for domain/rules/ of a tree copy, not a package here

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    BadOptions,
    Disclosure,
    IllegalPick,
    Payload,
    Resolution,
    Rules,
    State,
    StepSpec,
    check_object,
    check_options_object,
    check_whole,
    player_list,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from domain.fairrand import Rng

MAX_NUMBER = 100


class TwoThirds(Rules):
    """Two thirds of the average."""

    name = "two-thirds"
    display_name = "Two thirds of the average"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE
    min_players = 2
    max_players = 20
    default_is_legal = False  # a missing number takes no part

    def options_schema(self) -> list[Option]:
        """The number of rounds."""
        return [Option("rounds", OptionKind.INTEGER, 3, "how many rounds", minimum=1, maximum=10)]

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in the rounds."""
        out = check_options_object(options, self.name, ("rounds",))
        out.setdefault("rounds", 3)
        check_whole(out["rounds"], "rounds", 1, 10, BadOptions)
        return out

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """No round played, nobody scores."""
        options = self.normalise_options(options)
        players = player_list(players)
        if not self.min_players <= len(players) <= self.max_players:
            msg = f"this game takes 2 to 20 players, not {len(players)}"
            raise BadOptions(msg)
        return {
            "rounds": options["rounds"],
            "round": 0,
            "players": list(players),
            "points": dict.fromkeys(players, 0),
            "targets": [],
        }

    def next_step(self, state: State) -> StepSpec | None:
        """One step a round, every player submitting."""
        if state["round"] >= state["rounds"]:
            return None
        return StepSpec(kind="guess", submitters=tuple(state["players"]))

    def pick_fields(self, kind: str) -> list[PickField]:
        """One whole number."""
        del kind
        return [PickField("number", FieldKind.INTEGER, "your number, 0 to 100")]

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """A whole number from 0 to 100."""
        del state, player
        payload = check_object(
            payload, required=("number",), shape='{"number": n}', error=IllegalPick
        )
        check_whole(payload["number"], "number", 0, MAX_NUMBER, IllegalPick)
        return {"number": payload["number"]}

    def default_pick(self, state: State, player: str) -> Payload:
        """Nothing sent: no part in the round."""
        del state, player
        return {"number": None}

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Every number from 0 to 100."""
        del state, player
        return ({"number": n} for n in range(MAX_NUMBER + 1))

    def resolve(
        self, state: State, picks: Mapping[str, Payload], decisions: Sequence[Payload], rng: Rng
    ) -> Resolution:
        """The nearest to two thirds of the average score a point."""
        del decisions, rng
        numbers = {p: v["number"] for p, v in picks.items() if v["number"] is not None}
        points = dict(state["points"])
        winners: list[str] = []
        target = None
        if numbers:
            exact = Fraction(2, 3) * Fraction(sum(numbers.values()), len(numbers))
            best = min(abs(n - exact) for n in numbers.values())
            winners = [
                p for p in state["players"] if p in numbers and abs(numbers[p] - exact) == best
            ]
            for p in winners:
                points[p] += 1
            target = f"{exact.numerator}/{exact.denominator}"
        new = {
            **state,
            "round": state["round"] + 1,
            "points": points,
            "targets": [*state["targets"], target],
        }
        return Resolution(new, {"target": target, "winners": winners, "numbers": numbers})

    def public_view(self, state: State) -> dict[str, Any]:
        """Round, points, targets, finished and winners."""
        finished = self.is_finished(state)
        top = max(state["points"].values())
        return {
            "round": state["round"],
            "points": dict(state["points"]),
            "targets": list(state["targets"]),
            "finished": finished,
            "winners": [p for p, v in state["points"].items() if v == top] if finished else [],
        }

    def is_finished(self, state: State) -> bool:
        """After the last round."""
        return bool(state["round"] >= state["rounds"])

    def result(self, state: State) -> dict[str, Any]:
        """Points and winners."""
        view = self.public_view(state)
        return {"points": view["points"], "winners": view["winners"]}

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A uniformly drawn number."""
        del state, player
        return {"number": rng.below(MAX_NUMBER + 1)}


RULES = TwoThirds()
