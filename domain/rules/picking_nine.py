"""Picking Nine Possibilities (RULINGS.md section 3, seeds/picking-nine-possibilities.txt).

Five rounds; each round deals a pool of 8 new coloured cards plus the gray zero (while
nobody has taken it). Every player seals a want-list of 7 cards of the pool, a ban and a
priority number; the pick order, the ban and the tie-break list decide who receives which
card. After five rounds each player's best Quattro is scored.

Wire format
-----------
* Cards: ``"R1"``..``"R10"``, ``"G1"``..``"G10"``, ``"B1"``..``"B10"``, ``"Y1"``..``"Y10"``
  and ``"0"`` (the gray zero). Colour order R, G, B, Y.
* Options: ``{"tiebreak": [players]}`` only (a permutation of the players; default: the
  seat order). Unknown options are rejected. 3 to 6 players.
* One step per round: ``StepSpec(kind="round", submitters=all players, needs_deal=True)``.
* Deal (scenario shape): ``{"pool": [8 distinct coloured cards not dealt before]}``; the gray
  zero is added by the rules, never listed.
* Payload: ``{"wants": [7 distinct cards of this round's pool, most wanted first],
  "ban": card of this round's pool or null, "priority": 1..N}`` (N = number of players).
* Outcome of a round: ``{"received": {player: card}, "banned": card or null,
  "tiebreak": [the tie-break list after the round]}``. Nothing else: the pick order would
  reveal the priority structure.
* Public view: ``round`` (rounds played), ``pool`` (the latest dealt pool with ``"0"`` when
  present, in the default order; ``[]`` before any deal), ``holdings`` ({player: cards in
  the order received}), ``banned`` (the card banned in the round just played, or null),
  ``tiebreak``, ``finished``, ``scores`` ({player: best Quattro score}, at any time),
  ``tol`` (player or null; null until finished), ``ec`` (players; ``[]`` until finished),
  ``garnets`` ({player: n}; all 0 until finished).
* Disclosure is :attr:`Disclosure.AT_END`: want-lists, bans and priorities stay sealed until
  the match ends. The state holds no secret at all (no deck order, no picks), so the private
  view is ``{}``.

Fair randomness (the exact protocol)
------------------------------------
A random deal uses the rng handed to ``deal`` for one thing only: the coloured cards not
dealt in an earlier round, taken in the order R1..R10, G1..G10, B1..B10, Y1..Y10, are
shuffled with ``rng.shuffle``, and the first 8 of the shuffled list form the pool (recorded
sorted in the default order). Round 1 thus shuffles 40 cards, round 2 the 32 left, and so
on. Resolution and the public view draw nothing.

Rulings implemented (RULINGS.md section 3 and the "Missing submissions" paragraph)
-------------------------------------------------------------------------------------
* Each round deals 8 new coloured cards; the gray zero is in every pool until taken; cards
  nobody took (and a banned coloured card) are discarded; all 40 coloured cards appear
  exactly once over the match.
* Pick order: unique priority numbers first, ascending; then shared numbers, ascending, each
  group in tie-break list order (1, 1, 2, 2, 3, 4 -> 3, 4, 1, 1, 2, 2).
* Only the highest unique number's ban takes effect, before any pick; no unique number -> no
  ban; if that number is a defaulted player's, nothing is banned. A banned gray zero is not
  taken and stays in the next pools.
* Each player receives the first card of their wants still available.
* In a tied group every member but the last in the group's order wins a tie-break; winners
  move to the bottom of the list in reverse of their list order (ABCDE, A C D win -> BEDCA).
* Score: the best Quattro (4 cards, 4 colours, 4 numbers; the gray zero is its own colour and
  number and scores 0); no Quattro -> 0.
* Results: the sole top score earns the ToL (a tie -> none); EC = every player whose score is
  at most the second-lowest score; garnets: ToL 7, every other non-EC player 5.
* Missing submission: wants = the first 7 cards of the pool in the default order (gray zero
  first, then by number, equal numbers in colour order R, G, B, Y), ban null, priority N.

Readings chosen where RULINGS.md is silent
------------------------------------------
* Reading chosen: a random deal reshuffles the not-yet-dealt coloured cards at every round
  (above) instead of shuffling one deck at round 1 and keeping its order in the state. A
  :class:`~domain.rules.base.Deal` can carry data only publicly (logged as it is) or per
  player, so a hidden deck order has no channel from ``deal`` into the state; reshuffling the
  remainder gives every unseen card the same chance and makes each round's recorded pool the
  whole deal, so replay needs no hidden state. Explicit and random deals may be mixed: a
  random deal only ever draws cards not dealt before.
* Reading chosen: a deal's pool is recorded in the default order (gray zero first, then by
  number, then colour R, G, B, Y), whatever order an explicit deal listed it in; an explicit
  deal may not list the gray zero (it is added automatically).
* Reading chosen: a player may list in ``wants`` the card they ban; if their ban takes effect
  that card simply cannot be received. A submitted ban names a card of the pool or is
  ``null``, no ban (the dealer room pre-fills the form with the default pick, which has
  ``"ban": null``): when that player holds the highest unique number, nothing is banned,
  exactly as for a missing submission.
* Reading chosen: a want-list can never run out with 3 to 6 players. When a player picks, at
  most 5 cards were taken before them and at most 1 is banned, so at most 6 of their 7 wanted
  cards are gone. Should it ever happen, the player receives the lowest remaining card in the
  default order (:func:`receive_cards`).
* Reading chosen: a defaulted player's priority N takes part in everything as a number: it
  groups with other Ns, and when it is the highest unique number nothing is banned even if a
  lower unique number exists (only the highest unique number's ban counts).
* Reading chosen: tie-break winners of all tied groups of a round move to the bottom together,
  in reverse of their order in the list before the round.
* Reading chosen: the tie-break list is public (ARCHITECTURE.md requires ``tiebreak`` in the
  public state, and the outcome carries it). A consequence: after each round everyone sees who
  won tie-breaks, hence that those players shared a priority number with someone. Priorities
  themselves, want-lists and bans are not revealed before the end.
* Reading chosen: the ToL holder receives 7 garnets, not 7 + 5 (the seed lists the awards as
  alternatives: "Winning a ToL awards 7 garnets; dodging awards 5"); EC players receive 0.
  With 3 or more players the ToL holder is never EC (the sole top score is above the
  second-lowest one). When every score ties, every player is EC and nobody earns garnets.
* Reading chosen: ``scores`` is public throughout the match, computed from the public holdings.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    BadDeal,
    BadOptions,
    Deal,
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

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from domain.fairrand import Rng

Card = str
Player = str

COLOURS = ("R", "G", "B", "Y")
GRAY_ZERO: Card = "0"
ROUNDS = 5
POOL_SIZE = 8  # coloured cards dealt per round
WANTS = 7  # cards in a want-list
QUATTRO = 4  # cards in a Quattro
MIN_PLAYERS = 3
MAX_PLAYERS = 6
TOL_GARNETS = 7
DODGE_GARNETS = 5

#: The 40 coloured cards in the deck's reference order R1..R10, G1..G10, B1..B10, Y1..Y10.
DECK: tuple[Card, ...] = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 11))


# -- Cards -----------------------------------------------------------------------------------


def colour(card: Card) -> str:
    """Return a card's colour letter; the gray zero's colour is ``"0"`` (its own).

    >>> colour("B7"), colour("0")
    ('B', '0')
    """
    return card[0]


def number(card: Card) -> int:
    """Return a card's number; the gray zero's is 0.

    >>> number("Y10"), number("0")
    (10, 0)
    """
    return 0 if card == GRAY_ZERO else int(card[1:])


def default_order_key(card: Card) -> tuple[int, int]:
    """Sort key of the default order: gray zero first, then by number, then R, G, B, Y."""
    if card == GRAY_ZERO:
        return (0, 0)
    return (number(card), COLOURS.index(colour(card)))


def ascending(cards: Iterable[Card]) -> list[Card]:
    """Return the cards in the default order.

    >>> ascending(["Y2", "R10", "0", "G2", "B1"])
    ['0', 'B1', 'G2', 'Y2', 'R10']
    """
    return sorted(cards, key=default_order_key)


# -- Each round deals 8 new coloured cards, plus the gray zero until it is taken -------------


def undealt_cards(dealt: Iterable[Card]) -> list[Card]:
    """Return the coloured cards not dealt yet, in the deck's reference order."""
    seen = set(dealt)
    return [card for card in DECK if card not in seen]


