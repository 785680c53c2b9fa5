"""The Picking Nine picture: the pool, who received what, the holdings and best Quattros."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from domain.rules.picking_nine import QUATTRO, ROUNDS, best_quattro, is_quattro
from web import svg

if TYPE_CHECKING:
    from collections.abc import Sequence

    from markupsafe import Markup

    from web.games.record import Moment

_CARD_COLOURS = {"R": "#d64035", "G": "#2f9a48", "B": "#2f68c9", "Y": "#f0c419", "0": "#9a9a9a"}


def _nine_card(x: float, y: float, card: str, css: str = "card") -> Markup:
    colour = card[0] if card[:1] in _CARD_COLOURS else "0"
    ink = svg.INK if colour == "Y" else "#ffffff"
    label = card if card == "0" else card[1:]
    return svg.group(
        svg.el("title", "the gray zero" if card == "0" else card),
        svg.rect(x, y, 34, 48, rx=5, fill=_CARD_COLOURS[colour], stroke="#333333", stroke_width=1),
        svg.text(x + 17, y + 31, label, fill=ink, size=18, bold=True, anchor="middle"),
        svg.text(x + 4, y + 13, card[:1] if card != "0" else "", fill=ink, size=11),
        class_=css,
        data_card=card,
    )


def best_four(cards: Sequence[str]) -> tuple[str, ...]:
    """The cards of the best Quattro among ``cards``, scored by the rules; ``()`` without one.

    >>> best_four(["R10", "G9", "B8", "Y7", "R6"])
    ('R10', 'G9', 'B8', 'Y7')
    """
    top = best_quattro(cards)
    if not top:  # every Quattro scores at least 0 + 1 + 2 + 3
        return ()
    return next(
        four
        for four in combinations(cards, QUATTRO)
        if is_quattro(four) and best_quattro(four) == top
    )


def draw(m: Moment, you: str | None = None) -> tuple[str, int, list[Markup]]:
    """Draw the pool (banned, received, discarded), the holdings and the best Quattros.

    ``you``: the player whose seat it is drawn from; their holdings row is marked "you".
    """
    view, colours = m.view, m.colours
    pool: list[str] = list(view.get("pool") or [])
    holdings: dict[str, list[str]] = view.get("holdings") or {}
    body: list[Markup] = []
    top = 60
    body.append(svg.rect(12, top - 8, 696, 112, rx=10, fill=svg.FELT))
    outcome = m.outcome
    settled = m.open_step is None and m.resolved is not None
    receivers = {card: p for p, card in (outcome.get("received") or {}).items()} if settled else {}
    banned = outcome.get("banned") if settled else None
    title = f"Pool of round {view.get('round', 0) + (0 if settled else 1)}"
    if not pool:
        title += ": dealt when the round opens"
    body.append(svg.text(24, top + 14, title, fill="#ffffff", bold=True, size=14))
    for i, card in enumerate(pool):
        x = 24 + i * 74
        marks: list[Markup] = [
            svg.group(_nine_card(x + 18, top + 24, card), opacity=0.5 if card == banned else None)
        ]
        if card == banned:
            marks.append(
                svg.el(
                    "path",
                    d=f"M{x + 12} {top + 76} L{x + 58} {top + 20}",
                    stroke="#ff5a4a",
                    stroke_width=4,
                    stroke_linecap="round",
                )
            )
            marks.append(
                svg.text(
                    x + 35, top + 92, "banned", fill="#ffb3a8", size=12, anchor="middle", bold=True
                )
            )
        elif card in receivers:
            marks.append(
                svg.text(
                    x + 35,
                    top + 92,
                    svg.short(receivers[card], 11),
                    fill="#ffffff",
                    size=12,
                    anchor="middle",
                )
            )
        elif settled:
            marks.append(
                svg.text(
                    x + 35,
                    top + 92,
                    "discarded" if card != "0" else "stays",
                    fill="#b7cdbf",
                    size=11,
                    anchor="middle",
                )
            )
        body.append(svg.group(*marks, class_="pool-card"))

    y = top + 130
    body.append(svg.text(16, y, "Holdings", bold=True, size=15))
    body.append(svg.text(560, y, "best Quattro", size=12, fill=svg.MUTED))
    tol, ec = view.get("tol"), set(view.get("ec") or [])
    garnets = view.get("garnets") or {}
    scores = view.get("scores") or {}
    for i, (player, cards) in enumerate(holdings.items()):
        row_y = y + 16 + i * 58
        best = set(best_four(cards))
        tags = []
        if view.get("finished"):
            tags.append("ToL ★" if player == tol else ("EC" if player in ec else ""))
            tags.append(f"{garnets.get(player, 0)} garnets")
        mine = player == you
        body.append(
            svg.group(
                svg.rect(
                    12,
                    row_y,
                    696,
                    54,
                    rx=6,
                    fill="#fff7db" if mine else "#ffffff" if i % 2 else "#efece3",
                    stroke="#e0a526" if mine else None,
                    stroke_width=2 if mine else None,
                ),
                svg.name_tag(
                    20, row_y + 28, player, colours.get(player, svg.MUTED), player=player, size=14
                ),
                svg.text(34, row_y + 46, "you", size=11, bold=True, fill="#7a5a00")
                if mine
                else None,
                *(
                    _nine_card(
                        150 + k * 40, row_y + 3, card, "card quattro" if card in best else "card"
                    )
                    for k, card in enumerate(cards)
                ),
                *(
                    svg.rect(
                        148 + k * 40,
                        row_y + 1,
                        38,
                        52,
                        rx=6,
                        fill="none",
                        stroke="#e0a526",
                        stroke_width=3,
                    )
                    for k, card in enumerate(cards)
                    if card in best
                ),
                svg.text(590, row_y + 34, scores.get(player, 0), size=20, bold=True, anchor="end"),
                svg.text(
                    604, row_y + 24, tags[0] if tags else "", size=13, bold=True, fill="#7a2a3a"
                ),
                svg.text(604, row_y + 42, tags[1] if tags else "", size=12, fill=svg.MUTED),
                class_="holding you" if mine else "holding",
                data_player=player,
            )
        )
    y += 16 + len(holdings) * 58 + 22
    tiebreak = " › ".join(svg.short(p, 12) for p in view.get("tiebreak") or [])
    body.append(svg.text(16, y, f"Tie-break list: {tiebreak}", size=13, fill=svg.MUTED))
    played = view.get("round", 0)
    if view.get("finished"):
        head = f"Picking Nine · round {played} of {ROUNDS} · finished"
    elif settled or not pool:
        head = f"Picking Nine · {played} of {ROUNDS} rounds played"
    else:
        head = f"Picking Nine · round {played + 1} of {ROUNDS}"
    return head, y + 16, body
