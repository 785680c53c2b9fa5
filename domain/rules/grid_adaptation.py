"""Grid Adaptation, the team Game of Life (RULINGS.md section 4, seeds/grid-adaptation.md).

Every player holds a secret three-bit sequence. Each round everyone seals the cells they
place tiles on; the tiles carry their sequence, one Life step runs on the whole grid, and
every one of the eight sequences scores one point per matching bit on every tile. A
player's score is the sum of the round scores of the sequences they held. Placements,
flips, purchases, votes and who holds which sequence stay sealed until the match ends
(:attr:`Disclosure.AT_END`).

Wire format
-----------

* Cells: column letter ``A``-``O`` then row ``1``-``15``; ``A1`` is the top left cell and
  ``O15`` the bottom right one. Only that exact spelling is a cell (``h8``, ``H08``, ``P1``
  and ``A16`` are not).
* Grid text: 15 strings (row 1 first) of 15 characters, ``.`` for an empty cell or the
  tile's sequence as a digit ``0``-``7`` (the binary value of its bits, ``110`` → ``6``).
* Options: ``{"garnets": {player: n}}`` (default 0 each, ``n`` a whole number from 0 to
  1000), the garnets each player brings to spend on reserve tiles. Any other option is
  rejected. Players: 2 to 8.
* Steps: rounds 1 to 8 (kind ``round``, every player submits; round 1 deals), then,
  only when the lowest score is tied and someone won a ToL, one ``ec-vote`` step in which
  the ToL winners vote, in seat order.
* Deal (round 1): ``{"sequences": {player: "010", ...}}``, every player exactly once,
  unique three-bit strings. It is wholly private: ``Deal(public={}, private={player:
  {"sequence": "010"}})``.
* Round payload: ``{"tiles": [cells], "reserve": cell or null, "flip": 0|1|2 or null,
  "buy_reserves": n}``; a missing ``reserve``, ``flip`` or ``buy_reserves`` takes its
  default (null, null, 0). EC vote payload: ``{"vote": player}``.
* Public view: ``round`` (rounds played), ``grid`` (grid text), ``sequence_scores``
  (``{"000": n, ..., "111": n}``, cumulative), ``finished``; once finished also
  ``player_scores`` ({player: n}), ``tol`` (the ToL winners, seat order), ``ec`` (a player,
  or null) and ``garnets`` ({player: garnets earned in the match}).
* Private view: ``sequence`` (the one held now), ``reserves``, ``garnets_available`` and
  ``score`` (running); during the EC vote a voter also sees ``ec_candidates``.
* Round outcome: ``placed`` (cells that got a tile), ``collisions`` (cells chosen by two
  or more players), ``born``, ``vanished`` (cells, every list in reading order: row 1
  first, A to O), ``survived`` (how many tiles on the grid after placement survived) and
  ``round_scores`` (``{"000": n, ...}``). EC vote outcome: ``tally`` ({candidate: votes}),
  ``ec`` and ``decided_by``.

Rulings (RULINGS.md section 4) and the readings chosen where it is silent
---------------------------------------------------------------------------

* The grid has dead edges: a cell off the grid is never a neighbour (no torus).
* Fair randomness, in this order, is used for exactly two things:

  1. The random deal (round 1, the deal stream): the eight sequences ``000`` .. ``111``
     in ascending order are shuffled with ``rng.shuffle``; the i-th player in seat order
     takes the i-th sequence; the rest are unused.
  2. An EC tie nobody can vote on: ``rng.choice`` once over the tied candidates in seat
     order, in the resolution stream of the step that settles it (round 8 when nobody won
     a ToL, the ``ec-vote`` step when the vote and the voters' garnets tie).

  Nothing else draws, so a match with an explicit deal that never needs a random EC does
  not depend on the seed or the match id.
* Missing submission: no tiles, no reserve, no flip, no purchase. A missing EC vote
  abstains.
* Reading chosen: a submitted round payload holds exactly three tiles in round 1 and
  exactly one later; placing nothing is what a missing submission does.
* Rejected at submission (:class:`IllegalPick`): a payload that is not an object or has an
  unknown key; a cell that is not a cell name (off the grid); a cell that holds a tile at
  the start of the round; two of the player's own tiles (the reserve tile included) on
  one cell; the wrong number of tiles; a reserve tile when the player has none, counting
  the ones bought this round; a flip outside rounds 4 and 7 or other than 0, 1, 2; a
  purchase that is not a whole number from 0 to 8 or that the player cannot afford.
  Reading chosen: nobody can ever afford a ninth reserve tile (the first nine cost
  2 + 4 + ... + 512 = 1022 garnets, more than the 1000 the option allows), so a purchase
  above 8 is refused before any price is computed, and prices are a closed form
  (:func:`reserve_cost`): checking a purchase costs the same whatever number it names.
* Flip (rounds 4 and 7; the bit index from the left): applied first. Tiles already on the
  grid keep their bits, tiles placed this round carry the new sequence, and this round is
  scored with it. Two players may end up holding the same sequence.
* Reserve tiles: each player starts with 3 and may play at most one a round (the payload
  has room for one). Purchases come after flips and before placement, so a tile bought
  this round can be played at once. The first extra reserve a player buys costs 2
  garnets and each later one doubles (2, 4, 8, ... over the whole match; buying ``k`` at
  once pays the next ``k`` prices). Reading chosen: garnets available to spend are the
  ``garnets`` option minus what the player has spent; garnets earned in the match are
  only awarded at its end, so they cannot be spent in it. A player may buy reserve tiles
  without playing them.
* Placement: a cell chosen by exactly one player gets a tile with that player's sequence
  (as it stands after this round's flip). A cell chosen by two or more players gets no
  tile, and every tile chosen for it is spent (a reserve tile included).
* Life step, simultaneous, from the grid after placement: an empty cell with exactly three
  neighbours (8-neighbourhood) is born with the per-bit majority of those three; a tile
  (placed this round or earlier) survives with 2 or 3 neighbours, keeping its bits; every
  other tile vanishes.
* Scoring at the end of every round: for each tile and each of the eight sequences, one
  point per matching bit (tile ``110``, sequence ``100`` → 2); ``sequence_scores`` adds up
  every round for all eight sequences, held or not. A player's round score is the round
  score of the sequence they held that round (after a flip, the new one).
* Tokens of Life: a sole top scorer wins two ToLs; two or three tied for first win one
  each; four or more tied for first win none. ``tol`` lists the winners; :meth:`result`
  also gives ``tokens`` ({player: 1 or 2}).
* Elimination Candidate: the sole lowest scorer. When several tie for lowest and someone
  won a ToL, the ToL winners (in seat order) vote in an ``ec-vote`` step after round 8
  for one of the tied-lowest players (in seat order). Reading chosen: a ToL winner is
  tied lowest only when every player has the same score (then with 2 or 3 players every
  player is both voter and candidate), and a voter may vote for any candidate, themselves
  included. Reading chosen: the candidates are told privately to the voters
  (``ec_candidates`` in their private view); the public view says nothing until the end.
  Plurality wins; among the candidates tied on most votes, the one whose voters hold the
  most garnets wins, where a player holds the ``garnets`` option minus what they spent
  plus what they earned in the match (reading chosen); still tied → fair randomness over
  those still tied. With no vote at all every candidate ties on zero votes and zero
  garnets, so randomness decides.
* Reading chosen: when the lowest is tied and nobody won a ToL (four or more tied for
  first), the EC is drawn by fair randomness at the end of round 8; no vote step follows.
* Garnets earned: 1 at 200 points, +1 per further full 50 (199 → 0, 200 → 1, 249 → 1,
  250 → 2).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from itertools import permutations
from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    STOCK_NAMES,
    SUGGESTED_PLAYERS,
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
    is_whole,
    list_names,
    player_list,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from domain.fairrand import Rng

Cell = str  # "A1" .. "O15"
Bits = str  # a sequence or a tile's bits, "000" .. "111"
Tiles = dict[Cell, Bits]  # the tiles on the grid, by cell

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
ROUNDS = 8
FLIP_ROUNDS = (4, 7)
FIRST_ROUND_TILES = 3
LATER_ROUND_TILES = 1
START_RESERVES = 3
FIRST_RESERVE_PRICE = 2
MIN_PLAYERS = 2
MAX_PLAYERS = 8
SEQUENCES: tuple[Bits, ...] = tuple(format(i, "03b") for i in range(8))
GARNET_THRESHOLD = 200
GARNET_STEP = 50
MAX_SHARED_TOL = 3
BIRTH_NEIGHBOURS = 3
SURVIVAL_NEIGHBOURS = (2, 3)
MAX_GARNETS = 1000
"""The most garnets the ``garnets`` option gives a player."""
MAX_PURCHASE = (MAX_GARNETS + FIRST_RESERVE_PRICE).bit_length() - 2
"""The most reserve tiles anyone can ever buy: the first ``k`` cost ``2**(k+1) - 2``."""

PICK_KEYS = ("tiles", "reserve", "flip", "buy_reserves")
_CELL_RE = re.compile(r"([A-O])(1[0-5]|[1-9])")
_BITS_RE = re.compile(r"[01]{3}")
_PICK_SHAPE = (
    'a pick is {"tiles": [cells], "reserve": cell or null, "flip": 0, 1, 2 or null, '
    '"buy_reserves": n}'
)


# --- Cells and the grid -------------------------------------------------------------


def cell_name(column: int, row: int) -> Cell:
    """Return the name of the cell at 0-based ``column`` and ``row``.

    >>> cell_name(0, 0), cell_name(14, 14), cell_name(7, 7)
    ('A1', 'O15', 'H8')
    """
    return f"{COLUMNS[column]}{row + 1}"


def is_cell(value: object) -> bool:
    """Return whether ``value`` names a cell of the grid.

    >>> is_cell("O15"), is_cell("P1"), is_cell("A16"), is_cell("h8"), is_cell("A01")
    (True, False, False, False, False)
    """
    return isinstance(value, str) and _CELL_RE.fullmatch(value) is not None


def cell_position(cell: Cell) -> tuple[int, int]:
    """Return the 0-based ``(column, row)`` of a cell.

    >>> cell_position("A1"), cell_position("C12")
    ((0, 0), (2, 11))

    :raises ValueError: if ``cell`` is not a cell name.
    """
    match = _CELL_RE.fullmatch(cell) if isinstance(cell, str) else None
    if match is None:
        msg = f"{describe(cell)} is not a cell; cells are A1 to O15 (column A-O, row 1-15)"
        raise ValueError(msg)
    return COLUMNS.index(match[1]), int(match[2]) - 1


ALL_CELLS: tuple[Cell, ...] = tuple(
    cell_name(column, row) for row in range(SIZE) for column in range(SIZE)
)
_READING_INDEX = {cell: i for i, cell in enumerate(ALL_CELLS)}


def reading_order(cells: Iterable[Cell]) -> list[Cell]:
    """Return ``cells`` sorted in reading order: row 1 first, A to O within a row.

    >>> reading_order(["B2", "A2", "O1"])
    ['O1', 'A2', 'B2']
    """
    return sorted(cells, key=_READING_INDEX.__getitem__)


def _neighbour_cells(cell: Cell) -> tuple[Cell, ...]:
    column, row = cell_position(cell)
    return tuple(
        cell_name(column + dc, row + dr)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dc or dr) and 0 <= column + dc < SIZE and 0 <= row + dr < SIZE
    )


NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {cell: _neighbour_cells(cell) for cell in ALL_CELLS}
"""The cells around each cell; the edges are dead, so a corner has three."""


def grid_text(tiles: Mapping[Cell, Bits]) -> list[str]:
    """Return the grid text: 15 rows, ``.`` or the tile's bits as a digit 0-7.

    >>> grid_text({"A1": "110", "O15": "001"})[0][:3], grid_text({"O15": "001"})[14][-1]
    ('6..', '1')
    """
    return [
        "".join(
            str(int(tiles[cell], 2)) if (cell := cell_name(column, row)) in tiles else "."
            for column in range(SIZE)
        )
        for row in range(SIZE)
    ]


def tiles_from_grid_text(rows: Sequence[str]) -> Tiles:
    """Return the tiles of a grid text (the inverse of :func:`grid_text`).

    >>> tiles_from_grid_text(["6" + "." * 14] + ["." * 15] * 14)
    {'A1': '110'}

    :raises ValueError: if ``rows`` is not 15 rows of 15 characters ``.`` or ``0``-``7``.
    """
    if len(rows) != SIZE or any(len(line) != SIZE or set(line) - set(".01234567") for line in rows):
        msg = "a grid text is 15 rows of 15 characters, each '.' or a digit 0-7"
        raise ValueError(msg)
    return {
        cell_name(column, row): format(int(char), "03b")
        for row, line in enumerate(rows)
        for column, char in enumerate(line)
        if char != "."
    }


# --- Sequences ----------------------------------------------------------------------


def deal_sequences(players: Sequence[str], rng: Rng) -> dict[str, Bits]:
    """Deal each player a unique sequence from fair randomness.

    The eight sequences ``000`` .. ``111`` in ascending order are shuffled with
    ``rng.shuffle``; the i-th player in seat order takes the i-th one.
    """
    sequences = list(SEQUENCES)
    rng.shuffle(sequences)
    return dict(zip(players, sequences, strict=False))


def flip_bit(sequence: Bits, bit: int) -> Bits:
    """Return ``sequence`` with the bit at index ``bit`` (from the left) flipped.

    >>> flip_bit("010", 0), flip_bit("010", 1), flip_bit("010", 2)
    ('110', '000', '011')
    """
    flipped = "1" if sequence[bit] == "0" else "0"
    return sequence[:bit] + flipped + sequence[bit + 1 :]


# --- Reserve tiles and garnets ------------------------------------------------------


def reserve_price(bought: int) -> int:
    """Return the price of a player's next extra reserve tile after ``bought`` of them.

    >>> [reserve_price(n) for n in range(4)]
    [2, 4, 8, 16]
    """
    return FIRST_RESERVE_PRICE << bought


def reserve_cost(bought: int, count: int) -> int:
    """Return what ``count`` more reserve tiles cost a player who bought ``bought``.

    The prices double from 2, so the first ``n`` cost ``2**(n+1) - 2`` and the next
    ``count`` after ``bought`` cost ``2**(bought+count+1) - 2**(bought+1)`` (no loop).
    Callers bound ``count`` (:data:`MAX_PURCHASE`) before asking.

    >>> reserve_cost(0, 1), reserve_cost(0, 3), reserve_cost(2, 2), reserve_cost(5, 0)
    (2, 14, 24, 0)
    """
    return (FIRST_RESERVE_PRICE << (bought + count)) - (FIRST_RESERVE_PRICE << bought)


# --- Placement ----------------------------------------------------------------------


def place_tiles(
    tiles: Mapping[Cell, Bits], claims: Mapping[str, Sequence[Cell]], sequences: Mapping[str, Bits]
) -> tuple[Tiles, list[Cell], list[Cell]]:
    """Place every player's chosen cells; a cell chosen by two or more gets no tile.

    Returns the grid after placement, the cells that got a tile and the collision cells
    (both in reading order).

    >>> grid, placed, collisions = place_tiles(
    ...     {}, {"ana": ["A1", "B1"], "ben": ["B1"]}, {"ana": "111", "ben": "000"})
    >>> grid, placed, collisions
    ({'A1': '111'}, ['A1'], ['B1'])
    """
    claimants: dict[Cell, list[str]] = {}
    for player, cells in claims.items():
        for cell in cells:
            claimants.setdefault(cell, []).append(player)
    placed = reading_order(c for c, who in claimants.items() if len(who) == 1)
    collisions = reading_order(c for c, who in claimants.items() if len(who) > 1)
    after = dict(tiles)
    for cell in placed:
        after[cell] = sequences[claimants[cell][0]]
    return after, placed, collisions


# --- The Life step ------------------------------------------------------------------


def majority(bits: Sequence[Bits]) -> Bits:
    """Return the per-bit majority of three tiles' bits.

    >>> majority(["110", "100", "011"])
    '110'
    """
    return "".join("1" if sum(b[i] == "1" for b in bits) * 2 > len(bits) else "0" for i in range(3))


def life_step(tiles: Mapping[Cell, Bits]) -> Tiles:
    """Return the grid after one simultaneous Life step.

    An empty cell with exactly three neighbouring tiles is born with their per-bit
    majority; a tile with two or three neighbours survives with its bits; every other
    tile vanishes. The edges are dead.

    >>> life_step({"A1": "111", "B1": "100", "A2": "001"})
    {'A1': '111', 'B1': '100', 'A2': '001', 'B2': '101'}
    """
    after: Tiles = {}
    for cell in ALL_CELLS:
        around = [tiles[n] for n in NEIGHBOURS[cell] if n in tiles]
        if cell in tiles:
            if len(around) in SURVIVAL_NEIGHBOURS:
                after[cell] = tiles[cell]
        elif len(around) == BIRTH_NEIGHBOURS:
            after[cell] = majority(around)
    return after


# --- Scoring ------------------------------------------------------------------------


def tile_points(tile: Bits, sequence: Bits) -> int:
    """Return the points a tile gives a sequence: one per matching bit.

    >>> tile_points("110", "100")
    2
    """
    return sum(a == b for a, b in zip(tile, sequence, strict=True))


def score_sequences(tiles: Mapping[Cell, Bits]) -> dict[Bits, int]:
    """Return each of the eight sequences' points from the tiles on the grid.

    >>> score_sequences({"A1": "110"})["100"], score_sequences({})["000"]
    (2, 0)
    """
    return {s: sum(tile_points(t, s) for t in tiles.values()) for s in SEQUENCES}


# --- Results ------------------------------------------------------------------------


def tokens_of_life(scores: Mapping[str, int], players: Sequence[str]) -> dict[str, int]:
    """Return the Tokens of Life won: 2 for a sole top scorer, 1 each for 2-3 tied, else none.

    >>> tokens_of_life({"a": 5, "b": 3}, ["a", "b"])
    {'a': 2}
    >>> tokens_of_life({"a": 5, "b": 5, "c": 1}, ["a", "b", "c"])
    {'a': 1, 'b': 1}
    """
    top = max(scores[p] for p in players)
    first = [p for p in players if scores[p] == top]
    if len(first) == 1:
        return {first[0]: 2}
    if len(first) <= MAX_SHARED_TOL:
        return dict.fromkeys(first, 1)
    return {}


def lowest_scorers(scores: Mapping[str, int], players: Sequence[str]) -> list[str]:
    """Return every player with the fewest points, in seat order.

    >>> lowest_scorers({"a": 1, "b": 3, "c": 1}, ["a", "b", "c"])
    ['a', 'c']
    """
    low = min(scores[p] for p in players)
    return [p for p in players if scores[p] == low]


def garnets_earned(score: int) -> int:
    """Return the garnets a final score earns: 1 at 200 points, +1 per further 50.

    >>> [garnets_earned(s) for s in (199, 200, 249, 250, 300)]
    [0, 1, 1, 2, 3]
    """
    if score < GARNET_THRESHOLD:
        return 0
    return 1 + (score - GARNET_THRESHOLD) // GARNET_STEP


def settle_ec_vote(
    votes: Mapping[str, str | None],
    candidates: Sequence[str],
    holdings: Mapping[str, int],
    rng: Rng,
) -> tuple[str, dict[str, int], str]:
    """Settle the EC vote: plurality, then the voters' garnets, then fair randomness.

    ``votes`` maps each voter to a candidate or ``None`` (abstained); ``holdings`` maps
    each voter to the garnets they hold. Returns the EC, the tally and what decided it
    (``"vote"``, ``"voters-garnets"`` or ``"random"``). Randomness is one ``rng.choice``
    over the still-tied candidates in candidate (seat) order.
    """
    tally = dict.fromkeys(candidates, 0)
    backing = dict.fromkeys(candidates, 0)
    for voter, choice in votes.items():
        if choice is not None:
            tally[choice] += 1
            backing[choice] += holdings[voter]
    most = max(tally.values())
    tied = [c for c in candidates if tally[c] == most]
    if len(tied) == 1:
        return tied[0], tally, "vote"
    richest = max(backing[c] for c in tied)
    tied = [c for c in tied if backing[c] == richest]
    if len(tied) == 1:
        return tied[0], tally, "voters-garnets"
    return rng.choice(tied), tally, "random"


# --- Validation helpers -------------------------------------------------------------


def _check_players(players: Sequence[str]) -> list[str]:
    players = player_list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        msg = f"grid-adaptation takes 2 to 8 players, not {len(players)}"
        raise BadOptions(msg)
    if not all(isinstance(p, str) and p for p in players):
        msg = "players must be non-empty names"
        raise BadOptions(msg)
    if len(set(players)) != len(players):
        msg = "players must not repeat a name"
        raise BadOptions(msg)
    return players


def _check_cell(cell: object, what: str = "") -> Cell:
    if not is_cell(cell):
        msg = f"{what}{describe(cell)} is not a cell; cells are A1 to O15 (column A-O, row 1-15)"
        raise IllegalPick(msg)
    return str(cell)


class GridAdaptation(Rules):
    """Grid Adaptation: eight rounds of sealed placements and one Life step each."""

    name = "grid-adaptation"
    display_name = "Grid Adaptation"
    version = "1"
    disclosure = Disclosure.AT_END
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_is_legal = False  # no tile placed (or, in the EC vote, an abstention)

    def options_schema(self) -> list[Option]:
        """Return the one option: the garnets each player brings."""
        return [
            Option(
                "garnets",
                OptionKind.PER_PLAYER_INTEGER,
                {},
                "the garnets each player brings to buy reserve tiles with; left out, none",
                minimum=0,
                maximum=MAX_GARNETS,
            )
        ]

    def default_players(self, options: Mapping[str, Any]) -> list[str]:
        """Return the players the garnets name, then stock names, at least three.

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        named = list(self.normalise_options(options)["garnets"])
        count = min(max(len(named), SUGGESTED_PLAYERS), MAX_PLAYERS)
        return [*named, *(name for name in STOCK_NAMES if name not in named)][:count]

    def pick_fields(self, kind: str) -> list[PickField]:
        """Return a round's tiles, reserve tile, flip and purchase; or the EC vote."""
        if kind == "ec-vote":
            return [PickField("vote", FieldKind.TEXT, "the player tied lowest you vote EC")]
        return [
            PickField(
                "tiles",
                FieldKind.TEXT_LIST,
                "the empty cells you place tiles on: 3 in round 1, 1 in every later round",
            ),
            PickField(
                "reserve",
                FieldKind.TEXT,
                "an empty cell for one of your reserve tiles",
                required=False,
                nullable=True,
            ),
            PickField(
                "flip",
                FieldKind.INTEGER,
                "in rounds 4 and 7, the bit of your sequence to flip, 0 to 2 from the left",
                required=False,
                nullable=True,
            ),
            PickField(
                "buy_reserves",
                FieldKind.INTEGER,
                "how many reserve tiles to buy with garnets (2, then each one doubles)",
                required=False,
            ),
        ]

    # --- Options and set-up ---------------------------------------------------------

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options with ``garnets`` filled in (``{}``: 0 for everyone).

        :raises BadOptions: for an unknown option or a ``garnets`` value that is not a map
            from names to whole numbers >= 0.
        """
        options = check_options_object(options, "grid-adaptation", ("garnets",))
        garnets = options.get("garnets", {})
        if not isinstance(garnets, dict) or len(garnets) > MAX_PLAYERS:
            msg = (
                f"garnets maps each player to a whole number of garnets from 0 to {MAX_GARNETS}, "
                f"for at most {MAX_PLAYERS} players"
            )
            raise BadOptions(msg)
        for player, count in garnets.items():
            check_whole(count, f"the garnets of {describe(player)}", 0, MAX_GARNETS, BadOptions)
        return {"garnets": dict(garnets)}

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before round 1: an empty grid, three reserve tiles each.

        :raises BadOptions: for an unknown option, bad garnets, garnets for a non-player,
            or fewer than 2 or more than 8 players.
        """
        options = self.normalise_options(options)
        players = _check_players(players)
        strangers = [p for p in options["garnets"] if p not in players]
        if strangers:
            msg = f"garnets names {describe(strangers[0])}, who is not a player of the match"
            raise BadOptions(msg)
        zero = dict.fromkeys(players, 0)
        return {
            "players": players,
            "garnets": {p: options["garnets"].get(p, 0) for p in players},
            "phase": "rounds",
            "round": 0,
            "tiles": {},
            "sequences": {},
            "held": {p: [] for p in players},
            "reserves": dict.fromkeys(players, START_RESERVES),
            "bought": dict(zero),
            "spent": dict(zero),
            "sequence_scores": dict.fromkeys(SEQUENCES, 0),
            "scores": dict(zero),
            "tokens": {},
            "tol": [],
            "earned": {},
            "ec": None,
            "ec_by": None,
            "ec_candidates": [],
            "ec_voters": [],
            "ec_votes": {},
            "ec_tally": {},
        }

    # --- Steps ----------------------------------------------------------------------

    def next_step(self, state: State) -> StepSpec | None:
        """Rounds 1 to 8 (round 1 deals), then the EC vote when one is needed."""
        players = tuple(state["players"])
        if state["phase"] == "rounds":
            return StepSpec(kind="round", submitters=players, needs_deal=state["round"] == 0)
        if state["phase"] == "ec-vote":
            return StepSpec(kind="ec-vote", submitters=tuple(state["ec_voters"]))
        return None

    # --- The deal -------------------------------------------------------------------

    def deal(self, state: State, rng: Rng) -> Deal:
        """Deal each player a unique sequence (see :func:`deal_sequences`)."""
        sequences = deal_sequences(state["players"], rng)
        return Deal(private={p: {"sequence": s} for p, s in sequences.items()})

    def check_deal(self, state: State, deal: Mapping[str, Any]) -> Deal:
        """Validate ``{"sequences": {player: "010", ...}}``.

        :raises BadDeal: unless every player gets exactly one unique three-bit sequence.
        """
        if state["round"] != 0 or state["phase"] != "rounds":
            msg = "only round 1 deals the sequences"
            raise BadDeal(msg)
        if not isinstance(deal, dict) or set(deal) != {"sequences"}:
            msg = 'a grid-adaptation deal is {"sequences": {player: "010", ...}}'
            raise BadDeal(msg)
        sequences = deal["sequences"]
        if not isinstance(sequences, dict):
            msg = 'sequences maps each player to a three-bit string such as "010"'
            raise BadDeal(msg)
        for player in sequences:
            if player not in state["players"]:
                msg = f"the deal gives a sequence to {describe(player)}, who is not a player"
                raise BadDeal(msg)
        for player in state["players"]:
            if player not in sequences:
                msg = f"the deal gives no sequence to {describe(player)}; every player gets one"
                raise BadDeal(msg)
            bits = sequences[player]
            if not isinstance(bits, str) or _BITS_RE.fullmatch(bits) is None:
                msg = (
                    f"the sequence of {describe(player)}, {describe(bits)}, is not three bits "
                    'such as "010"'
                )
                raise BadDeal(msg)
        values = [sequences[p] for p in state["players"]]
        repeated = sorted({s for s in values if values.count(s) > 1})
        if repeated:
            msg = f"sequence {repeated[0]} is dealt twice; every player's sequence is unique"
            raise BadDeal(msg)
        return Deal(private={p: {"sequence": sequences[p]} for p in state["players"]})

    def scenario_deal(self, deal: Deal) -> dict[str, Any] | None:
        """``{"sequences": {player: bits}}``: each player's recorded sequence.

        >>> RULES.scenario_deal(Deal(private={"ana": {"sequence": "010"}}))
        {'sequences': {'ana': '010'}}
        """
        private = dict(deal.private)
        return {
            "sequences": {
                p: v.get("sequence") if isinstance(v, dict) else v for p, v in private.items()
            }
        }

    def apply_deal(self, state: State, deal: Deal) -> State:
        """Give each player their sequence."""
        new = clone(state)
        new["sequences"] = {p: deal.private[p]["sequence"] for p in state["players"]}
        return new

    # --- Submissions ----------------------------------------------------------------

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """Validate a round pick or an EC vote and return it normalised.

        :raises IllegalPick: for every case listed in the module docstring.
        """
        if state["phase"] == "rounds":
            if player not in state["players"]:
                msg = f"{describe(player)} is not a player of this match"
                raise IllegalPick(msg)
            return self._check_round_pick(state, player, payload)
        if state["phase"] == "ec-vote":
            if player not in state["ec_voters"]:
                msg = f"{describe(player)} has no vote: only the ToL winners vote for the EC"
                raise IllegalPick(msg)
            return self._check_vote(state, player, payload)
        msg = "the match has finished; nothing more is submitted"
        raise IllegalPick(msg)

    def _check_round_pick(self, state: State, player: str, payload: JSON) -> Payload:
        payload = check_object(
            payload, required=(), optional=PICK_KEYS, shape=_PICK_SHAPE, error=IllegalPick
        )
        number = state["round"] + 1
        tiles = self._check_tiles(state, payload.get("tiles", []), number)
        buy = self._check_buy(state, player, payload.get("buy_reserves", 0))
        reserve = self._check_reserve(state, player, payload.get("reserve"), tiles, buy)
        flip = self._check_flip(payload.get("flip"), number)
        return {"tiles": tiles, "reserve": reserve, "flip": flip, "buy_reserves": buy}

    @staticmethod
    def _check_free_cell(
        state: State, cell: object, chosen: Sequence[Cell], what: str = ""
    ) -> Cell:
        name = _check_cell(cell, what)
        if name in state["tiles"]:
            msg = f"cell {name} already holds a tile; choose an empty cell"
            raise IllegalPick(msg)
        if name in chosen:
            msg = f"cell {name} is chosen twice; each of your tiles needs its own cell"
            raise IllegalPick(msg)
        return name

    def _check_tiles(self, state: State, tiles: object, number: int) -> list[Cell]:
        wanted = FIRST_ROUND_TILES if number == 1 else LATER_ROUND_TILES
        count = f"exactly {wanted} tile" + ("s" if wanted > 1 else "")
        if not isinstance(tiles, list):
            msg = f"tiles is a list of cells: this round takes {count}, not {describe(tiles)}"
            raise IllegalPick(msg)
        if len(tiles) != wanted:
            msg = (
                f"this round takes {count} in tiles, not {len(tiles)} "
                "(round 1 takes 3, every later round 1)"
            )
            raise IllegalPick(msg)
        chosen: list[Cell] = []
        for cell in tiles:
            chosen.append(self._check_free_cell(state, cell, chosen))
        return chosen

    @staticmethod
    def _check_buy(state: State, player: str, buy: object) -> int:
        # Bounded before any price is computed: nobody can ever afford more than
        # MAX_PURCHASE tiles, and the price of n tiles is a closed form.
        if not is_whole(buy) or not 0 <= buy <= MAX_PURCHASE:
            msg = (
                f"buy_reserves is a whole number of reserve tiles from 0 to {MAX_PURCHASE}, "
                f"not {describe(buy)}"
            )
            raise IllegalPick(msg)
        count = buy
        cost = reserve_cost(state["bought"][player], count)
        available = state["garnets"][player] - state["spent"][player]
        if cost > available:
            tiles = "tile costs" if count == 1 else "tiles cost"
            msg = f"{count} extra reserve {tiles} {cost} garnets but you have {available}"
            raise IllegalPick(msg)
        return count

    def _check_reserve(
        self, state: State, player: str, reserve: object, tiles: list[Cell], buy: int
    ) -> Cell | None:
        if reserve is None:
            return None
        cell = self._check_free_cell(state, reserve, tiles, "the reserve ")
        if state["reserves"][player] + buy < 1:
            msg = "you have no reserve tile left; buy one with buy_reserves or set reserve to null"
            raise IllegalPick(msg)
        return cell

    @staticmethod
    def _check_flip(flip: object, number: int) -> int | None:
        if flip is None:
            return None
        if not is_whole(flip) or flip not in (0, 1, 2):
            msg = f"flip is the bit index 0, 1 or 2 (from the left) or null, not {describe(flip)}"
            raise IllegalPick(msg)
        if number not in FLIP_ROUNDS:
            msg = f"a flip is allowed only in rounds 4 and 7, not in round {number}"
            raise IllegalPick(msg)
        return flip

    @staticmethod
    def _check_vote(state: State, player: str, payload: JSON) -> Payload:
        del player
        candidates = state["ec_candidates"]
        shape = f'an EC vote is {{"vote": player}} naming one of {list_names(candidates)}'
        payload = check_object(payload, required=("vote",), shape=shape, error=IllegalPick)
        if not isinstance(payload["vote"], str) or payload["vote"] not in candidates:
            msg = (
                f"{describe(payload['vote'])} is not tied for the fewest points; "
                f"vote for one of {list_names(candidates)} (to abstain, submit nothing)"
            )
            raise IllegalPick(msg)
        return {"vote": payload["vote"]}

    def default_pick(self, state: State, player: str) -> Payload:
        """No tiles, no reserve, no flip, no purchase; in the EC vote, abstain."""
        del player
        if state["phase"] == "ec-vote":
            return {"vote": None}
        return {"tiles": [], "reserve": None, "flip": None, "buy_reserves": 0}

    # --- Legal picks ----------------------------------------------------------------

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Every round pick (ordered tiles, then purchase, reserve, flip) or EC vote, lazily.

        Round 1 alone has 225 x 224 x 223 ordered tile triples, so nothing is listed.
        """
        if state["phase"] == "ec-vote" and player in state["ec_voters"]:
            yield from ({"vote": candidate} for candidate in state["ec_candidates"])
        if state["phase"] != "rounds" or player not in state["players"]:
            return
        empty, wanted, flips, buys = self._pick_space(state, player)
        for tiles in permutations(empty, wanted):
            for buy in buys:
                reserves: list[Cell | None] = [None]
                if state["reserves"][player] + buy >= 1:
                    reserves += [cell for cell in empty if cell not in tiles]
                for reserve in reserves:
                    for flip in flips:
                        yield {
                            "tiles": list(tiles),
                            "reserve": reserve,
                            "flip": flip,
                            "buy_reserves": buy,
                        }

    def count_legal_picks(self, state: State, player: str) -> int:
        """Count the picks :meth:`generate_legal_picks` yields, by a closed form."""
        if state["phase"] == "ec-vote" and player in state["ec_voters"]:
            return len(state["ec_candidates"])
        if state["phase"] != "rounds" or player not in state["players"]:
            return 0
        empty, wanted, flips, buys = self._pick_space(state, player)
        free = len(empty) - wanted  # cells left for the reserve tile
        reserves = sum(1 + (free if state["reserves"][player] + buy >= 1 else 0) for buy in buys)
        return math.perm(len(empty), wanted) * reserves * len(flips)

    @staticmethod
    def _pick_space(
        state: State, player: str
    ) -> tuple[list[Cell], int, tuple[int | None, ...], list[int]]:
        """Return the empty cells, the tiles wanted, the flips and the affordable buys."""
        number = state["round"] + 1
        empty = [cell for cell in ALL_CELLS if cell not in state["tiles"]]
        wanted = FIRST_ROUND_TILES if number == 1 else LATER_ROUND_TILES
        flips: tuple[int | None, ...] = (None, 0, 1, 2) if number in FLIP_ROUNDS else (None,)
        available = state["garnets"][player] - state["spent"][player]
        bought = state["bought"][player]
        buys = [n for n in range(MAX_PURCHASE + 1) if reserve_cost(bought, n) <= available]
        return empty, wanted, flips, buys

    # --- Resolution -----------------------------------------------------------------

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution:
        """Resolve a round (flips, purchases, placement, Life step, scoring) or the EC vote.

        :raises RulesError: when the match has already finished.
        """
        del decisions
        if state["phase"] == "rounds":
            return self._resolve_round(state, picks, rng)
        if state["phase"] == "ec-vote":
            return self._resolve_ec_vote(state, picks, rng)
        msg = "the match has already finished"
        raise RulesError(msg)

    def _resolve_round(self, state: State, picks: Mapping[str, Payload], rng: Rng) -> Resolution:
        new = clone(state)
        players = new["players"]
        default: Payload = {"tiles": [], "reserve": None, "flip": None, "buy_reserves": 0}
        picks = {p: {**default, **picks.get(p, {})} for p in players}
        # 1. Flips, before everything else.
        for p in players:
            if picks[p]["flip"] is not None:
                new["sequences"][p] = flip_bit(new["sequences"][p], picks[p]["flip"])
        # 2. Purchases of reserve tiles.
        for p in players:
            buy = picks[p]["buy_reserves"]
            new["spent"][p] += reserve_cost(new["bought"][p], buy)
            new["bought"][p] += buy
            new["reserves"][p] += buy
        # 3. Placement; a played reserve tile is spent even on a collision.
        claims: dict[str, list[Cell]] = {}
        for p in players:
            claims[p] = list(picks[p]["tiles"])
            if picks[p]["reserve"] is not None:
                claims[p].append(picks[p]["reserve"])
                new["reserves"][p] -= 1
        placed_grid, placed, collisions = place_tiles(new["tiles"], claims, new["sequences"])
        # 4. One Life step from the grid after placement.
        after = life_step(placed_grid)
        born = reading_order(c for c in after if c not in placed_grid)
        vanished = reading_order(c for c in placed_grid if c not in after)
        survived = sum(1 for c in placed_grid if c in after)
        # 5. Scoring.
        round_scores = score_sequences(after)
        for s in SEQUENCES:
            new["sequence_scores"][s] += round_scores[s]
        for p in players:
            held = new["sequences"][p]
            new["held"][p].append(held)
            new["scores"][p] += round_scores[held]
        new["tiles"] = after
        new["round"] += 1
        if new["round"] == ROUNDS:
            new = self._award_results(new, rng)
        outcome = {
            "placed": placed,
            "collisions": collisions,
            "born": born,
            "survived": survived,
            "vanished": vanished,
            "round_scores": round_scores,
        }
        return Resolution(state=new, outcome=outcome)

    @staticmethod
    def _award_results(state: State, rng: Rng) -> State:
        """Award ToLs and garnets after round 8 and name the EC, or call the EC vote."""
        players, scores = state["players"], state["scores"]
        state["tokens"] = tokens_of_life(scores, players)
        state["tol"] = [p for p in players if p in state["tokens"]]
        state["earned"] = {p: garnets_earned(scores[p]) for p in players}
        lowest = lowest_scorers(scores, players)
        if len(lowest) == 1:
            state["ec"], state["ec_by"], state["phase"] = lowest[0], "fewest-points", "finished"
        elif state["tol"]:
            state["ec_candidates"], state["ec_voters"] = lowest, list(state["tol"])
            state["phase"] = "ec-vote"
        else:
            state["ec"], state["ec_by"], state["phase"] = rng.choice(lowest), "random", "finished"
        return state

    def _holdings(self, state: State, player: str) -> int:
        return int(state["garnets"][player] - state["spent"][player] + state["earned"][player])

    def _resolve_ec_vote(self, state: State, picks: Mapping[str, Payload], rng: Rng) -> Resolution:
        new = clone(state)
        votes = {v: picks.get(v, {}).get("vote") for v in new["ec_voters"]}
        holdings = {v: self._holdings(new, v) for v in new["ec_voters"]}
        ec, tally, decided_by = settle_ec_vote(votes, new["ec_candidates"], holdings, rng)
        new.update(ec=ec, ec_by=decided_by, ec_votes=votes, ec_tally=tally, phase="finished")
        return Resolution(state=new, outcome={"tally": tally, "ec": ec, "decided_by": decided_by})

    # --- Views ----------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        """Round, grid, sequence scores, finished; once finished the results too."""
        view: dict[str, Any] = {
            "round": state["round"],
            "grid": grid_text(state["tiles"]),
            "sequence_scores": dict(state["sequence_scores"]),
            "finished": state["phase"] == "finished",
        }
        if view["finished"]:
            view.update(
                player_scores=dict(state["scores"]),
                tol=list(state["tol"]),
                ec=state["ec"],
                garnets=dict(state["earned"]),
            )
        return view

    def private_view(self, state: State, player: str) -> dict[str, Any]:
        """The player's sequence, reserve tiles, spendable garnets and running score."""
        if player not in state["players"]:
            return {}
        view = {
            "sequence": state["sequences"].get(player),
            "reserves": state["reserves"][player],
            "garnets_available": state["garnets"][player] - state["spent"][player],
            "score": state["scores"][player],
        }
        if state["phase"] == "ec-vote" and player in state["ec_voters"]:
            view["ec_candidates"] = list(state["ec_candidates"])
        return view

    def is_finished(self, state: State) -> bool:
        """Whether round 8 and any EC vote are over."""
        return bool(state["phase"] == "finished")

    def result(self, state: State) -> dict[str, Any]:
        """Scores, ToLs (and tokens), EC (and what decided it), garnets, sequences held."""
        return {
            "player_scores": dict(state["scores"]),
            "tol": list(state["tol"]),
            "tokens": dict(state["tokens"]),
            "ec": state["ec"],
            "ec_by": state["ec_by"],
            "ec_tally": dict(state["ec_tally"]),
            "ec_votes": dict(state["ec_votes"]),
            "garnets": dict(state["earned"]),
            "sequences_held": {p: list(h) for p, h in state["held"].items()},
        }

    # --- Bots -----------------------------------------------------------------------

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """A legal pick: tiles next to the action, sometimes a reserve, flip or purchase.

        In round 1 the three tiles go in a random 3x3 block; later the tile goes on a
        random empty cell with 1 to 3 neighbouring tiles (any empty cell if none). In the
        EC vote, a uniformly drawn candidate.
        """
        if state["phase"] == "ec-vote":
            return {"vote": rng.choice(state["ec_candidates"])}
        if state["phase"] != "rounds":
            return self.default_pick(state, player)
        number = state["round"] + 1
        tiles_now = state["tiles"]
        empty = [c for c in ALL_CELLS if c not in tiles_now]
        if number == 1:
            centre = cell_name(1 + rng.below(SIZE - 2), 1 + rng.below(SIZE - 2))
            block = [centre, *NEIGHBOURS[centre]]
            tiles = reading_order(rng.shuffled(block)[:FIRST_ROUND_TILES])
        else:
            lively = [
                c
                for c in empty
                if 1 <= sum(n in tiles_now for n in NEIGHBOURS[c]) <= BIRTH_NEIGHBOURS
            ]
            tiles = [rng.choice(lively or empty)]
        buy = 0
        if rng.below(3) == 0:
            available = state["garnets"][player] - state["spent"][player]
            if reserve_cost(state["bought"][player], 1) <= available:
                buy = 1
        reserve = None
        if state["reserves"][player] + buy > 0 and rng.below(2) == 0:
            reserve = rng.choice([c for c in empty if c not in tiles])
        flip = None
        if number in FLIP_ROUNDS:
            draw = rng.below(4)  # 0, 1, 2: flip that bit; 3: no flip
            flip = draw if draw < len(SEQUENCES[0]) else None
        return {"tiles": tiles, "reserve": reserve, "flip": flip, "buy_reserves": buy}


RULES = GridAdaptation()
