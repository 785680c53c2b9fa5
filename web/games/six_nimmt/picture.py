"""The 6 nimmt! picture: the rows with their bullheads and the action card, points, the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.six_nimmt import bullheads, is_sixth_card, row_bullheads
from web import svg
from web.games import record

if TYPE_CHECKING:
    from markupsafe import Markup

    from web.games.record import Moment

_BULLHEAD_FILL = {1: "#fbf8ef", 2: "#d5e8fb", 3: "#fcefae", 5: "#f9c9c4", 7: "#dccaf3"}
_BULLHEAD_PATH = "M0 0 L2.2 2.4 L5.8 2.4 L8 0 L7.4 4.2 L5.6 8 L2.4 8 L0.6 4.2 Z"
CARD_W, CARD_H = 50, 70


ONE_LINE_OF_HEADS = 5  # more bullheads than this go on two lines
CARDS_PER_LINE = 6  # a hand drawn small, six cards a line


def _bullhead(x: float, y: float, scale: float = 1.0, fill: str = "#7a2a3a") -> Markup:
    return svg.el(
        "path",
        d=_BULLHEAD_PATH,
        transform=f"translate({svg.number(x)} {svg.number(y)}) scale({svg.number(scale)})",
        fill=fill,
    )


def _nimmt_card(
    x: float, y: float, card: int, *, small: bool = False, ring: str | None = None
) -> Markup:
    """A 6 nimmt! card: its number and one bullhead per point, coloured by value."""
    scale = 0.66 if small else 1.0
    w, h = CARD_W * scale, CARD_H * scale
    heads = bullheads(card)
    icons = []
    per_row = 4 if heads > ONE_LINE_OF_HEADS else heads  # seven bullheads go on two lines
    for i in range(heads):
        line, col = divmod(i, per_row)
        across = min(per_row, heads - line * per_row)
        left = x + w / 2 - across * 5 * scale + col * 10 * scale
        icons.append(_bullhead(left + 1 * scale, y + (5 + line * 10) * scale, scale))
    return svg.group(
        svg.el("title", f"{card}: {heads} bullhead{'s' if heads > 1 else ''}"),
        svg.rect(
            x,
            y,
            w,
            h,
            rx=6 * scale,
            fill=_BULLHEAD_FILL[heads],
            stroke=ring or "#5b5b5b",
            stroke_width=3 if ring else 1,
        ),
        *icons,
        svg.text(
            x + w / 2,
            y + h * 0.74,
            card,
            size=22 * scale,
            bold=True,
            anchor="middle",
            class_="card-number",
        ),
        class_="card",
        data_card=card,
    )


def _face_down(x: float, y: float, label: str) -> Markup:
    """A sealed pick: the back of a card."""
    w, h = CARD_W * 0.66, CARD_H * 0.66
    return svg.group(
        svg.el("title", label),
        svg.rect(x, y, w, h, rx=4, fill="#5a3d7a", stroke="#2e1f40"),
        svg.rect(x + 4, y + 4, w - 8, h - 8, rx=3, fill="none", stroke="#b9a4d6"),
        class_="card sealed",
    )


def _action_card(x: float, y: float, parity: str) -> Markup:
    colour = "#1f7a8c" if parity == "even" else "#c4611f"
    return svg.group(
        svg.el("title", f"action card: this row takes only {parity} cards"),
        svg.rect(x, y, 36, CARD_H, rx=5, fill=colour, stroke="#1c1c1c"),
        svg.text(
            x + 18,
            y + CARD_H / 2,
            parity.upper(),
            fill="#ffffff",
            size=13,
            bold=True,
            anchor="middle",
            dominant_baseline="middle",
            transform=f"rotate(-90 {svg.number(x + 18)} {svg.number(y + CARD_H / 2)})",
        ),
        class_="action-card",
        data_parity=parity,
    )


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the rows, the points and hands, and the turn in progress or the last one."""
    view, colours = m.view, m.colours
    rows: list[list[int]] = view.get("rows") or [[], [], [], []]
    action: Any = view.get("action_card")
    step = m.open_step
    plays = m.outcome.get("plays", []) if step is None else []
    placed_by = {p["card"]: p["player"] for p in plays}
    body: list[Markup] = []
    top, pitch, left = 66, CARD_H + 12, 132
    body.append(svg.rect(12, top - 10, 500, pitch * len(rows) + 8, rx=10, fill=svg.FELT))
    for index, row in enumerate(rows):
        y = top + index * pitch
        cards = [
            _nimmt_card(left + i * (CARD_W + 6), y, card, ring=colours.get(placed_by.get(card, "")))
            for i, card in enumerate(row)
        ]
        cards += [
            svg.rect(
                left + i * (CARD_W + 6),
                y,
                CARD_W,
                CARD_H,
                rx=6,
                fill="none",
                stroke="#5f9479",
                stroke_width=1.5,
                stroke_dasharray="4 4",
            )
            for i in range(len(row), 5)
        ]
        if is_sixth_card(row):  # the next card here takes the row
            cards.append(
                svg.group(
                    svg.el("title", "a sixth card takes this row"),
                    svg.rect(
                        left + 5 * (CARD_W + 6),
                        y,
                        CARD_W,
                        CARD_H,
                        rx=6,
                        fill="none",
                        stroke="#f3b0a8",
                        stroke_width=2,
                        stroke_dasharray="5 4",
                    ),
                    svg.text(
                        left + 5 * (CARD_W + 6) + CARD_W / 2,
                        y + CARD_H / 2 + 4,
                        "6th",
                        fill="#f3b0a8",
                        size=13,
                        anchor="middle",
                    ),
                )
            )
        marked = isinstance(action, dict) and action.get("row") == index
        body.append(
            svg.group(
                svg.text(24, y + 26, f"row {index}", fill="#ffffff", size=15, bold=True),
                svg.group(
                    _bullhead(24, y + 40, 1.4, fill="#f4dfae"),
                    svg.text(40, y + 51, f"{row_bullheads(row)}", fill="#ffffff", size=14),
                    svg.el("title", f"row {index} is worth {row_bullheads(row)} bullheads"),
                ),
                _action_card(84, y, str(action.get("parity"))) if marked else None,
                *cards,
                class_="row",
                data_row=index,
            )
        )

    # Points, hands and the winners.
    x = 530
    body.append(svg.text(x, top + 6, "Points", bold=True, size=15))
    winners = set(view.get("winners") or [])
    hands = view.get("hand_sizes") or {}
    for i, (player, points) in enumerate((view.get("points") or {}).items()):
        y = top + 32 + i * 24
        mark = "★ " if player in winners else ""
        body.append(
            svg.group(
                svg.name_tag(x, y, player, colours.get(player, svg.VIRTUAL_COLOUR), size=14),
                svg.text(x + 150, y, f"{mark}{points}", size=14, bold=True, anchor="end"),
                svg.text(
                    x + 160,
                    y,
                    f"{hands[player]} cards" if player in hands else "open hand",
                    size=12,
                    fill=svg.MUTED,
                ),
                class_="points",
                data_player=player,
            )
        )

    # The turn: revealed or sealed picks of the open step, or the cards of the last turn.
    y = top + pitch * len(rows) + 14
    strip: list[Markup] = []
    if step is not None:
        title = f"Turn in progress (step {step.number})"
        revealed, defaulted = record.revealed(step), record.defaulted(step)
        for i, player in enumerate(step.submitters):
            cx = 24 + i * 64
            pick = revealed.get(player) or defaulted.get(player)
            if isinstance(pick, dict) and isinstance(pick.get("card"), int):
                strip.append(_nimmt_card(cx, y + 22, pick["card"], small=True))
            elif player in step.commitments:
                strip.append(_face_down(cx, y + 22, f"{player}: sealed"))
            else:
                strip.append(svg.text(cx + 16, y + 50, "…", size=16, anchor="middle"))
            strip.append(
                svg.name_tag(cx - 4, y + 86, player, colours.get(player, svg.MUTED), size=11)
            )
        strip.extend(
            svg.text(
                24,
                y + 106,
                f"{request.player} must choose a row to take "
                f"(default row {(request.default or {}).get('row')})",
                size=13,
                fill="#a33a2a",
            )
            for request in record.pending(step)
        )
    else:
        title = "Last turn" if view.get("played") else "No turn played yet"
        for i, (player, card) in enumerate((view.get("played") or {}).items()):
            cx = 24 + i * 64
            strip.append(_nimmt_card(cx, y + 22, card, small=True, ring=colours.get(player)))
            took = sum(p["bullheads"] for p in plays if p["player"] == player)
            strip.append(
                svg.name_tag(cx - 4, y + 86, player, colours.get(player, svg.MUTED), size=11)
            )
            if took:
                strip.append(
                    svg.text(
                        cx + 16,
                        y + 102,
                        f"−{took}",
                        size=12,
                        fill="#a33a2a",
                        anchor="middle",
                        bold=True,
                    )
                )
    body.append(svg.group(svg.text(16, y + 12, title, bold=True, size=14), *strip, class_="turn"))
    hand = view.get("virtual_hand")
    if hand:
        hx = 330
        body.append(svg.text(hx, y + 12, "virtual's hand (public)", bold=True, size=14))
        body.extend(
            _nimmt_card(
                hx + (i % CARDS_PER_LINE) * 36,
                y + 22 + (i // CARDS_PER_LINE) * 50,
                card,
                small=True,
            )
            for i, card in enumerate(hand)
        )
    height = y + 22 + (110 if hand and len(hand) > CARDS_PER_LINE else 92)
    rnd, turn = view.get("round", 0), view.get("turn", 0)
    head = f"6 nimmt! · round {rnd}, turn {turn}" if rnd else "6 nimmt! · before the first turn"
    if view.get("finished"):
        head += " · finished, winners: " + ", ".join(view.get("winners") or [])
    return head, max(height, top + 32 + 24 * len(view.get("points") or {})), body