def deal_pool(dealt: Iterable[Card], rng: Rng) -> list[Card]:
    """Draw the next 8 coloured cards: shuffle the undealt ones, take the first 8.

    :raises BadDeal: when fewer than 8 coloured cards are left.
    """
    remaining = undealt_cards(dealt)
    if len(remaining) < POOL_SIZE:
        msg = f"only {len(remaining)} coloured cards are left to deal"
        raise BadDeal(msg)
    rng.shuffle(remaining)
    return ascending(remaining[:POOL_SIZE])


def gray_zero_taken(holdings: Mapping[Player, Sequence[Card]]) -> bool:
    """Whether somebody holds the gray zero (it then stops appearing in pools)."""
    return any(GRAY_ZERO in cards for cards in holdings.values())


def round_pool(coloured: Iterable[Card], holdings: Mapping[Player, Sequence[Card]]) -> list[Card]:
    """Return the round's pool: the dealt coloured cards plus the gray zero while untaken."""
    extra = [] if gray_zero_taken(holdings) else [GRAY_ZERO]
    return ascending([*coloured, *extra])


# -- Quattro ---------------------------------------------------------------------------------


def is_quattro(cards: Sequence[Card]) -> bool:
    """Whether four cards have four different colours and four different numbers.

    >>> is_quattro(["0", "R1", "G2", "B3"]), is_quattro(["R1", "G2", "B3", "R4"])
    (True, False)
    """
    return (
        len(cards) == QUATTRO
        and len({colour(c) for c in cards}) == QUATTRO
        and len({number(c) for c in cards}) == QUATTRO
    )


