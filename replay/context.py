"""What stays fixed while a match is replayed: its set-up and what the whole log discloses."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from domain.commitment import CommitmentError, canonical_match_id
from domain.errors import UserError
from domain.fairrand import Rng
from domain.public_log import PublicLog
from domain.rules import get_rules
from replay.bundle import MATCH_PATH

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from domain.rules.base import Rules

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class ReplayError(UserError):
    """Records that cannot be replayed at all (no ``MatchCreated`` first, unknown game)."""


# ---------------------------------------------------------------------------
# What the whole log discloses
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Disclosed:
    """What the log discloses anywhere in it, gathered before replaying.

    ``private_deals`` maps a step to its ``DealRevealed.private``. ``deals_complete`` is true
    once ``SeedRevealed`` is in the log: every private deal is disclosed before the seed, so
    a step without ``DealRevealed`` had no private part. ``reveals`` maps ``(step, player)``
    to the revealed payload. ``finished`` says whether ``MatchFinished`` is in the log: once
    it is, nothing more will be disclosed, so what is missing is missing for good.
    """

    seed: bytes | None = None
    private_deals: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    deals_complete: bool = False
    reveals: Mapping[tuple[int, str], Any] = field(default_factory=dict)
    finished: bool = False

    @classmethod
    def scan(cls, records: Iterable[Mapping[str, Any]]) -> Disclosed:
        """Gather the disclosures of a log (records that do not fit are skipped)."""
        return cls.of(PublicLog.of(records))

    @classmethod
    def of(cls, log: PublicLog) -> Disclosed:
        """The disclosures of a whole log, read from its :class:`~domain.public_log.PublicLog`."""
        deals = {n: s.private_deal for n, s in log.steps.items() if s.private_deal is not None}
        reveals = {
            (n, player): reveal.payload
            for n, step in log.steps.items()
            for player, reveal in step.reveals.items()
        }
        return cls(_seed_bytes(log.seed), deals, log.seed_revealed, reveals, log.finished)

    def private_deal(self, step: int) -> Mapping[str, Any] | None:
        """The private part of a step's deal, ``{}`` when it had none, ``None`` if unknown."""
        if step in self.private_deals:
            return self.private_deals[step]
        return _EMPTY if self.deals_complete else None


def _seed_bytes(value: Any) -> bytes | None:
    if not isinstance(value, str) or len(value) != 64:  # noqa: PLR2004 - 32 bytes in hex
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class ReplayContext:
    """What stays fixed while replaying one match: rules, match id, set-up and disclosures."""

    rules: Rules
    game: str
    rules_version: str
    match_id: str
    options: Mapping[str, Any]
    players: tuple[str, ...]
    disclosed: Disclosed

    @classmethod
    def from_records(
        cls, records: Sequence[Mapping[str, Any]], *, disclosed: Disclosed | None = None
    ) -> ReplayContext:
        """Read the set-up from the ``MatchCreated`` record and scan the disclosures.

        ``disclosed`` saves the scan when the caller has folded the records already.

        :raises ReplayError: if the first record is not a usable ``MatchCreated`` or the
            game is unknown.
        """
        if not records or records[0].get("type") != "MatchCreated":
            msg = "a match log starts with MatchCreated"
            raise ReplayError(msg)
        data = records[0].get("data")
        if not isinstance(data, dict):
            msg = "MatchCreated has no data"
            raise ReplayError(msg)
        game, version = data.get("game"), data.get("rules_version")
        try:
            rules = get_rules(game if isinstance(game, str) else "")
        except ValueError as exc:
            raise ReplayError(str(exc)) from None
        origin = data.get("origin")
        _, sep, match_id = (
            origin.rpartition(MATCH_PATH) if isinstance(origin, str) else ("", "", "")
        )
        try:
            match_id = canonical_match_id(match_id) if sep else ""
        except CommitmentError:
            match_id = ""
        if not match_id:
            msg = f"MatchCreated.origin {origin!r} does not end in /match/<match id>"
            raise ReplayError(msg)
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            msg = "MatchCreated.players is not a list of names"
            raise ReplayError(msg)
        options = data.get("options")
        return cls(
            rules=rules,
            game=str(game),
            rules_version=str(version),
            match_id=match_id,
            options=options if isinstance(options, dict) else {},
            players=tuple(players),
            disclosed=Disclosed.scan(records) if disclosed is None else disclosed,
        )

    def rng(self, purpose: str, entropy: Mapping[str, str]) -> Rng:
        """The stream for ``purpose``; one that refuses to draw while the seed is sealed."""
        seed = self.disclosed.seed
        if seed is None:
            return _SealedRng(purpose)
        return Rng(seed, self.match_id, purpose, dict(entropy))

    @property
    def expecting_more(self) -> bool:
        """Whether more disclosure is due (the match has not finished yet)."""
        return not self.disclosed.finished


class SeedSealed(Exception):
    """A draw was needed while the seed is still sealed."""


class _SealedRng(Rng):
    """An :class:`~domain.fairrand.Rng` stand-in that raises when anything is drawn."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose

    def read(self, n: int) -> bytes:
        del n
        raise SeedSealed(self.purpose)


__all__ = ["Disclosed", "ReplayContext", "ReplayError", "SeedSealed"]
