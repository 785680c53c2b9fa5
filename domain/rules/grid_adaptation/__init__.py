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
* Private view: ``sequence`` (the one held now), ``reserves``, ``garnets_available``,
  ``reserves_bought`` (extra reserve tiles bought so far, which sets the next one's price)
  and ``score`` (running); during the EC vote a voter also sees ``ec_candidates``.
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

from domain.rules.grid_adaptation.grid import (
    ALL_CELLS,
    BIRTH_NEIGHBOURS,
    COLUMNS,
    NEIGHBOURS,
    SIZE,
    SURVIVAL_NEIGHBOURS,
    Bits,
    Cell,
    Tiles,
    cell_name,
    cell_position,
    grid_text,
    is_cell,
    life_step,
    majority,
    place_tiles,
    reading_order,
    tiles_from_grid_text,
)
from domain.rules.grid_adaptation.picks import (
    FIRST_ROUND_TILES,
    FLIP_ROUNDS,
    LATER_ROUND_TILES,
    PICK_KEYS,
)
from domain.rules.grid_adaptation.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    RULES,
    START_RESERVES,
    GridAdaptation,
)
from domain.rules.grid_adaptation.scoring import (
    FIRST_RESERVE_PRICE,
    GARNET_STEP,
    GARNET_THRESHOLD,
    MAX_GARNETS,
    MAX_PURCHASE,
    MAX_SHARED_TOL,
    SEQUENCES,
    deal_sequences,
    flip_bit,
    garnets_earned,
    lowest_scorers,
    reserve_cost,
    reserve_price,
    score_sequences,
    settle_ec_vote,
    tile_points,
    tokens_of_life,
)

__all__ = [
    "ALL_CELLS",
    "BIRTH_NEIGHBOURS",
    "COLUMNS",
    "FIRST_RESERVE_PRICE",
    "FIRST_ROUND_TILES",
    "FLIP_ROUNDS",
    "GARNET_STEP",
    "GARNET_THRESHOLD",
    "LATER_ROUND_TILES",
    "MAX_GARNETS",
    "MAX_PLAYERS",
    "MAX_PURCHASE",
    "MAX_SHARED_TOL",
    "MIN_PLAYERS",
    "NEIGHBOURS",
    "PICK_KEYS",
    "ROUNDS",
    "RULES",
    "SEQUENCES",
    "SIZE",
    "START_RESERVES",
    "SURVIVAL_NEIGHBOURS",
    "Bits",
    "Cell",
    "GridAdaptation",
    "Tiles",
    "cell_name",
    "cell_position",
    "deal_sequences",
    "flip_bit",
    "garnets_earned",
    "grid_text",
    "is_cell",
    "life_step",
    "lowest_scorers",
    "majority",
    "place_tiles",
    "reading_order",
    "reserve_cost",
    "reserve_price",
    "score_sequences",
    "settle_ec_vote",
    "tile_points",
    "tiles_from_grid_text",
    "tokens_of_life",
]