def best_quattro(cards: Sequence[Card]) -> int:
    """Return the score of the best Quattro among ``cards``; 0 when there is none.

    >>> best_quattro(["R10", "G9", "B8", "Y7", "R6"])
    34
    >>> best_quattro(["R10", "G10", "B8", "Y8"])
    0
    """
    best = 0
    for four in combinations(cards, QUATTRO):
        if is_quattro(four):
            best = max(best, sum(number(c) for c in four))
    return best


# -- Submissions: wants, ban and priority ----------------------------------------------------


def default_submission(pool: Sequence[Card], players: int) -> Payload:
    """The missing submission: the first 7 cards of the pool, no ban, priority N."""
    return {"wants": ascending(pool)[:WANTS], "ban": None, "priority": players}


# -- Pick order ------------------------------------------------------------------------------


def pick_order(priorities: Mapping[Player, int], tiebreak: Sequence[Player]) -> list[Player]:
    """Return the pick order: unique numbers ascending, then shared numbers ascending.

    Players sharing a number pick in tie-break list order.

    >>> pick_order({"a": 1, "b": 1, "c": 2, "d": 2, "e": 3, "f": 4}, "abcdef")
    ['e', 'f', 'a', 'b', 'c', 'd']
    """
    counts = Counter(priorities.values())
    place = {player: i for i, player in enumerate(tiebreak)}
    unique = [p for p in priorities if counts[priorities[p]] == 1]
    shared = [p for p in priorities if counts[priorities[p]] > 1]
    return sorted(unique, key=lambda p: priorities[p]) + sorted(
        shared, key=lambda p: (priorities[p], place[p])
    )


# -- Tie-break list --------------------------------------------------------------------------


def tiebreak_winners(priorities: Mapping[Player, int], tiebreak: Sequence[Player]) -> list[Player]:
    """Return who won a tie-break: every member of a tied group but its last, in list order.

    >>> tiebreak_winners({"A": 1, "B": 2, "C": 1, "D": 3, "E": 3}, "ABCDE")
    ['A', 'D']
    """
    groups: dict[int, list[Player]] = {}
    for player in tiebreak:
        groups.setdefault(priorities[player], []).append(player)
    losers = {group[-1] for group in groups.values()}
    return [p for p in tiebreak if len(groups[priorities[p]]) > 1 and p not in losers]


