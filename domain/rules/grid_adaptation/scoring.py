"""Sequences, reserve tiles and garnets, scoring and results of Grid Adaptation.

See :mod:`domain.rules.grid_adaptation` for the rules and the wire format.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.fairrand import Rng
    from domain.rules.grid_adaptation.grid import Bits, Cell

FIRST_RESERVE_PRICE = 2
SEQUENCES: tuple[Bits, ...] = tuple(format(i, "03b") for i in range(8))
GARNET_THRESHOLD = 200
GARNET_STEP = 50
MAX_SHARED_TOL = 3
MAX_GARNETS = 1000
"""The most garnets the ``garnets`` option gives a player."""
MAX_PURCHASE = (MAX_GARNETS + FIRST_RESERVE_PRICE).bit_length() - 2
"""The most reserve tiles anyone can ever buy: the first ``k`` cost ``2**(k+1) - 2``."""


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
