"""The rules object of a custom game: set-up, steps, resolution and views.

See :mod:`domain.rules.custom` for the rules and every reading chosen where §5 is silent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    BadDecision,
    BadOptions,
    DecisionRequest,
    Disclosure,
    IllegalPick,
    Payload,
    Resolution,
    Rules,
    State,
    StepSpec,
    check_object,
    describe,
    distinct_names,
    list_names,
    player_list,
)
from domain.rules.custom.design import (
    AT_RESOLVE,
    DEFAULT_FIELDS,
    DEFAULT_POINTS,
    DEFAULT_RESOLVER,
    DEFAULT_ROUNDS,
    DEFAULT_TITLE,
    DISCLOSURE,
    DISCLOSURES,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_TITLE,
    MIN_PLAYERS,
    MIN_ROUNDS,
    is_text,
    normalise_design,
)
from domain.rules.custom.picks import (
    bot_value,
    check_payload,
    count_picks,
    generate_picks,
    pick_field,
)
from domain.rules.schema import Option, OptionKind

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from domain.fairrand import Rng
    from domain.rules.schema import PickField

HOST = "host"
"""Who declares the winners under the host resolver (a name no player may take)."""
DECLARE = "declare"
MAX_NOTE = 500
NO_DECLARATION: dict[str, Any] = {"winners": [], "note": ""}
_DECLARATION_SHAPE = 'a declaration is {"winners": [players], "note": text}'


class Custom(Rules):
    """A hidden-submission game you design: what each pick holds and how a round is won."""

    name = "custom"
    display_name = "Custom game"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE  # the default; a design may choose "at-end"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_is_legal = False  # with no default in the design, a missing pick is every field null

    # --- Options ----------------------------------------------------------------------

    def options_schema(self) -> list[Option]:
        """The design: title, rounds, fields, resolver, disclosure, default and points."""
        return [
            Option("title", OptionKind.TEXT, DEFAULT_TITLE, "the game's name", 1, MAX_TITLE),
            Option(
                "rounds",
                OptionKind.INTEGER,
                DEFAULT_ROUNDS,
                "how many rounds the match lasts",
                MIN_ROUNDS,
                MAX_ROUNDS,
            ),
            Option(
                "fields",
                OptionKind.DESIGN,
                [dict(field) for field in DEFAULT_FIELDS],
                "the fields of every player's pick, 1 to 8",
            ),
            Option(
                "resolver",
                OptionKind.DESIGN,
                dict(DEFAULT_RESOLVER),
                "how each round's winners are found from the picks",
            ),
            Option(
                "disclosure",
                OptionKind.CHOICE,
                AT_RESOLVE,
                "when the picks are shown: after each round, or when the match ends",
                choices=DISCLOSURES,
            ),
            Option(
                "default",
                OptionKind.DESIGN,
                None,
                "the pick of a player who sends nothing; left empty, they take no part",
            ),
            Option(
                "points",
                OptionKind.INTEGER,
                DEFAULT_POINTS,
                "the points each round's winners gain",
                0,
                MAX_POINTS,
            ),
        ]

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the design with every default filled.

        :raises BadOptions: naming the setting at fault.
        """
        return normalise_design(options)

    def display_name_for(self, options: Mapping[str, Any] | None) -> str:
        """The design's title ("Sealed-bid auction"), or "Custom game" without one."""
        title = options.get("title") if isinstance(options, Mapping) else None
        return title if isinstance(title, str) and title.strip() else self.display_name

    def disclosure_for(self, options: Mapping[str, Any]) -> Disclosure:
        """The design's disclosure: every pick after its round, or all at the end."""
        chosen = options.get("disclosure", AT_RESOLVE) if isinstance(options, dict) else None
        return (
            DISCLOSURE.get(chosen, self.disclosure) if isinstance(chosen, str) else self.disclosure
        )

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before round 1: nobody has a point.

        :raises BadOptions: for a bad design, a player count outside 2 to 30, or a default
            pick that is not a valid pick of every player.
        """
        design = self.normalise_options(options)
        players = player_list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            msg = f"a custom game takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
            raise BadOptions(msg)
        players = distinct_names(players)
        if design["default"] is not None:
            for player in players:
                check_payload(
                    design["fields"],
                    design["default"],
                    players=players,
                    player=player,
                    error=BadOptions,
                    what=f"the default pick (as {player}'s)",
                )
        return {
            "design": design,
            "players": players,
            "round": 0,
            "points": dict.fromkeys(players, 0),
            "outcomes": [],
            "finished": False,
            "winners": [],
        }

    # --- Steps and picks --------------------------------------------------------------

    def next_step(self, state: State) -> StepSpec | None:
        """One round after another; every player submits."""
        if state["finished"]:
            return None
        return StepSpec(kind="round", submitters=tuple(state["players"]))

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Check a pick against the design's fields and return its normal form.

        :raises IllegalPick: naming the field at fault.
        """
        return check_payload(
            state["design"]["fields"],
            payload,
            players=state["players"],
            player=player,
            error=IllegalPick,
        )

    def default_pick(self, state: State, player: str) -> Payload:
        """The design's default, or every field null: the player takes no part."""
        del player
        design = state["design"]
        if design["default"] is not None:
            return dict(design["default"])
        return {field["name"]: None for field in design["fields"]}

    def pick_fields(self, kind: str) -> list[PickField]:
        """No fields without a design (see :meth:`pick_fields_for`)."""
        del kind
        return []

    def pick_fields_for(self, state: State, kind: str) -> list[PickField]:
        """The design's fields, in plain words."""
        del kind
        return [pick_field(field) for field in state["design"]["fields"]]

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Yield every legal pick lazily (the last field varies fastest)."""
        return generate_picks(state["design"]["fields"], state["players"], player)

    def count_legal_picks(self, state: State, player: str) -> int:
        """The product of the number of values of each field."""
        return count_picks(state["design"]["fields"], state["players"], player)

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A random valid value for every field (an optional one sometimes empty)."""
        players = state["players"]
        return {
            field["name"]: bot_value(field, players, player, rng)
            for field in state["design"]["fields"]
        }

    # --- Resolution -------------------------------------------------------------------

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution | DecisionRequest:
        """Find the round's winners by the design's resolver; they gain the points."""
        del rng
        design = state["design"]
        resolver = design["resolver"]
        players = state["players"]
        outcome: dict[str, Any]
        if resolver["kind"] == "host":
            judged = {p: dict(picks[p]) for p in players if _took_part(picks.get(p))}
            if not decisions:
                prompt = {"round": state["round"] + 1, "picks": judged}
                return DecisionRequest(HOST, DECLARE, prompt, dict(NO_DECLARATION))
            declared = decisions[0]
            outcome = {"winners": list(declared["winners"]), "note": declared["note"]}
            values: dict[str, Any] = judged
        else:
            field = resolver["field"]
            values = {p: picks[p].get(field) for p in players if p in picks}
            values = {p: v for p, v in values.items() if v is not None}
            if resolver["kind"] == "plurality":
                top = plurality_top(values)
                outcome = {"winners": [p for p in values if values[p] in top], "top": top}
            else:
                outcome = {
                    "winners": unique_winner(values, lowest=resolver["kind"] == "lowest-unique")
                }
        if design["disclosure"] == AT_RESOLVE:
            outcome["values"] = values
        return Resolution(state=_after_round(state, outcome), outcome=outcome)

    def check_decision(self, state: State, request: DecisionRequest, payload: JSON) -> Payload:
        """Check the host's declaration: distinct players of the match and a short note.

        :raises BadDecision: for anything else.
        """
        del request
        declared = check_object(
            payload,
            required=("winners",),
            optional=("note",),
            shape=_DECLARATION_SHAPE,
            error=BadDecision,
        )
        players = state["players"]
        winners = declared["winners"]
        if not isinstance(winners, list) or len(winners) > len(players):
            msg = (
                f"the winners are a list of players of the match ({list_names(players)}), "
                f"not {describe(winners)}"
            )
            raise BadDecision(msg)
        for winner in winners:
            if not isinstance(winner, str) or winner not in players:
                msg = f"{describe(winner)} is not a player of the match ({list_names(players)})"
                raise BadDecision(msg)
        if len(set(winners)) != len(winners):
            msg = "the winners name a player twice; name each winner once"
            raise BadDecision(msg)
        note = declared.get("note")
        note = "" if note is None else note
        if not is_text(note) or len(note) > MAX_NOTE:
            msg = f"the note is a text of at most {MAX_NOTE} characters, not {describe(note)}"
            raise BadDecision(msg)
        return {"winners": list(winners), "note": note}

    def decision_choices(self, state: State, request: DecisionRequest) -> list[Payload]:
        """No winner, or one player alone (any list of distinct players is allowed)."""
        del request
        return [dict(NO_DECLARATION)] + [{"winners": [p], "note": ""} for p in state["players"]]

    # --- Views ------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        """Round, points, outcomes, finished and winners (exactly these keys)."""
        return {
            "round": state["round"],
            "points": dict(state["points"]),
            "outcomes": [dict(outcome) for outcome in state["outcomes"]],
            "finished": state["finished"],
            "winners": list(state["winners"]),
        }

    def is_finished(self, state: State) -> bool:
        """The match ends after its rounds."""
        return bool(state["finished"])

    def result(self, state: State) -> dict[str, Any]:
        """Points and the winners (every player with the most points)."""
        return {"points": dict(state["points"]), "winners": list(state["winners"])}


