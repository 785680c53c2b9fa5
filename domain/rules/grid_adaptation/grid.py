"""The grid of Grid Adaptation: cells, the grid text, placement and the Life step.

See :mod:`domain.rules.grid_adaptation` for the rules and the wire format.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from domain.rules.base import describe

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

Cell = str  # "A1" .. "O15"
Bits = str  # a sequence or a tile's bits, "000" .. "111"
Tiles = dict[Cell, Bits]  # the tiles on the grid, by cell

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
BIRTH_NEIGHBOURS = 3
SURVIVAL_NEIGHBOURS = (2, 3)
_CELL_RE = re.compile(r"([A-O])(1[0-5]|[1-9])")


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
