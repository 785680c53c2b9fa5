"""6 nimmt! with the virtual player and the Even/Odd action card (RULINGS.md section 1).

Rule texts: ``seeds/six-nimmt.txt`` and ``seeds/six-nimmt-even-odd.md``. The functions below
follow the order of the rulings: bullheads, rows, placement, sixth card, too low, the virtual
player, deck and deals, end, payload; then the Even/Odd action card.

Options (``normalise_options`` fills in the defaults and rejects anything else):

* ``virtual_player`` (bool, default ``true``): one virtual player, id ``virtual``, joins the
  humans. 2 to 9 humans with it, 2 to 10 without. A human may not be called ``virtual``.
* ``start_points`` (a whole number from 1 to 1,000,000, default 66): everybody's points at
  the start.
* ``action_card`` (``null`` or ``"even-odd"``, default ``null``).

Steps: one step is one turn, ``StepSpec(kind="turn", submitters=<humans in seat order>)``;
the first turn of each round also deals (``needs_deal``). The virtual player never submits:
``resolve`` computes its card. Payload ``{"card": 37}``; a missing pick is the lowest card in
hand. A card below every row end (or, with the action card, with no row it may enter) pauses
resolution with ``DecisionRequest(player, kind="take-row", prompt={"card", "rows",
"bullheads", "action_card"}, default={"row": <fewest bullheads, ties lowest index>})``; the
decision payload is ``{"row": i}`` with ``i`` in 0..3.

Rulings applied (RULINGS.md section 1):

* Bullheads: 55 → 7; other multiples of 11 → 5; multiples of 10 → 3; other multiples of 5 → 2;
  every other card → 1.
* Rows keep positions 0-3; a taken row keeps its position and restarts with the card.
* Cards resolve from smallest to largest; a card goes on the row whose rightmost card is the
  largest one below it. A sixth card takes the five cards and starts the row.
* Too low: the player takes a row of their choice (public decision after the reveal); the
  default and the virtual player's rule is the row worth the fewest bullheads, ties → the
  lowest index.
* Virtual player: public hand; it plays, among its cards higher than at least one row end it
  may enter, the one with the smallest gap to the row it would land on, ties → the lower
  card; with no such card, its lowest card. The card is chosen on the rows as they stand at
  the start of the turn; a row to take is chosen on the rows as they stand when it resolves.
* Deals: round 1 deals 4 row cards, then 10 cards to each human in seat order, then 10 to
  the virtual player. Taken and trimmed cards go to the discard pile; each row keeps only its
  rightmost card at the end of a round; an exhausted draw pile is replaced by the shuffled
  discard pile.
* End: checked only after the tenth turn of a round: if any player, the virtual player
  included, is at 0 or below, the match ends. Points may go below 0. The winners are the
  human(s) with the most points (ties all listed, in seat order); the virtual player is never
  ranked.
* Even/Odd: at set-up the action card goes on the row with the lowest starting card, showing
  its parity. The marked row takes only cards of the shown parity; placement looks only at
  rows the card may enter; a card with no such row is too low (any of the four rows may be
  taken). Whenever a row is taken, after the card starts it, the action card moves to the row
  with the lowest rightmost card among the three rows it is not on and shows that card's
  parity. It never counts towards the five-card limit and persists across rounds. The virtual
  player considers only rows its card may enter.

Randomness (the only use of the rng; ``resolve`` and ``check_*`` use none):

* ``deal``: the draw pile, in ascending order, is shuffled with ``rng.shuffle`` and dealt from
  the front: in round 1 first 4 row cards (rows 0, 1, 2, 3 in that order), then 10 cards to
  each human in seat order, then 10 to the virtual player. In round 1 the draw pile is the
  whole deck 1..104. When the draw pile runs out during the deal, the discard pile, in
  ascending order, is shuffled with ``rng.shuffle`` and dealing continues from its front.
* ``bot_pick``: ``rng.choice`` over the hand in ascending order.

Readings chosen where RULINGS.md is silent:

* Reading chosen: the state keeps the draw and discard piles in ascending order (their order
  carries no information), and every random deal shuffles the draw pile afresh. So the state
  after a deal depends only on which cards went where, and replaying the recorded deal with
  ``apply_deal`` rebuilds exactly the state a random deal produced. Shuffling a face-down
  remainder again changes no probability.
* Reading chosen: when a deal takes any card from the discard pile (a random deal only does so
  after the draw pile ran out), the rest of the discard pile joins the draw pile, as after a
  physical reshuffle. An explicit deal may name any card in the draw or the discard pile.
* Reading chosen: an explicit deal names ``rows`` in round 1 only (required there) and exactly
  10 cards for every human and, when enabled, for ``virtual``; all cards distinct.
* Reading chosen: the end check comes before trimming, as in the seed ("if any player has run
  out of points, the match ends. Otherwise, all cards left of the rightmost card ... are
  discarded"): the final rows stay as played.
* Reading chosen: the virtual player's gap ignores whether its card would be a sixth card; it
  follows the rule literally and does not avoid taking rows.
* Reading chosen: the virtual player's card is fixed before any card of the turn resolves, and
  its too-low row is chosen when its card resolves (this is the ruling; the card it plays is in
  the outcome's ``plays`` like every other card).
* Reading chosen: when several rows are taken in one turn, the action card moves after each
  take, before the next card resolves. A too-low card starts the row it takes even when its
  parity differs from the shown side; the action card then moves as usual.
* Reading chosen: ``hand_sizes`` in the public view lists the humans only (the virtual
  player's whole hand is public as ``virtual_hand``).
* Reading chosen: ``round`` and ``turn`` in the public view are those of the turn just played
  (0 and 0 before any); a deal does not change them.

Public view keys: ``round``, ``turn``, ``rows`` (4 lists of ints), ``points`` ({player: int},
``virtual`` included when enabled), ``action_card`` (``null`` or ``{"row": i, "parity":
"even"|"odd"}``), ``finished``, ``winners`` (humans; ``[]`` until finished), ``hand_sizes``
({human: n}), ``played`` ({player: card} of the last turn, ``virtual`` included; ``{}`` before
any) and, when enabled, ``virtual_hand`` (ascending). Private view: ``{"hand": [ascending]}``.

Outcome of a turn: ``{"plays": [{"player", "card", "row", "took", "bullheads", "reason"}, ...]
(resolution order; reason "placed" | "sixth-card" | "too-low"), "action_card_moves": [{"card",
"from", "to", "parity"}, ...], "round_end": bool, "finished": bool}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    BadDeal,
    BadDecision,
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
    is_whole,
    player_list,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from domain.fairrand import Rng

Card = int
Row = list[Card]
ActionCard = dict[str, Any]  # {"row": i, "parity": "even" | "odd"}

DECK = range(1, 105)
ROW_COUNT = 4
ROW_LIMIT = 5  # a row holds five cards; the sixth takes them
HAND_SIZE = 10
TURNS_PER_ROUND = 10
VIRTUAL = "virtual"
EVEN_ODD = "even-odd"
DEFAULT_START_POINTS = 66
MAX_START_POINTS = 1_000_000  # a marathon match; points are bounded all the same
MIN_HUMANS = 2
MAX_HUMANS_WITH_VIRTUAL = 9
MAX_HUMANS_WITHOUT_VIRTUAL = 10
OPTION_NAMES = ("virtual_player", "start_points", "action_card")


# --- Card values ------------------------------------------------------------------------


def bullheads(card: Card) -> int:
    """Return the bullheads (points) a card is worth.

    >>> [bullheads(c) for c in (55, 11, 22, 99, 10, 100, 5, 15, 1, 104)]
    [7, 5, 5, 5, 3, 3, 2, 2, 1, 1]
    """
    if card == 55:  # noqa: PLR2004 - the one card worth seven
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def row_bullheads(row: Iterable[Card]) -> int:
    """Return the bullheads of a row of cards.

    >>> row_bullheads([3, 10, 55])
    11
    """
    return sum(bullheads(card) for card in row)


def parity(card: Card) -> str:
    """Return the side of the action card a card matches.

    >>> parity(31), parity(90)
    ('odd', 'even')
    """
    return "even" if card % 2 == 0 else "odd"


# --- Placement --------------------------------------------------------------------------


def may_enter(card: Card, row: int, action_card: ActionCard | None) -> bool:
    """Whether ``card`` may go on row ``row``: the marked row takes only the shown parity.

    >>> may_enter(90, 3, {"row": 3, "parity": "odd"}), may_enter(90, 1, {"row": 3, "parity": "odd"})
    (False, True)
    """
    return action_card is None or action_card["row"] != row or parity(card) == action_card["parity"]


def landing_row(card: Card, rows: Sequence[Row], action_card: ActionCard | None) -> int | None:
    """Return the row whose rightmost card is the largest one below ``card``.

    Only rows the card may enter count; ``None`` means the card is too low.

    >>> landing_row(11, [[3], [19], [50], [80]], None)
    0
    >>> landing_row(90, [[31], [52], [92], [85]], {"row": 3, "parity": "odd"})
    1
    >>> landing_row(2, [[3], [19], [50], [80]], None) is None
    True
    """
    best: int | None = None
    for index, row in enumerate(rows):
        end = row[-1]
        allowed = end < card and may_enter(card, index, action_card)
        if allowed and (best is None or end > rows[best][-1]):
            best = index
    return best


def is_sixth_card(row: Sequence[Card]) -> bool:
    """Whether a card placed on ``row`` would be its sixth (the action card never counts)."""
    return len(row) >= ROW_LIMIT


def fewest_bullheads_row(rows: Sequence[Row]) -> int:
    """Return the row worth the fewest bullheads, ties → the lowest index.

    This is the too-low default and the virtual player's choice.

    >>> fewest_bullheads_row([[10], [3, 4], [55], [2, 7]])
    1
    """
    return min(range(len(rows)), key=lambda index: (row_bullheads(rows[index]), index))


# --- Virtual player ---------------------------------------------------------------------


def virtual_card(hand: Sequence[Card], rows: Sequence[Row], action_card: ActionCard | None) -> Card:
    """Return the card the virtual player plays on ``rows``.

    Among its cards higher than at least one row end they may enter, the one with the
    smallest gap to the row it would land on; ties → the lower card. With no such card,
    its lowest card.

    :raises RulesError: when the hand is empty.

    >>> virtual_card([14, 22, 60], [[10], [20], [50], [80]], None)
    22
    >>> virtual_card([1, 2], [[10], [20], [50], [80]], None)
    1
    """
    if not hand:
        msg = "the virtual player has no card left"
        raise RulesError(msg)
    best: tuple[int, Card] | None = None
    for card in hand:
        index = landing_row(card, rows, action_card)
        if index is not None:
            key = (card - rows[index][-1], card)
            if best is None or key < best:
                best = key
    return min(hand) if best is None else best[1]


# --- Even/Odd action card ---------------------------------------------------------------


def action_card_setup(rows: Sequence[Row]) -> ActionCard:
    """Put the action card on the row with the lowest starting card, showing its parity.

    >>> action_card_setup([[31], [7], [92], [85]])
    {'row': 1, 'parity': 'odd'}
    """
    row = min(range(len(rows)), key=lambda index: rows[index][-1])
    return {"row": row, "parity": parity(rows[row][-1])}


def move_action_card(rows: Sequence[Row], action_card: ActionCard) -> ActionCard:
    """Move the action card to the lowest-ended of the three other rows, showing its parity.

    >>> move_action_card([[31], [90], [92], [85]], {"row": 3, "parity": "odd"})
    {'row': 0, 'parity': 'odd'}
    """
    others = [index for index in range(len(rows)) if index != action_card["row"]]
    row = min(others, key=lambda index: rows[index][-1])
    return {"row": row, "parity": parity(rows[row][-1])}


# --- End of a round ---------------------------------------------------------------------


def winners(points: Mapping[str, int], humans: Sequence[str]) -> list[str]:
    """Return the human(s) with the most points, in seat order (the virtual player never ranks).

    >>> winners({"ana": 5, "ben": 9, "cai": 9, "virtual": 40}, ["ana", "ben", "cai"])
    ['ben', 'cai']
    """
    top = max(points[player] for player in humans)
    return [player for player in humans if points[player] == top]


def match_ends(points: Mapping[str, int]) -> bool:
    """Whether any player, the virtual player included, is at 0 points or below."""
    return any(value <= 0 for value in points.values())


def trim_rows(rows: Sequence[Row]) -> tuple[list[Row], list[Card]]:
    """Keep only each row's rightmost card; return the rows and the trimmed cards.

    >>> trim_rows([[3, 4], [19], [50, 51, 52], [80]])
    ([[4], [19], [52], [80]], [3, 50, 51])
    """
    kept = [row[-1:] for row in rows]
    trimmed = [card for row in rows for card in row[:-1]]
    return kept, trimmed


# --- Checking input ---------------------------------------------------------------------


def _is_card_number(value: Any) -> bool:
    return is_whole(value)


def _check_names(players: Any, *, virtual_player: bool) -> list[str]:
    if not isinstance(players, list):
        msg = "players must be a list of non-empty names"
        raise BadOptions(msg)
    most = MAX_HUMANS_WITH_VIRTUAL if virtual_player else MAX_HUMANS_WITHOUT_VIRTUAL
    if not MIN_HUMANS <= len(players) <= most:
        which = "with" if virtual_player else "without"
        msg = (
            f"6 nimmt! {which} the virtual player takes {MIN_HUMANS} to {most} players, "
            f"not {len(players)}"
        )
        raise BadOptions(msg)
    if not all(isinstance(p, str) and p for p in players):
        msg = "players must be a list of non-empty names"
        raise BadOptions(msg)
    if len(set(players)) != len(players):
        msg = "players must not repeat a name"
        raise BadOptions(msg)
    if VIRTUAL in players:
        msg = f'the name "{VIRTUAL}" is reserved for the virtual player; choose another name'
        raise BadOptions(msg)
    return list(players)


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
        humans = _check_names(player_list(players), virtual_player=options["virtual_player"])
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
            or not all(_is_card_number(card) for card in rows)
        ):
            msg = f"rows must be a list of {ROW_COUNT} card numbers"
            raise BadDeal(msg)
        hands = deal.get("hands")
        if not isinstance(hands, dict):
            msg = "the deal must give hands as {player: [10 cards]}"
            raise BadDeal(msg)
        _check_dealt(state, rows, hands)
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
        _check_dealt(state, rows, hands)
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
        if not _is_card_number(card) or card not in DECK:
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
        return {"row": _decided_row(payload)}

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
                    index = _decided_row(decisions[asked])
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


def _decided_row(payload: Any) -> int:
    shape = f'a take-row decision is {{"row": i}} with i from 0 to {ROW_COUNT - 1}'
    payload = check_object(payload, required=("row",), shape=shape, error=BadDecision)
    row = payload["row"]
    if is_whole(row) and not 0 <= row < ROW_COUNT:
        msg = f"row {describe(row)} does not exist; the rows are numbered 0 to {ROW_COUNT - 1}"
        raise BadDecision(msg)
    return check_whole(row, "the row to take", 0, ROW_COUNT - 1, BadDecision)


def _check_dealt(state: State, rows: list[Card] | None, hands: Mapping[str, Any]) -> None:
    """Check that a deal names 10 cards for every hand, distinct and still to be dealt."""
    expected = list(state["hands"])
    for player in hands:
        if player not in state["hands"]:
            msg = f"the deal gives a hand to {describe(player)}, who is not in this match"
            raise BadDeal(msg)
    for player in expected:
        if player not in hands:
            msg = f"the deal gives no hand to {describe(player)}"
            raise BadDeal(msg)
        hand = hands[player]
        if not isinstance(hand, list) or not all(_is_card_number(card) for card in hand):
            msg = f"the hand of {describe(player)} must be a list of card numbers"
            raise BadDeal(msg)
        if len(hand) != HAND_SIZE:
            msg = f"the hand of {describe(player)} has {len(hand)} cards; a hand has {HAND_SIZE}"
            raise BadDeal(msg)
    available = set(state["draw"]) | set(state["discard"])
    seen: set[Card] = set()
    for card in [*(rows or []), *(card for player in expected for card in hands[player])]:
        if card not in DECK:
            msg = f"card {describe(card)} does not exist; the cards are 1 to 104"
            raise BadDeal(msg)
        if card in seen:
            msg = f"card {card} is dealt twice"
            raise BadDeal(msg)
        if card not in available:
            msg = f"card {card} cannot be dealt: it is on a row or in a hand"
            raise BadDeal(msg)
        seen.add(card)


RULES = SixNimmt()
