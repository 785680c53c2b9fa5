"""The Grid Adaptation chart: each player's score once revealed, each sequence's before."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web import chart
from web.games.grid_adaptation.picture import SEQUENCE_COLOURS

if TYPE_CHECKING:
    from collections.abc import Sequence

    from web.games.record import Record


def series(records: Sequence[Record]) -> chart.Series | None:
    """Each player's score once revealed, else each sequence's, after every round."""
    rounds = [d for d in chart.resolved(records) if "round_scores" in (d.get("outcome") or {})]
    finished = next((r.get("data") for r in records if r.get("type") == "MatchFinished"), None)
    held = ((finished or {}).get("result") or {}).get("sequences_held")
    if isinstance(held, dict) and held:
        # After the match everyone's sequence per round is public: score each player.
        totals = dict.fromkeys(held, 0.0)
        points = [(0, dict(totals))]
        for i, data in enumerate(rounds):
            scores = data["outcome"]["round_scores"]
            for player, seqs in held.items():
                if i < len(seqs):
                    totals[player] += scores.get(seqs[i], 0)
            points.append((int(data.get("step", i + 1)), dict(totals)))
        return chart.Series(
            "score",
            list(held),
            points,
            axis="round",
            note="who held which sequence was revealed after the match",
        )
    start = chart.first_view(records).get("sequence_scores")
    if not isinstance(start, dict):
        return None
    points = [(0, dict(start))]
    points += [(int(d.get("step", 0)), dict(d["view"]["sequence_scores"])) for d in rounds]
    return chart.Series(
        "score of each sequence",
        list(start),
        points,
        axis="round",
        note="who holds which sequence stays sealed until the match ends",
        colours=SEQUENCE_COLOURS,
    )