def update_tiebreak_list(tiebreak: Sequence[Player], winners: Iterable[Player]) -> list[Player]:
    """Move the winners to the bottom of the list, in reverse of their list order.

    >>> "".join(update_tiebreak_list("ABCDE", "A"))
    'BCDEA'
    >>> "".join(update_tiebreak_list("ABCDE", "ACD"))
    'BEDCA'
    """
    won = set(winners)
    return [p for p in tiebreak if p not in won] + [p for p in reversed(tiebreak) if p in won]


# -- Ban -------------------------------------------------------------------------------------


def ban_holder(priorities: Mapping[Player, int]) -> Player | None:
    """Return the player with the highest unique priority number, or ``None`` if none is unique.

    >>> ban_holder({"a": 1, "b": 1, "c": 2, "d": 2, "e": 3, "f": 4})
    'f'
    >>> ban_holder({"a": 2, "b": 2, "c": 5, "d": 5}) is None
    True
    """
    counts = Counter(priorities.values())
    unique = [p for p in priorities if counts[priorities[p]] == 1]
    return max(unique, key=lambda p: priorities[p]) if unique else None


def effective_ban(
    priorities: Mapping[Player, int], bans: Mapping[Player, Card | None]
) -> Card | None:
    """Return the card banned this round: the ban of the highest unique number's player.

    A defaulted player's ban is ``None``, so nothing is banned when theirs would count.
    """
    holder = ban_holder(priorities)
    return None if holder is None else bans[holder]


# -- Receiving cards -------------------------------------------------------------------------


def receive_cards(
    order: Sequence[Player],
    wants: Mapping[Player, Sequence[Card]],
    pool: Sequence[Card],
    banned: Card | None,
) -> dict[Player, Card]:
    """Give each player, in pick order, the first card of their wants still available.

    A want-list that has run out (impossible with 3 to 6 players) gets the lowest remaining
    card in the default order.

    >>> receive_cards(["b", "a"], {"a": ["R1", "G1"], "b": ["R1", "B1"]}, ["R1", "G1", "B1"], None)
    {'b': 'R1', 'a': 'G1'}
    """
    available = [card for card in ascending(pool) if card != banned]
    received: dict[Player, Card] = {}
    for player in order:
        card = next((c for c in wants[player] if c in available), None)
        if card is None:
            card = available[0]
        available.remove(card)
        received[player] = card
    return received


# -- Results ---------------------------------------------------------------------------------


def tol_winner(scores: Mapping[Player, int]) -> Player | None:
    """Return the sole player with the top score, or ``None`` when the top is tied.

    >>> tol_winner({"a": 20, "b": 12}), tol_winner({"a": 20, "b": 20})
    ('a', None)
    """
    top = max(scores.values())
    leaders = [p for p, s in scores.items() if s == top]
    return leaders[0] if len(leaders) == 1 else None


def ec_players(scores: Mapping[Player, int]) -> list[Player]:
    """Return every player whose score is at most the second-lowest score.

    >>> ec_players({"a": 5, "b": 0, "c": 9, "d": 5})
    ['a', 'b', 'd']
    """
    second_lowest = sorted(scores.values())[1]
    return [p for p, s in scores.items() if s <= second_lowest]


def garnet_awards(scores: Mapping[Player, int]) -> dict[Player, int]:
    """Return the garnets earned: ToL 7, every other non-EC player 5, EC players 0.

    >>> garnet_awards({"a": 30, "b": 20, "c": 10, "d": 0})
    {'a': 7, 'b': 5, 'c': 0, 'd': 0}
    """
    tol = tol_winner(scores)
    ec = set(ec_players(scores))
    return {p: TOL_GARNETS if p == tol else 0 if p in ec else DODGE_GARNETS for p in scores}


# -- Validation helpers ----------------------------------------------------------------------


def _is_coloured_card(value: Any) -> bool:
    return isinstance(value, str) and value in DECK


def _pool_text(pool: Sequence[Card]) -> str:
    return ", ".join(pool)


