"""The rules object of 6 nimmt!: options, set-up, deals, turns, resolution and views.

See :mod:`domain.rules.six_nimmt` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    BadDeal,
    BadOptions,
    Deal,
    DecisionRequest,
    Disclosure,
    IllegalPick,
    Payload,
    Resolution,
    Rules,
    RulesError,
    State,
    StepSpec,
    check_object,
    check_options_object,
    check_whole,
    clone,
    describe,
    player_list,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField
from domain.rules.six_nimmt.cards import (
    DECK,
    ROW_COUNT,
    ActionCard,
    Card,
    Row,
    action_card_setup,
    fewest_bullheads_row,
    is_sixth_card,
    landing_row,
    match_ends,
    move_action_card,
    row_bullheads,
    trim_rows,
    virtual_card,
    winners,
)
from domain.rules.six_nimmt.checks import (
    HAND_SIZE,
    MAX_HUMANS_WITH_VIRTUAL,
    MAX_HUMANS_WITHOUT_VIRTUAL,
    MIN_HUMANS,
    VIRTUAL,
    check_dealt,
    check_names,
    decided_row,
    is_card_number,
)

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from domain.fairrand import Rng

TURNS_PER_ROUND = 10
EVEN_ODD = "even-odd"
DEFAULT_START_POINTS = 66
MAX_START_POINTS = 1_000_000  # a marathon match; points are bounded all the same
OPTION_NAMES = ("virtual_player", "start_points", "action_card")


class SixNimmt(Rules):
    """6 nimmt! with the virtual player and the Even/Odd action card."""

    name = "six-nimmt"
    display_name = "6 nimmt!"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE
    min_players = MIN_HUMANS
    max_players = MAX_HUMANS_WITHOUT_VIRTUAL

    # --- Set-up -------------------------------------------------------------------------

    def options_schema(self) -> list[Option]:
        """Return the options: the virtual player, the start points, the action card."""
        return [
            Option(
                "virtual_player",
                OptionKind.BOOL,
                True,  # noqa: FBT003 - the option's default value, not a flag argument
                f'one virtual player, called "{VIRTUAL}", plays along with the humans',
            ),
            Option(
                "start_points",
                OptionKind.INTEGER,
                DEFAULT_START_POINTS,
                "the points everybody has at the start",
                minimum=1,
                maximum=MAX_START_POINTS,
            ),
            Option(
                "action_card",
                OptionKind.CHOICE,
                None,
                "the action card in play: none, or Even/Odd",
                choices=(None, EVEN_ODD),
            ),
        ]

    def player_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """2 to 9 humans with the virtual player, 2 to 10 without.

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        with_virtual = self.normalise_options(options)["virtual_player"]
        most = MAX_HUMANS_WITH_VIRTUAL if with_virtual else MAX_HUMANS_WITHOUT_VIRTUAL
        return MIN_HUMANS, most

    def pick_fields(self, kind: str) -> list[PickField]:
        """One field: the card played."""
        del kind
        return [PickField("card", FieldKind.INTEGER, "the card of your hand you play")]

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with every default filled in (unknown options are rejected).

        :raises BadOptions: for an unknown option or a value of the wrong kind.

        >>> RULES.normalise_options({})
        {'virtual_player': True, 'start_points': 66, 'action_card': None}
        """
        options = check_options_object(options, "six-nimmt", OPTION_NAMES)
        out = {
            "virtual_player": options.get("virtual_player", True),
            "start_points": options.get("start_points", DEFAULT_START_POINTS),
            "action_card": options.get("action_card"),
        }
        if not isinstance(out["virtual_player"], bool):
            msg = "virtual_player must be true or false"
            raise BadOptions(msg)
        check_whole(out["start_points"], "start_points", 1, MAX_START_POINTS, BadOptions)
        if out["action_card"] is not None and out["action_card"] != EVEN_ODD:
            msg = f'action_card must be null or "{EVEN_ODD}", not {describe(out["action_card"])}'
            raise BadOptions(msg)
        return out

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before the first deal: the whole deck in the draw pile.

        :raises BadOptions: for bad options, a wrong player count or a human called ``virtual``.
        """
        options = self.normalise_options(dict(options))
        humans = check_names(player_list(players), virtual_player=options["virtual_player"])
        everyone = [*humans, VIRTUAL] if options["virtual_player"] else humans
        return {
            "options": options,
            "players": humans,
            "round": 0,
            "turn": 0,
            "rows": [[] for _ in range(ROW_COUNT)],
            "points": dict.fromkeys(everyone, options["start_points"]),
            "action_card": None,
            "hands": {player: [] for player in everyone},
            "draw": list(DECK),
            "discard": [],
            "played": {},
            "finished": False,
            "winners": [],
        }

    def next_step(self, state: State) -> StepSpec | None:
        """Each step is one turn of every human; the first turn of a round deals."""
        if state["finished"]:
            return None
        return StepSpec(
            kind="turn",
            submitters=tuple(state["players"]),
            needs_deal=state["turn"] in (0, TURNS_PER_ROUND),
        )

    # --- Deck and deals -----------------------------------------------------------------

    def deal(self, state: State, rng: Rng) -> Deal:
        """Deal a round from the draw pile, reshuffling the discard pile when it runs out.

        The draw pile (ascending) is shuffled and dealt from the front: in round 1 four row
        cards, then ten cards to each human in seat order, then ten to the virtual player.
        """
        draw = list(state["draw"])
        rng.shuffle(draw)
        discard = list(state["discard"])

        def take(count: int) -> list[Card]:
            nonlocal draw, discard
            cards: list[Card] = []
            for _ in range(count):
                if not draw:
                    if not discard:
                        msg = "the deck has no card left to deal"
                        raise RulesError(msg)
                    draw, discard = discard, []
                    rng.shuffle(draw)
                cards.append(draw.pop(0))
            return cards

        rows = take(ROW_COUNT) if state["round"] == 0 else None
        hands = {player: sorted(take(HAND_SIZE)) for player in state["hands"]}
        return self._split(rows, hands)

    def check_deal(self, state: State, deal: Mapping[str, Any]) -> Deal:
        """Validate an explicit deal ``{"rows": [4 cards] (round 1 only), "hands": {...}}``.

        :raises BadDeal: when the deal does not fit the state.
        """
        shape = 'a six-nimmt deal is {"rows": [4 cards], "hands": {player: [10 cards]}}'
        check_object(deal, required=(), optional=("rows", "hands"), shape=shape, error=BadDeal)
        first_round = state["round"] == 0
        if first_round and "rows" not in deal:
            msg = "the first deal must name the 4 row cards"
            raise BadDeal(msg)
        if not first_round and "rows" in deal:
            msg = "only the first deal names row cards; later rounds keep the rows"
            raise BadDeal(msg)
        rows = deal.get("rows")
        if rows is not None and (
            not isinstance(rows, list)
            or len(rows) != ROW_COUNT
            or not all(is_card_number(card) for card in rows)
        ):
            msg = f"rows must be a list of {ROW_COUNT} card numbers"
            raise BadDeal(msg)
        hands = deal.get("hands")
        if not isinstance(hands, dict):
            msg = "the deal must give hands as {player: [10 cards]}"
            raise BadDeal(msg)
        check_dealt(state, rows, hands)
        return self._split(rows, {player: sorted(hands[player]) for player in state["hands"]})

    def _split(self, rows: list[Card] | None, hands: dict[str, list[Card]]) -> Deal:
        public: dict[str, Any] = {}
        if rows is not None:
            public["rows"] = list(rows)
        if VIRTUAL in hands:
            public["virtual_hand"] = list(hands[VIRTUAL])
        private = {player: list(cards) for player, cards in hands.items() if player != VIRTUAL}
        return Deal(public=public, private=private)

    def apply_deal(self, state: State, deal: Deal) -> State:
        """Return the state with the hands (and, in round 1, the rows) dealt.

        :raises BadDeal: when the deal does not fit the state.
        """
        rows = deal.public.get("rows")
        hands = dict(deal.private)
        if "virtual_hand" in deal.public:
            hands[VIRTUAL] = deal.public["virtual_hand"]
        check_dealt(state, rows, hands)
        new = clone(state)
        dealt = set(rows or []).union(*hands.values())
        if dealt & set(state["discard"]):
            # The draw pile ran out (or the host reshuffled): the discard pile joined it.
            new["draw"] = sorted((set(state["draw"]) | set(state["discard"])) - dealt)
            new["discard"] = []
        else:
            new["draw"] = [card for card in state["draw"] if card not in dealt]
        new["hands"] = {player: sorted(hands[player]) for player in state["hands"]}
        if rows is not None:
            new["rows"] = [[card] for card in rows]
            if state["options"]["action_card"] == EVEN_ODD:
                new["action_card"] = action_card_setup(new["rows"])
        return new

    # --- Submissions --------------------------------------------------------------------

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """A pick is ``{"card": n}`` naming a card in the player's hand.

        :raises IllegalPick: for anything else.
        """
        if player not in state["players"]:
            msg = f"{describe(player)} is not a human player of this match"
            raise IllegalPick(msg)
        shape = 'a pick is {"card": n} naming one card of the hand'
        payload = check_object(payload, required=("card",), shape=shape, error=IllegalPick)
        card = payload["card"]
        if not is_card_number(card) or card not in DECK:
            msg = (
                'the card is a card number from 1 to 104 such as {"card": 37}, '
                f"not {describe(card)}"
            )
            raise IllegalPick(msg)
        if card not in state["hands"][player]:
            msg = f"card {card} is not in the hand; play one of the cards in your hand"
            raise IllegalPick(msg)
        return {"card": card}

    def default_pick(self, state: State, player: str) -> Payload:
        """A missing pick plays the lowest card in hand.

        :raises RulesError: when the player has no card.
        """
        hand = state["hands"].get(player)
        if not hand:
            msg = f"{describe(player)} has no card to play"
            raise RulesError(msg)
        return {"card": min(hand)}

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """Play a uniformly drawn card of the hand."""
        return {"card": rng.choice(sorted(state["hands"][player]))}

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Each card of a human's hand, ascending."""
        hand = state["hands"][player] if player in state["players"] else []
        return ({"card": card} for card in sorted(hand))

    def count_legal_picks(self, state: State, player: str) -> int:
        """One pick per card in a human's hand."""
        return len(state["hands"][player]) if player in state["players"] else 0

    def decision_choices(self, state: State, request: DecisionRequest) -> list[Payload]:
        """Return the four rows: a too-low card may take any of them."""
        del state, request
        return [{"row": index} for index in range(ROW_COUNT)]

    def scenario_deal(self, deal: Deal) -> dict[str, Any] | None:
        """``{"hands": {player: cards}, "rows": cards}``: the virtual hand is a hand again.

        >>> RULES.scenario_deal(Deal(public={"virtual_hand": [3]}, private={"ana": [1]}))
        {'hands': {'ana': [1], 'virtual': [3]}}
        """
        public, private = dict(deal.public), dict(deal.private)
        hands = dict(private)
        if "virtual_hand" in public:
            hands[VIRTUAL] = public["virtual_hand"]
        out: dict[str, Any] = {"hands": hands}
        if "rows" in public:
            out["rows"] = public["rows"]
        return out

    def check_decision(self, state: State, request: DecisionRequest, payload: JSON) -> Payload:
        """A take-row decision is ``{"row": i}`` with ``i`` from 0 to 3.

        :raises BadDecision: for anything else.
        """
        del state, request
        return {"row": decided_row(payload)}

    # --- Resolution ---------------------------------------------------------------------

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution | DecisionRequest:
        """Resolve one turn: reveal, place the cards smallest first, then the end of round.

        :raises IllegalPick: when a pick is missing or not in its player's hand.
        :raises BadDecision: when a decision is not ``{"row": 0..3}``.
        """
        del rng
        new = clone(state)
        if new["turn"] in (0, TURNS_PER_ROUND):
            new["round"] += 1
            new["turn"] = 1
        else:
            new["turn"] += 1
        action_card: ActionCard | None = new["action_card"]

        # Reveal: every human's card, then the virtual player's, chosen on the rows as they
        # stand at the start of the turn.
        played: dict[str, Card] = {}
        for player in new["players"]:
            played[player] = self.check_pick(state, player, picks.get(player))["card"]
        if VIRTUAL in new["hands"]:
            played[VIRTUAL] = virtual_card(new["hands"][VIRTUAL], new["rows"], action_card)
        for player, card in played.items():
            new["hands"][player].remove(card)
        new["played"] = played

        # Placement, smallest card first.
        rows: list[Row] = new["rows"]
        plays: list[dict[str, Any]] = []
        moves: list[dict[str, Any]] = []
        asked = 0
        for player, card in sorted(played.items(), key=lambda item: item[1]):
            index = landing_row(card, rows, action_card)
            if index is not None and not is_sixth_card(rows[index]):
                rows[index].append(card)
                plays.append(_play(player, card, index, [], "placed"))
                continue
            if index is not None:
                reason = "sixth-card"
            else:
                reason = "too-low"
                if player == VIRTUAL:
                    index = fewest_bullheads_row(rows)
                elif asked < len(decisions):
                    index = decided_row(decisions[asked])
                    asked += 1
                else:
                    return DecisionRequest(
                        player=player,
                        kind="take-row",
                        prompt={
                            "card": card,
                            "rows": [list(row) for row in rows],
                            "bullheads": [row_bullheads(row) for row in rows],
                            "action_card": None if action_card is None else dict(action_card),
                        },
                        default={"row": fewest_bullheads_row(rows)},
                    )
            took = rows[index]
            rows[index] = [card]
            new["points"][player] -= row_bullheads(took)
            new["discard"] = sorted([*new["discard"], *took])
            plays.append(_play(player, card, index, took, reason))
            if action_card is not None:
                moved = move_action_card(rows, action_card)
                moves.append(
                    {
                        "card": card,
                        "from": action_card["row"],
                        "to": moved["row"],
                        "parity": moved["parity"],
                    }
                )
                action_card = moved
        new["action_card"] = action_card

        # End of the round: the end check, else the rows are trimmed.
        round_end = new["turn"] == TURNS_PER_ROUND
        if round_end:
            if match_ends(new["points"]):
                new["finished"] = True
                new["winners"] = winners(new["points"], new["players"])
            else:
                new["rows"], trimmed = trim_rows(rows)
                new["discard"] = sorted([*new["discard"], *trimmed])
        return Resolution(
            state=new,
            outcome={
                "plays": plays,
                "action_card_moves": moves,
                "round_end": round_end,
                "finished": new["finished"],
            },
        )

    # --- Views --------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        """Round, turn, rows, points, action card, end, hand sizes, last turn, virtual hand."""
        view: dict[str, Any] = {
            "round": state["round"],
            "turn": state["turn"],
            "rows": [list(row) for row in state["rows"]],
            "points": dict(state["points"]),
            "action_card": None if state["action_card"] is None else dict(state["action_card"]),
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "hand_sizes": {player: len(state["hands"][player]) for player in state["players"]},
            "played": dict(state["played"]),
        }
        if VIRTUAL in state["hands"]:
            view["virtual_hand"] = list(state["hands"][VIRTUAL])
        return view

    def private_view(self, state: State, player: str) -> dict[str, Any]:
        """A human's own hand, ascending."""
        if player not in state["players"]:
            return {}
        return {"hand": sorted(state["hands"][player])}

    def is_finished(self, state: State) -> bool:
        """Whether the end check after a round found a player at 0 points or below."""
        return bool(state["finished"])

    def result(self, state: State) -> dict[str, Any]:
        """The points of everyone and the winning human(s)."""
        return {"points": dict(state["points"]), "winners": list(state["winners"])}


def _play(player: str, card: Card, row: int, took: list[Card], reason: str) -> dict[str, Any]:
    return {
        "player": player,
        "card": card,
        "row": row,
        "took": list(took),
        "bullheads": row_bullheads(took),
        "reason": reason,
    }


RULES = SixNimmt()
