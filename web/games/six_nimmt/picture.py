"""The 6 nimmt! picture: the rows with their bullheads and the action card, points, the turn.

The four rows are regions a player taps in the dealer room (``data-hit="row 0"`` ..
``"row 3"``): a too-low card's player takes a row by tapping it. While such a decision is
pending, the rows are drawn as they stand when that card resolves (the decision's prompt),
since smaller cards of the turn may already lie on them. The drawing is narrow (points and
the virtual player's hand under the rows), so that on a phone a row is a comfortable target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.six_nimmt import TURNS_PER_ROUND, bullheads, is_sixth_card, row_bullheads
from web import svg
from web.games import record
from web.games.words import plural

if TYPE_CHECKING:
    from markupsafe import Markup

    from domain.public_log import PublicStep, Request
    from web.games.record import Moment

_BULLHEAD_FILL = {1: "#fbf8ef", 2: "#d5e8fb", 3: "#fcefae", 5: "#f9c9c4", 7: "#dccaf3"}
_BULLHEAD_PATH = "M0 0 L2.2 2.4 L5.8 2.4 L8 0 L7.4 4.2 L5.6 8 L2.4 8 L0.6 4.2 Z"
_PARITY_FILL = {"even": "#1f7a8c", "odd": "#c4611f"}  # the action card's two sides
_PARITY_LIGHT = {"even": "#9be7f5", "odd": "#ffc08f"}  # the same, readable on the felt
CARD_W, CARD_H = 52, 76
WIDTH = 540
ROW_COUNT = 4

ONE_LINE_OF_HEADS = 5  # more bullheads than this go on two lines
CARDS_PER_LINE = 6  # a hand drawn small, six cards a line
TOP, PITCH, LEFT = 68, CARD_H + 20, 128  # the rows: first row's top, row pitch, first card
BAND = CARD_H + 16  # a row's tap region: 48 px high on a 390 px phone
STRIP_PITCH = 52  # one played card of the turn strip
HAND_PITCH = 38  # one card of the virtual player's hand


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
        svg.el("title", f"{card}: {plural(heads, 'bullhead')}"),
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
    return svg.group(
        svg.el("title", f"Even/Odd action card: this row takes only {parity} cards"),
        svg.rect(
            x, y, 36, CARD_H, rx=5, fill=_PARITY_FILL.get(parity, "#555555"), stroke="#1c1c1c"
        ),
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


def _is_rows(value: Any) -> bool:
    """Whether ``value`` is four rows of card numbers (a prompt read from a public record)."""
    return (
        isinstance(value, list)
        and len(value) == ROW_COUNT
        and all(
            isinstance(row, list)
            and all(isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= 104 for c in row)  # noqa: PLR2004 - the deck's highest card
            for row in value
        )
    )


def _asked(step: PublicStep | None) -> Request | None:
    """The take-row decision pending in the open step, if any."""
    waiting = record.pending(step) if step is not None else ()
    return waiting[0] if waiting else None


def _row(index: int, row: list[int], action: Any, ring: dict[int, str]) -> Markup:
    """One row: its band (the tap region), label, bullheads, action card and cards."""
    y = TOP + index * PITCH
    marked = isinstance(action, dict) and action.get("row") == index
    parity = str(action.get("parity")) if marked else ""
    heads = row_bullheads(row)
    band = svg.rect(
        16,
        y - 8,
        WIDTH - 32,
        BAND,
        rx=8,
        fill="#ffffff",
        fill_opacity=0.06,
        stroke=_PARITY_LIGHT.get(parity) if marked else None,
        stroke_width=2.5 if marked else None,
        class_="row-band",
        data_hit=f"row {index}",
    )
    cards = [
        _nimmt_card(LEFT + i * (CARD_W + 6), y, card, ring=ring.get(card))
        for i, card in enumerate(row)
    ]
    cards += [
        svg.rect(
            LEFT + i * (CARD_W + 6),
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
        x = LEFT + 5 * (CARD_W + 6)
        cards.append(
            svg.group(
                svg.el("title", "a sixth card takes this row"),
                svg.rect(
                    x,
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
                    x + CARD_W / 2,
                    y + CARD_H / 2 + 4,
                    "6th",
                    fill="#f3b0a8",
                    size=13,
                    anchor="middle",
                ),
            )
        )
    return svg.group(
        band,
        svg.text(24, y + 20, f"row {index}", fill="#ffffff", size=15, bold=True),
        svg.group(
            svg.el("title", f"row {index} is worth {plural(heads, 'bullhead')}"),
            _bullhead(24, y + 31, 1.5, fill="#f4dfae"),
            svg.text(42, y + 43, heads, fill="#ffffff", size=16, bold=True),
            class_="row-heads",
            data_bullheads=heads,
        ),
        svg.text(23, y + 66, f"{parity} only", fill=_PARITY_LIGHT.get(parity), size=11, bold=True)
        if marked
        else None,
        _action_card(84, y, parity) if marked else None,
        *cards,
        class_="row marked" if marked else "row",
        data_row=index,
    )


def _name(x: float, y: float, player: str, colour: str) -> Markup:
    """A small name tag under a card of the turn strip (names cut to fit the strip)."""
    return svg.group(
        svg.el("title", player),
        svg.el(
            "circle",
            cx=float(x + 4),
            cy=float(y - 4),
            r=4,
            fill=colour,
            stroke=svg.outline(colour, svg.PAPER),
            class_="swatch",
            data_player=player,
        ),
        svg.text(x + 11, y, svg.short(player, 6), size=11),
    )


def _strip(m: Moment, y: float, player: str | None, asked: Request | None) -> Markup:
    """The turn: sealed or revealed picks of the open step, or the cards of the last turn."""
    colours, view, step = m.colours, m.view, m.open_step
    strip: list[Markup] = []
    if step is not None:
        title = f"Turn in progress (step {step.number})"
        revealed, defaulted = record.revealed(step), record.defaulted(step)
        for i, who in enumerate(step.submitters):
            cx = 20 + i * STRIP_PITCH
            pick = revealed.get(who) or defaulted.get(who)
            if isinstance(pick, dict) and isinstance(pick.get("card"), int):
                strip.append(_nimmt_card(cx, y + 22, pick["card"], small=True))
            elif who in step.commitments:
                strip.append(_face_down(cx, y + 22, f"{who}: sealed"))
            else:
                strip.append(svg.text(cx + 16, y + 50, "…", size=16, anchor="middle"))
            strip.append(_name(cx - 2, y + 84, who, colours.get(who, svg.MUTED)))
        if asked is not None:
            default = (asked.default or {}).get("row") if isinstance(asked.default, dict) else None
            words = (
                f"You must take a row: tap one (by default row {default})"
                if asked.player == player
                else f"{svg.fit(asked.player, 160, 13, bold=True)} must choose a row to take "
                f"(default row {default})"
            )
            strip.append(svg.text(20, y + 104, words, size=13, fill="#a33a2a", bold=True))
    else:
        plays = m.outcome.get("plays", [])
        title = "Last turn" if view.get("played") else "No turn played yet"
        for i, (who, card) in enumerate((view.get("played") or {}).items()):
            cx = 20 + i * STRIP_PITCH
            strip.append(_nimmt_card(cx, y + 22, card, small=True, ring=colours.get(who)))
            strip.append(_name(cx - 2, y + 84, who, colours.get(who, svg.MUTED)))
            took = sum(p["bullheads"] for p in plays if p["player"] == who)
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
    return svg.group(svg.text(16, y + 12, title, bold=True, size=14), *strip, class_="turn")


def _points(m: Moment, y: float, player: str | None) -> list[Markup]:
    """Everybody's points and cards in hand; the seat's own line marked."""
    view = m.view
    body = [svg.text(16, y, "Points", bold=True, size=15)]
    winners = set(view.get("winners") or [])
    hands = view.get("hand_sizes") or {}
    for i, (who, points) in enumerate((view.get("points") or {}).items()):
        line = y + 24 + i * 22
        mine = who == player
        body.append(
            svg.group(
                svg.rect(10, line - 15, 262, 21, rx=4, fill="#fff1b8") if mine else None,
                svg.name_tag(
                    16, line, who, m.colours.get(who, svg.VIRTUAL_COLOUR), player=who, size=14
                ),
                svg.text(
                    168,
                    line,
                    f"{'★ ' if who in winners else ''}{points}",
                    size=14,
                    bold=True,
                    anchor="end",
                ),
                svg.text(
                    178,
                    line,
                    f"{plural(hands[who], 'card')}" if who in hands else "open hand",
                    size=12,
                    fill=svg.MUTED,
                ),
                svg.text(266, line, "you", size=12, bold=True, anchor="end") if mine else None,
                class_="points mine" if mine else "points",
                data_player=who,
            )
        )
    return body


def _virtual_hand(hand: list[int], y: float) -> list[Markup]:
    """The virtual player's public hand, six small cards a line."""
    hx = 290
    body = [svg.text(hx, y, "virtual's hand (public)", bold=True, size=14)]
    body.extend(
        _nimmt_card(
            hx + (i % CARDS_PER_LINE) * HAND_PITCH,
            y + 10 + (i // CARDS_PER_LINE) * 56,
            card,
            small=True,
        )
        for i, card in enumerate(hand)
    )
    return body


def seat(m: Moment, player: str) -> tuple[str, int, list[Markup]]:
    """The table from ``player``'s seat: their points line and a decision of theirs marked."""
    return _draw(m, player)


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the rows, the points and hands, and the turn in progress or the last one."""
    return _draw(m, None)


def _draw(m: Moment, player: str | None) -> tuple[str, int, list[Markup]]:
    view = m.view
    rows: list[list[int]] = view.get("rows") or [[], [], [], []]
    action: Any = view.get("action_card")
    step = m.open_step
    asked = _asked(step)
    prompt = asked.prompt if asked is not None and isinstance(asked.prompt, dict) else {}
    if _is_rows(prompt.get("rows")):  # the rows as they stand when the too-low card resolves
        rows = prompt["rows"]
        action = prompt.get("action_card")
    plays = m.outcome.get("plays", []) if step is None else []
    ring = {p["card"]: m.colours.get(p["player"], svg.MUTED) for p in plays}
    body: list[Markup] = [
        svg.rect(12, TOP - 12, WIDTH - 24, PITCH * len(rows) + 4, rx=10, fill=svg.FELT)
    ]
    body += [_row(index, row, action, ring) for index, row in enumerate(rows)]
    y = TOP + PITCH * len(rows) + 10
    body.append(_strip(m, y, player, asked))
    y += 136
    body += _points(m, y, player)
    bottom = y + 24 + 22 * len(view.get("points") or {})
    hand = view.get("virtual_hand")
    if hand:
        body += _virtual_hand(hand, y)
        bottom = max(bottom, y + 10 + 56 * ((len(hand) + CARDS_PER_LINE - 1) // CARDS_PER_LINE))
    return _heading(m), bottom, body


def _heading(m: Moment) -> str:
    """Which turn the picture shows: the one under way, or the last one played; the winners."""
    view = m.view
    rnd, turn = int(view.get("round") or 0), int(view.get("turn") or 0)
    if view.get("finished"):
        winners = list(view.get("winners") or [])
        head = f"6 nimmt! · finished after round {rnd} · winner{'s' * (len(winners) != 1)} "
        room = WIDTH - 32 - svg.text_width(head, 17, bold=True)
        return head + svg.fit(", ".join(winners), room, 17, bold=True)
    if m.open_step is not None:
        if not rnd or turn >= TURNS_PER_ROUND:  # the next round's first turn
            rnd, turn = rnd + 1, 0
        return f"6 nimmt! · round {rnd}, turn {turn + 1} of {TURNS_PER_ROUND} under way"
    if not rnd:
        return "6 nimmt! · before the first turn"
    return f"6 nimmt! · after round {rnd}, turn {turn} of {TURNS_PER_ROUND}"
