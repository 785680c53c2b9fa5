"""The Grid Adaptation picture: the grid coloured by sequence, the round's marks, the scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import svg

if TYPE_CHECKING:
    from markupsafe import Markup

    from web.games.record import Moment

CELL = 28
# Each bit is a primary: the first red, the second green, the third blue.
SEQUENCE_COLOURS = {
    "000": "#3b3b3b",
    "001": "#2f68c9",
    "010": "#2f9a48",
    "011": "#19a3a3",
    "100": "#d64035",
    "101": "#a24fc2",
    "110": "#e6a619",
    "111": "#f2eedf",
}
_COLUMNS = "ABCDEFGHIJKLMNO"


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the grid coloured by sequence, the round's marks and the sequences' scores."""
    view = m.view
    grid: list[str] = list(view.get("grid") or ["." * 15] * 15)
    size = len(grid)
    x0, y0 = 40, 74
    outcome = m.outcome if m.open_step is None else {}
    born, placed = set(outcome.get("born") or []), set(outcome.get("placed") or [])
    vanished, clashes = set(outcome.get("vanished") or []), set(outcome.get("collisions") or [])
    body: list[Markup] = [
        svg.rect(x0 - 4, y0 - 4, size * CELL + 8, size * CELL + 8, rx=4, fill="#d8d2c4")
    ]
    body.extend(
        svg.text(
            x0 + c * CELL + CELL / 2,
            y0 - 10,
            _COLUMNS[c % 15],
            size=11,
            fill=svg.MUTED,
            anchor="middle",
        )
        for c in range(size)
    )
    for r, line in enumerate(grid):
        body.append(
            svg.text(
                x0 - 8, y0 + r * CELL + CELL / 2 + 4, r + 1, size=11, fill=svg.MUTED, anchor="end"
            )
        )
        for c, char in enumerate(line):
            cell = f"{_COLUMNS[c % 15]}{r + 1}"
            x, y = x0 + c * CELL, y0 + r * CELL
            bits = format(int(char), "03b") if char.isdigit() else None
            parts: list[Markup | None] = [
                svg.el("title", f"{cell}: {bits or 'empty'}"),
                svg.rect(
                    x + 1,
                    y + 1,
                    CELL - 2,
                    CELL - 2,
                    rx=3,
                    fill=SEQUENCE_COLOURS.get(bits or "", "#fbfaf6"),
                    stroke="#1c1c1c" if cell in placed else "none",
                    stroke_width=2.5 if cell in placed else None,
                ),
            ]
            if bits:
                parts.append(
                    svg.text(
                        x + CELL / 2,
                        y + CELL / 2 + 3.5,
                        bits,
                        size=9,
                        anchor="middle",
                        fill=svg.INK if bits in ("110", "111") else "#ffffff",
                    )
                )
            if cell in born:
                parts.append(
                    svg.el(
                        "circle",
                        cx=float(x + CELL - 5),
                        cy=float(y + 5),
                        r=3.2,
                        fill="#7be07b",
                        stroke="#1c5c1c",
                    )
                )
            if cell in vanished and not bits:
                parts.append(
                    svg.el(
                        "path",
                        d=f"M{x + 9} {y + 9} l10 10 m0 -10 l-10 10",
                        stroke="#b0a99a",
                        stroke_width=1.6,
                    )
                )
            if cell in clashes:
                parts.append(
                    svg.el(
                        "path",
                        d=f"M{x + 6} {y + 6} l16 16 m0 -16 l-16 16",
                        stroke="#c0392b",
                        stroke_width=3,
                    )
                )
            body.append(svg.group(*parts, class_="cell", data_cell=cell, data_bits=bits))

    # The legend: each sequence, its colour, tiles now, cumulative score, holders at the end.
    lx = x0 + size * CELL + 30
    holders: dict[str, list[str]] = {}
    held = (m.log.result or {}).get("sequences_held")
    if isinstance(held, dict):
        for player, seqs in held.items():
            if isinstance(seqs, list) and seqs:
                holders.setdefault(str(seqs[-1]), []).append(player)
    scores = view.get("sequence_scores") or {}
    counts = {bits: sum(line.count(str(int(bits, 2))) for line in grid) for bits in scores}
    body.append(svg.text(lx, y0 + 4, "Sequence", bold=True, size=13))
    body.append(svg.text(lx + 150, y0 + 4, "tiles", size=12, fill=svg.MUTED, anchor="end"))
    body.append(svg.text(lx + 210, y0 + 4, "score", size=12, fill=svg.MUTED, anchor="end"))
    if holders:
        body.append(svg.text(lx + 222, y0 + 4, "held at the end", size=12, fill=svg.MUTED))
    for i, (bits, score) in enumerate(scores.items()):
        y = y0 + 28 + i * 28
        body.append(
            svg.group(
                svg.rect(
                    lx,
                    y - 15,
                    20,
                    20,
                    rx=3,
                    fill=SEQUENCE_COLOURS.get(bits, "#cccccc"),
                    stroke="#1c1c1c",
                    stroke_width=0.6,
                ),
                svg.text(lx + 28, y, bits, size=14, font_family="'DejaVu Sans Mono', monospace"),
                svg.text(lx + 150, y, counts.get(bits, 0), size=13, anchor="end"),
                svg.text(lx + 210, y, score, size=14, bold=True, anchor="end"),
                svg.text(
                    lx + 222,
                    y,
                    ", ".join(svg.short(p, 8) for p in holders.get(bits, [])),
                    size=12,
                    fill=svg.MUTED,
                ),
                class_="sequence",
                data_bits=bits,
            )
        )
    y = y0 + 28 + len(scores) * 28 + 6
    keys = [
        (
            svg.rect(lx, y - 11, 14, 14, rx=2, fill="#fbfaf6", stroke="#1c1c1c", stroke_width=2.5),
            "placed this round",
        ),
        (
            svg.el(
                "circle", cx=float(lx + 7), cy=float(y - 4), r=3.2, fill="#7be07b", stroke="#1c5c1c"
            ),
            "born this round",
        ),
        (
            svg.el(
                "path",
                d=f"M{lx + 2} {y - 9} l10 10 m0 -10 l-10 10",
                stroke="#b0a99a",
                stroke_width=1.6,
            ),
            "vanished this round",
        ),
        (
            svg.el(
                "path",
                d=f"M{lx + 1} {y - 10} l12 12 m0 -12 l-12 12",
                stroke="#c0392b",
                stroke_width=3,
            ),
            "collision: no tile",
        ),
    ]
    for i, (mark, words) in enumerate(keys):
        body.append(
            svg.group(
                svg.group(mark, transform=f"translate(0 {i * 22})"),
                svg.text(lx + 22, y + i * 22, words, size=12, fill=svg.MUTED),
            )
        )
    y += len(keys) * 22 + 14
    if view.get("finished"):
        tol, ec = view.get("tol") or [], view.get("ec")
        body.append(svg.text(lx, y, "Players", bold=True, size=13))
        for i, (player, score) in enumerate((view.get("player_scores") or {}).items()):
            tag = "ToL ★" if player in tol else ("EC" if player == ec else "")
            body.append(
                svg.group(
                    svg.name_tag(
                        lx, y + 22 + i * 22, player, m.colours.get(player, svg.MUTED), size=13
                    ),
                    svg.text(lx + 170, y + 22 + i * 22, score, size=13, bold=True, anchor="end"),
                    svg.text(lx + 180, y + 22 + i * 22, tag, size=12, fill="#7a2a3a", bold=True),
                    class_="player-score",
                    data_player=player,
                )
            )
    head = f"Grid Adaptation · round {view.get('round', 0)} of 8"
    if m.open_step is not None and m.open_step.kind == "ec-vote":
        head += " · EC vote under way"
    if view.get("finished"):
        head += " · finished"
    height = max(y0 + size * CELL + 20, y + 30 + 22 * len(view.get("player_scores") or {}))
    return head, height, body
