"""The vote's picture: the tally as bars, the winners starred, who abstained."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import svg

if TYPE_CHECKING:
    from markupsafe import Markup

    from web.games.record import Moment

WIDTH = 600  # the presentation's width


def draw(m: Moment) -> tuple[str, int, list[Markup]]:
    """Draw the tally as bars, the winners starred, and who abstained."""
    view = m.view
    tally: dict[str, int] = view.get("tally") or {}
    winners = set(view.get("winners") or [])
    top = max([*tally.values(), 1])
    body: list[Markup] = []
    y = 64
    for i, (candidate, votes) in enumerate(tally.items()):
        row_y = y + i * 40
        width = 360 * votes / top
        colour = m.colours.get(candidate, svg.PLAYER_COLOURS[i % len(svg.PLAYER_COLOURS)])
        body.append(
            svg.group(
                svg.name_tag(
                    16,
                    row_y + 20,
                    candidate,
                    colour,
                    player=candidate if candidate in m.players else None,
                    size=14,
                    bold=candidate in winners,
                ),
                svg.rect(160, row_y + 4, 360, 24, rx=4, fill="#e7e3d8"),
                svg.rect(160, row_y + 4, max(width, 0), 24, rx=4, fill=colour),
                svg.text(
                    530,
                    row_y + 22,
                    f"{votes}{' ★' if candidate in winners else ''}",
                    size=15,
                    bold=True,
                ),
                class_="bar",
                data_candidate=candidate,
                data_votes=votes,
            )
        )
    y += len(tally) * 40 + 10
    abstained = m.outcome.get("abstained") or []
    if abstained:
        body.append(svg.text(16, y, "abstained: " + ", ".join(abstained), size=13, fill=svg.MUTED))
        y += 20
    head = "Vote"
    if view.get("finished"):
        head += " · winner " if len(winners) == 1 else " · tie: "
        room = WIDTH - 32 - svg.text_width(head, 17, bold=True)
        head += svg.fit(", ".join(c for c in tally if c in winners), room, 17, bold=True)
    return head, y + 10, body