def _took_part(pick: Payload | None) -> bool:
    """Whether a pick gives anything to judge (a missing pick is every field null)."""
    return pick is not None and any(value is not None for value in pick.values())


def unique_winner(values: Mapping[str, int], *, lowest: bool) -> list[str]:
    """Return the player with the lowest (or highest) value chosen by exactly one player.

    >>> unique_winner({"ana": 3, "ben": 3, "cai": 5, "dee": 7}, lowest=True)
    ['cai']
    >>> unique_winner({"ana": 3, "ben": 3}, lowest=False)
    []
    """
    counts = Counter(values.values())
    unique = [value for value, n in counts.items() if n == 1]
    if not unique:
        return []
    best = min(unique) if lowest else max(unique)
    return [player for player, value in values.items() if value == best]


def plurality_top(values: Mapping[str, str]) -> list[str]:
    """Return the values chosen by the most players, sorted by code point ([] for none).

    >>> plurality_top({"ana": "b", "ben": "a", "cai": "b", "dee": "a", "eve": "c"})
    ['a', 'b']
    """
    counts = Counter(values.values())
    if not counts:
        return []
    most = max(counts.values())
    return sorted(value for value, n in counts.items() if n == most)


def _after_round(state: State, outcome: Mapping[str, Any]) -> State:
    """Return the state after a round: winners gain the points; the last round ends it."""
    design = state["design"]
    points = dict(state["points"])
    for winner in outcome["winners"]:
        points[winner] += design["points"]
    public = {"winners": list(outcome["winners"])}
    if "top" in outcome:
        public["top"] = list(outcome["top"])
    number = state["round"] + 1
    finished = number >= design["rounds"]
    winners: list[str] = []
    if finished:
        most = max(points.values())
        winners = [p for p in state["players"] if points[p] == most]
    return {
        **state,
        "round": number,
        "points": points,
        "outcomes": [*state["outcomes"], public],
        "finished": finished,
        "winners": winners,
    }