class PickingNine(Rules):
    """Picking Nine Possibilities."""

    name = "picking-nine"
    display_name = "Picking Nine Possibilities"
    version = "1"
    disclosure = Disclosure.AT_END
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def options_schema(self) -> list[Option]:
        """Return the one option: the tie-break list, defaulting to the seat order."""
        return [
            Option(
                "tiebreak",
                OptionKind.NAMES,
                None,
                "the tie-break list, every player once, first place first; left out, the "
                "seat order",
                maximum=MAX_PLAYERS,
                filled=False,
            )
        ]

    def default_players(self, options: Mapping[str, Any]) -> list[str]:
        """Return the tie-break list when the options give one, else three stock names.

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        options = self.normalise_options(options)
        if options.get("tiebreak"):
            return list(options["tiebreak"])
        return super().default_players(options)

    def pick_fields(self, kind: str) -> list[PickField]:
        """Return the fields: the want-list, the ban and the priority number."""
        del kind
        return [
            PickField(
                "wants",
                FieldKind.TEXT_LIST,
                f"{WANTS} different cards of this round's pool, the most wanted first",
            ),
            PickField(
                "ban",
                FieldKind.TEXT,
                "a card of the pool to ban if your priority is the highest unique one",
                nullable=True,
            ),
            PickField(
                "priority",
                FieldKind.INTEGER,
                "your priority number, 1 to the number of players; unique low numbers pick first",
            ),
        ]

    # -- Set-up -------------------------------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Check the option names (the tie-break default depends on the players).

        :raises BadOptions: for an unknown option.
        """
        options = check_options_object(options, "picking-nine", ("tiebreak",))
        tiebreak = options.get("tiebreak", [])
        if not isinstance(tiebreak, list) or len(tiebreak) > MAX_PLAYERS:
            msg = "the tiebreak option must list every player exactly once"
            raise BadOptions(msg)
        return options

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before round 1.

        :raises BadOptions: for an unknown option, 3 > players > 6, a repeated or empty
            player name, or a tie-break list that is not a permutation of the players.
        """
        options = self.normalise_options(options)
        players = player_list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            msg = f"picking-nine needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
            raise BadOptions(msg)
        if not all(isinstance(p, str) and p for p in players):
            msg = "every player must be a non-empty name"
            raise BadOptions(msg)
        if len(set(players)) != len(players):
            msg = "the players must not repeat a name"
            raise BadOptions(msg)
        tiebreak = options.get("tiebreak", players)
        if (
            not isinstance(tiebreak, list)
            or len(tiebreak) != len(players)
            or not all(isinstance(p, str) for p in tiebreak)
            or sorted(tiebreak) != sorted(players)
        ):
            msg = "the tiebreak option must list every player exactly once"
            raise BadOptions(msg)
        return {
            "players": players,
            "tiebreak": list(tiebreak),
            "round": 0,
            "pool": [],
            "pool_round": 0,
            "dealt": [],
            "holdings": {p: [] for p in players},
            "banned": None,
            "finished": False,
        }

    def next_step(self, state: State) -> StepSpec | None:
        """One step per round, each dealing a pool; ``None`` after round 5."""
        if state["finished"]:
            return None
        return StepSpec(kind="round", submitters=tuple(state["players"]), needs_deal=True)

    # -- Deals --------------------------------------------------------------------------------

    @staticmethod
    def _check_not_dealt(state: State) -> None:
        if state["finished"]:
            msg = "the match has already finished"
            raise BadDeal(msg)
        if state["pool_round"] == state["round"] + 1:
            msg = "this round's pool has already been dealt"
            raise BadDeal(msg)

    def deal(self, state: State, rng: Rng) -> Deal:
        """Deal 8 coloured cards from the undealt ones (one ``rng.shuffle``).

        :raises BadDeal: when the round's pool has already been dealt.
        """
        self._check_not_dealt(state)
        return Deal(public={"pool": deal_pool(state["dealt"], rng)})

    def check_deal(self, state: State, deal: Mapping[str, Any]) -> Deal:
        """Validate an explicit ``{"pool": [8 coloured cards]}``.

        :raises BadDeal: for another shape, a card that is not coloured, a repeated card or
            a card dealt in an earlier round.
        """
        self._check_not_dealt(state)
        shape = 'a picking-nine deal is {"pool": [8 coloured cards]}'
        pool = check_object(deal, required=("pool",), shape=shape, error=BadDeal)["pool"]
        if not isinstance(pool, list) or len(pool) != POOL_SIZE:
            size = len(pool) if isinstance(pool, list) else "no list"
            msg = f"the pool must list exactly {POOL_SIZE} coloured cards, not {size}"
            raise BadDeal(msg)
        seen: list[Card] = []
        for card in pool:
            if card == GRAY_ZERO:
                msg = "the gray zero is added to the pool automatically; deal 8 coloured cards"
                raise BadDeal(msg)
            if not _is_coloured_card(card):
                msg = (
                    f"{describe(card)} is not a coloured card; the cards are R1-R10, G1-G10, "
                    "B1-B10 and Y1-Y10"
                )
                raise BadDeal(msg)
            if card in seen:
                msg = f"{card} is listed twice in the pool"
                raise BadDeal(msg)
            if card in state["dealt"]:
                msg = f"{card} was dealt in an earlier round and every card is dealt once"
                raise BadDeal(msg)
            seen.append(card)
        return Deal(public={"pool": ascending(pool)})

    def scenario_deal(self, deal: Deal) -> dict[str, Any] | None:
        """``{"pool": cards}``: the recorded pool as dealt.

        >>> RULES.scenario_deal(Deal(public={"pool": ["B1", "R2"]}))
        {'pool': ['B1', 'R2']}
        """
        return {"pool": dict(deal.public).get("pool")}

    def apply_deal(self, state: State, deal: Deal) -> State:
        """Open the round: its pool is the dealt cards plus the gray zero while untaken.

        :raises BadDeal: when the round's pool has already been dealt.
        """
        self._check_not_dealt(state)
        coloured = list(deal.public["pool"])
        new = clone(state)
        new["pool"] = round_pool(coloured, state["holdings"])
        new["pool_round"] = state["round"] + 1
        new["dealt"] = [*state["dealt"], *coloured]
        return new

    # -- Submissions --------------------------------------------------------------------------

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Validate ``{"wants": [7 cards], "ban": card, "priority": 1..N}``.

        :raises IllegalPick: for another shape, a card not in this round's pool, a repeated
            want, a want-list not of 7 cards, or a priority outside 1..N.
        """
        del player
        if state["finished"] or state["pool_round"] != state["round"] + 1:
            msg = "no pool is open for picks"
            raise IllegalPick(msg)
        pool: list[Card] = state["pool"]
        n = len(state["players"])
        shape = f'a pick is {{"wants": [{WANTS} cards], "ban": card or null, "priority": 1..{n}}}'
        payload = check_object(
            payload, required=("wants", "ban", "priority"), shape=shape, error=IllegalPick
        )
        wants = payload["wants"]
        if not isinstance(wants, list) or len(wants) != WANTS:
            size = len(wants) if isinstance(wants, list) else describe(wants)
            msg = (
                f"wants must list exactly {WANTS} cards of this round's pool, most wanted "
                f"first, not {size}"
            )
            raise IllegalPick(msg)
        seen: list[Card] = []
        for card in wants:
            if not isinstance(card, str) or card not in pool:
                msg = (
                    f"wants lists {describe(card)}, which is not in this round's pool "
                    f"({_pool_text(pool)})"
                )
                raise IllegalPick(msg)
            if card in seen:
                msg = f"wants lists {card} twice; list {WANTS} different cards"
                raise IllegalPick(msg)
            seen.append(card)
        ban = payload["ban"]
        if ban is not None and (not isinstance(ban, str) or ban not in pool):
            msg = (
                f"the ban {describe(ban)} is not a card of this round's pool "
                f"({_pool_text(pool)}); to ban nothing, send null"
            )
            raise IllegalPick(msg)
        priority = check_whole(payload["priority"], "the priority", 1, n, IllegalPick)
        return {"wants": list(wants), "ban": ban, "priority": priority}

    def default_pick(self, state: State, player: str) -> Payload:
        """Wants = the first 7 cards of the pool in the default order, no ban, priority N."""
        del player
        return default_submission(state["pool"], len(state["players"]))

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Every ordered want-list of the pool, then every ban, then every priority.

        Lazy: a pool of nine gives 181,440 want-lists, each with ten bans and N priorities.
        """
        del player
        if state["finished"] or state["pool_round"] != state["round"] + 1:
            return
        pool: list[Card] = state["pool"]
        priorities = range(1, len(state["players"]) + 1)
        for wants in permutations(pool, WANTS):
            for ban in (None, *pool):
                for priority in priorities:
                    yield {"wants": list(wants), "ban": ban, "priority": priority}

    def count_legal_picks(self, state: State, player: str) -> int:
        """Want-lists times bans (a pool card or none) times priorities, without generating."""
        del player
        if state["finished"] or state["pool_round"] != state["round"] + 1:
            return 0
        pool = len(state["pool"])
        return math.perm(pool, WANTS) * (pool + 1) * len(state["players"])

    # -- Resolution ---------------------------------------------------------------------------

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution:
        """Ban, then give every player a card in pick order, then update the tie-break list.

        :raises RulesError: when no pool is open or a player's pick is missing.
        """
        del decisions, rng
        if state["finished"] or state["pool_round"] != state["round"] + 1:
            msg = "no pool is open for picks"
            raise RulesError(msg)
        players: list[Player] = state["players"]
        missing = [p for p in players if p not in picks]
        if missing:
            msg = f"the pick of {describe(missing[0])} is missing"
            raise RulesError(msg)
        priorities = {p: picks[p]["priority"] for p in players}
        tiebreak: list[Player] = state["tiebreak"]

        order = pick_order(priorities, tiebreak)
        banned = effective_ban(priorities, {p: picks[p]["ban"] for p in players})
        got = receive_cards(order, {p: picks[p]["wants"] for p in players}, state["pool"], banned)
        new_tiebreak = update_tiebreak_list(tiebreak, tiebreak_winners(priorities, tiebreak))

        new = clone(state)
        for player in players:
            new["holdings"][player].append(got[player])
        new["round"] = state["round"] + 1
        new["banned"] = banned
        new["tiebreak"] = new_tiebreak
        new["finished"] = new["round"] == ROUNDS
        received = {p: got[p] for p in players}
        return Resolution(
            state=new,
            outcome={"received": received, "banned": banned, "tiebreak": list(new_tiebreak)},
        )

    # -- Views and results --------------------------------------------------------------------

    def scores(self, state: State) -> dict[Player, int]:
        """Each player's best Quattro score from their holdings."""
        return {p: best_quattro(state["holdings"][p]) for p in state["players"]}

    def public_view(self, state: State) -> dict[str, Any]:
        """round, pool, holdings, banned, tiebreak, finished, scores, tol, ec, garnets."""
        scores = self.scores(state)
        finished = bool(state["finished"])
        return {
            "round": state["round"],
            "pool": list(state["pool"]),
            "holdings": {p: list(state["holdings"][p]) for p in state["players"]},
            "banned": state["banned"],
            "tiebreak": list(state["tiebreak"]),
            "finished": finished,
            "scores": scores,
            "tol": tol_winner(scores) if finished else None,
            "ec": ec_players(scores) if finished else [],
            "garnets": garnet_awards(scores) if finished else dict.fromkeys(scores, 0),
        }

    def private_view(self, state: State, player: str) -> dict[str, Any]:
        """Nothing: holdings are public and the service keeps each player's own picks."""
        del state, player
        return {}

    def is_finished(self, state: State) -> bool:
        """The match ends after round 5."""
        return bool(state["finished"])

    def result(self, state: State) -> dict[str, Any]:
        """Scores, the ToL holder (or null), the EC players and the garnets earned."""
        scores = self.scores(state)
        return {
            "scores": scores,
            "tol": tol_winner(scores),
            "ec": ec_players(scores),
            "garnets": garnet_awards(scores),
        }

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A legal random pick: 7 wants from a shuffled pool, a random ban and priority.

        Draws, in order: ``rng.shuffled(pool)``, ``rng.choice(pool)``, ``rng.below(N)``.
        """
        del player
        pool: list[Card] = state["pool"]
        wants = rng.shuffled(pool)[:WANTS]
        ban = rng.choice(pool)
        priority = 1 + rng.below(len(state["players"]))
        return {"wants": wants, "ban": ban, "priority": priority}


RULES = PickingNine()
