"""Fair play on the match page: what the ``timeline_fairness.html`` partial says before any check.

The partial is included by the timeline and rendered with its context; it calls
:func:`fairness_facts` (a template global this blueprint registers) for the facts it shows
in words: where the seed was committed and revealed, which steps were dealt from the seed
and which by the host, and the host's key to pin. The checks themselves run in the browser
(``static/js/crypto/fairness.js``). Only public records are read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import Blueprint

from domain.vocabulary import DealSource
from web.extension import service
from web.timeline import replay_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

bp = Blueprint("fairness", __name__)


@dataclass
class FairnessFacts:
    """What the public records say about a match's fair play, for the page."""

    key: str
    seed_hash: str | None = None
    committed_at: int | None = None
    revealed_at: int | None = None
    finished: bool = False
    seed_dealt: list[int] = field(default_factory=list)
    host_dealt: list[int] = field(default_factory=list)
    entropy_from: list[str] = field(default_factory=list)


def facts_of(records: Sequence[Mapping[str, Any]], key: str) -> FairnessFacts:
    """The fair-play facts of a match's public records, signed with ``key``.

    >>> facts_of([{"seq": 1, "type": "SeedCommitted", "data": {"seed_hash": "ab"}},
    ...           {"seq": 2, "type": "StepOpened", "data": {"step": 1, "deal_source": "explicit"}}],
    ...          "k").host_dealt
    [1]
    """
    facts = FairnessFacts(key=key)
    opened = False
    for record in records:
        data = record.get("data") or {}
        kind = record.get("type")
        if kind == "SeedCommitted" and facts.committed_at is None:
            facts.committed_at, facts.seed_hash = record["seq"], str(data.get("seed_hash"))
        elif kind == "SeedRevealed":
            facts.revealed_at = record["seq"]
        elif kind in ("MatchFinished", "MatchEnded"):
            facts.finished = True
        elif kind == "PlayerJoined" and not opened and isinstance(data.get("entropy"), str):
            facts.entropy_from.append(str(data.get("player")))
        elif kind == "StepOpened":
            opened = True
            source, step = data.get("deal_source"), data.get("step")
            if not isinstance(step, int):
                continue
            if source == DealSource.SEED:
                facts.seed_dealt.append(step)
            elif source == DealSource.EXPLICIT:
                facts.host_dealt.append(step)
    return facts


@bp.app_template_global()
def fairness_facts(match_id: str) -> FairnessFacts:
    """The fair-play facts of a match, for the match page's partial."""
    return facts_of(replay_of(match_id).records, service().public_key(match_id))


@bp.app_template_global()
def site_key() -> str:
    """The verifier key of every checkpoint this site signs (``GET /api/key``)."""
    return service().public_key()


def steps_text(steps: Sequence[int]) -> str:
    """Step numbers in words: ``[1, 2, 3, 5]`` → ``"steps 1 to 3 and 5"``.

    >>> steps_text([4]), steps_text([1, 2, 3, 5, 7, 8])
    ('step 4', 'steps 1 to 3, 5 and 7 to 8')
    """
    runs: list[list[int]] = []
    for step in steps:
        if runs and step == runs[-1][-1] + 1:
            runs[-1].append(step)
        else:
            runs.append([step])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]
    if len(steps) == 1:
        return f"step {parts[0]}"
    head = ", ".join(parts[:-1])
    return f"steps {head} and {parts[-1]}" if head else f"steps {parts[-1]}"


bp.add_app_template_filter(steps_text, "steps_text")

__all__ = ["FairnessFacts", "bp", "facts_of", "fairness_facts", "site_key", "steps_text"]
