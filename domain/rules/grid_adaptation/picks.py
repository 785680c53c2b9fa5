"""A round's pick and the EC vote of Grid Adaptation, checked.

See :mod:`domain.rules.grid_adaptation` for the rules and the wire format; every refusal
listed there under "Rejected at submission" is one of these checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.rules.base import (
    JSON,
    IllegalPick,
    Payload,
    State,
    check_object,
    describe,
    is_whole,
    list_names,
)
from domain.rules.grid_adaptation.grid import is_cell
from domain.rules.grid_adaptation.scoring import MAX_PURCHASE, reserve_cost

if TYPE_CHECKING:
    from collections.abc import Sequence

    from domain.rules.grid_adaptation.grid import Cell

FLIP_ROUNDS = (4, 7)
FIRST_ROUND_TILES = 3
LATER_ROUND_TILES = 1

PICK_KEYS = ("tiles", "reserve", "flip", "buy_reserves")
_PICK_SHAPE = (
    'a pick is {"tiles": [cells], "reserve": cell or null, "flip": 0, 1, 2 or null, '
    '"buy_reserves": n}'
)


def _check_cell(cell: object, what: str = "") -> Cell:
    if not is_cell(cell):
        msg = f"{what}{describe(cell)} is not a cell; cells are A1 to O15 (column A-O, row 1-15)"
        raise IllegalPick(msg)
    return str(cell)


def check_round_pick(state: State, player: str, payload: JSON) -> Payload:
    """Check a round pick and return it normalised (missing keys take their defaults).

    :raises IllegalPick: for every case listed under "Rejected at submission".
    """
    payload = check_object(
        payload, required=(), optional=PICK_KEYS, shape=_PICK_SHAPE, error=IllegalPick
    )
    number = state["round"] + 1
    tiles = _check_tiles(state, payload.get("tiles", []), number)
    buy = _check_buy(state, player, payload.get("buy_reserves", 0))
    reserve = _check_reserve(state, player, payload.get("reserve"), tiles, buy)
    flip = _check_flip(payload.get("flip"), number)
    return {"tiles": tiles, "reserve": reserve, "flip": flip, "buy_reserves": buy}


def _check_free_cell(state: State, cell: object, chosen: Sequence[Cell], what: str = "") -> Cell:
    name = _check_cell(cell, what)
    if name in state["tiles"]:
        msg = f"cell {name} already holds a tile; choose an empty cell"
        raise IllegalPick(msg)
    if name in chosen:
        msg = f"cell {name} is chosen twice; each of your tiles needs its own cell"
        raise IllegalPick(msg)
    return name


def _check_tiles(state: State, tiles: object, number: int) -> list[Cell]:
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
        chosen.append(_check_free_cell(state, cell, chosen))
    return chosen


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
    state: State, player: str, reserve: object, tiles: list[Cell], buy: int
) -> Cell | None:
    if reserve is None:
        return None
    cell = _check_free_cell(state, reserve, tiles, "the reserve ")
    if state["reserves"][player] + buy < 1:
        msg = "you have no reserve tile left; buy one with buy_reserves or set reserve to null"
        raise IllegalPick(msg)
    return cell


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


def check_vote(state: State, player: str, payload: JSON) -> Payload:
    """Check an EC vote: it names one of the players tied for the fewest points.

    :raises IllegalPick: for anything else.
    """
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
