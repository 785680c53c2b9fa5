"""The ``structure`` check: the records come in protocol order and agree with the header.

Each record has exactly its type's fields (``docs/PROTOCOL.md`` section 3); times never go
backwards; steps open, seal and resolve in turn, and within a step the events come in their
order; no pick is committed after its step's deadline and no decision made after its own;
seats are claimed by their players and re-invited by the host; no commitment is used twice.
A step opens or seals by itself (``actor`` ``"system"``) only as the match's recorded
settings or a passed deadline say; a match ends early (``MatchEnded``) by its host with a
reason, and only disclosure records follow it.
Where the match stands comes from the public-record model (:mod:`domain.public_log`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain.match import format_time
from domain.match_settings import name_problem, reason_problem, settings_problem
from domain.rules import get_rules
from domain.rules.base import Disclosure
from domain.vocabulary import Custody, DealSource, StepStatus
from replay.verify.visitor import CheckVisitor, Shared, options_of

if TYPE_CHECKING:
    from collections.abc import Mapping

    from domain.public_log import PublicStep

_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
HEX64 = re.compile(r"[0-9a-f]{64}")
HOST = "host"
"""Who is asked a decision that no player makes (a custom game's declared winners)."""
# The fields of each record's data besides "actor" (PROTOCOL.md section 3): exactly these.
FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(names.split())
    for kind, names in {
        "MatchCreated": "game rules_version options players origin custody player_keys name "
        "settings",
        "SeedCommitted": "seed_hash",
        "PlayerJoined": "player entropy",
        "SeatClaimed": "player public_key",
        "SeatReinvited": "player",
        "StepOpened": "step kind submitters deadline deal_source deal view",
        "SubmissionCommitted": "step player commitment custody supersedes signature",
        "StepSealed": "step submitted missing",
        "DefaultApplied": "step player payload reason",
        "OpeningReceived": "step player commitment",
        "SubmissionRevealed": "step player commitment payload salt",
        "DecisionRequested": "step index player kind prompt default deadline",
        "DecisionMade": "step index player payload defaulted",
        "StepResolved": "step outcome view",
        "MatchFinished": "result",
        "MatchEnded": "reason",
        "DealRevealed": "step private",
        "SeedRevealed": "seed",
    }.items()
}
# Seats are claimed and re-invited at any time after SeedCommitted, even after the match
# ended; these records take no part in the order of steps.
_SEAT_TYPES = frozenset({"SeatClaimed", "SeatReinvited"})
_DEADLINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)")

# The order of events within a step (PROTOCOL.md section 3). A self-custody player whose
# opening never came gets the default after the openings that did come, so the two kinds of
# DefaultApplied have two ranks.
_RANK = {
    "StepOpened": 0, "SubmissionCommitted": 1, "StepSealed": 2, "missing": 3,
    "OpeningReceived": 4, "not-revealed": 5, "SubmissionRevealed": 6, "DecisionRequested": 7,
    "DecisionMade": 7, "StepResolved": 8,
}  # fmt: skip
# After the last step: MatchFinished, the at-end reveals, the private deals, the seed.
_AFTER = {
    "MatchFinished": 1, "MatchEnded": 1, "SubmissionRevealed": 2, "DealRevealed": 3,
    "SeedRevealed": 4,
}  # fmt: skip
# After MatchEnded, only these (PROTOCOL.md section 3, "An early end").
_DISCLOSURE = frozenset({"SubmissionRevealed", "DealRevealed", "SeedRevealed"})


class StructureCheck(CheckVisitor):
    """Protocol order, fields, times, deadlines and seats, record by record."""

    names = ("structure",)

    def __init__(self, shared: Shared) -> None:
        """Start with nothing seen."""
        super().__init__(shared)
        self.header = shared.header
        self.disclosure: Disclosure | None = None
        self.used: dict[str, int] = {}
        self.after = 0  # rank after the last step (_AFTER)
        self.last_type = ""  # of the last record besides seat records
        self.previous_type = ""  # last_type before this record
        self.reveal_step = 0
        self.deal_step = 0
        self.time = ""  # the last well-formed record time
        self.rank = 0  # of the current step (_RANK)
        self.deadline_due: str | None = None  # the current step's, as record times are written
        self.request_deadlines: list[str | None] = []  # of the current step's requests

    def bad(self, message: str) -> None:
        """A structure failure at this record."""
        self.fail("structure", self.seq, message)

    def accept(self, record: Mapping[str, Any], kind: Any, data: Any) -> bool:
        """Check what every record must be, then whether its type has a handler."""
        if not isinstance(data, dict):
            self.bad(f"record {self.seq} has no data object")
            return False
        if not isinstance(data.get("actor"), str):
            self.bad(f"record {self.seq} ({kind}) names no actor")
        self.check_time(record.get("at"))
        if self.seq == 0 and kind != "MatchCreated":
            self.bad("the log must start with MatchCreated")
        elif self.seq == 1 and kind != "SeedCommitted":
            self.bad("the second record must be SeedCommitted")
        if self.log.ended is not None and kind not in _DISCLOSURE:
            self.bad(
                f"{kind} comes after MatchEnded; only the disclosure records (SubmissionRevealed, "
                "DealRevealed, SeedRevealed) may follow an early end"
            )
        elif self.after == _AFTER["SeedRevealed"] and kind not in _SEAT_TYPES:
            self.bad(f"{kind} comes after SeedRevealed, which ends the log")
        if kind not in FIELDS:
            self.bad(f"record {self.seq} has the unknown type {kind!r}")
            return False
        extra = sorted(set(data) - FIELDS[kind] - {"actor"})
        if extra:
            self.bad(
                f"record {self.seq} ({kind}) has the field(s) {', '.join(map(repr, extra))}, "
                "which the protocol does not define for it"
            )
        self.previous_type = self.last_type
        if kind not in _SEAT_TYPES:
            self.last_type = str(kind)
        return True

    def malformed(self, kind: str, exc: Exception) -> None:
        """Report a record whose fields do not have their types."""
        self.bad(f"{kind} at {self.seq} is malformed: {type(exc).__name__}: {exc}")

    def check_time(self, at: Any) -> None:
        """``at`` is RFC 3339 UTC with microseconds and never before the record before."""
        if not isinstance(at, str) or not _TIME.fullmatch(at):
            self.bad(f"record {self.seq} has the time {at!r}, not RFC 3339 UTC with microseconds")
            return
        if self.time and at < self.time:  # this format orders as text does
            self.bad(
                f"record {self.seq} is at {at}, before the record before it ({self.time}): "
                "times never go backwards"
            )
        self.time = at

    def deadline(self, value: Any, what: str) -> str | None:
        """A deadline (RFC 3339 or null) written as record times are, to compare as text."""
        if value is None:
            return None
        if not isinstance(value, str) or not _DEADLINE.fullmatch(value):
            self.bad(f"{what} has the deadline {value!r}, not an RFC 3339 time or null")
            return None
        try:
            # The same parse as domain.match.parse_time, which the service applies.
            return format_time(datetime.fromisoformat(value.replace("Z", "+00:00")))  # noqa: FURB162
        except (ValueError, OverflowError):
            self.bad(f"{what} has the deadline {value!r}, which is not a time")
            return None

    # -- the set-up -------------------------------------------------------------------

    def on_MatchCreated(self, data: Mapping[str, Any]) -> None:  # noqa: N802 - event name
        """The first record: the header's origin, game and rules; players and custody."""
        if self.seq != 0:
            self.bad("MatchCreated appears again")
            return
        rules = self.header.get("rules", {})
        if data.get("origin") != self.header.get("origin"):
            self.bad(f"MatchCreated names the origin {data.get('origin')!r}, the bundle another")
        if data.get("game") != rules.get("game") or data.get("rules_version") != rules.get(
            "version"
        ):
            self.bad("MatchCreated's game and rules version are not the bundle's")
        try:
            self.disclosure = get_rules(data["game"]).disclosure_for(options_of(data))
        except ValueError as exc:
            self.bad(str(exc))
        players = data["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            self.bad("MatchCreated.players is not a list of names")
            players = []
        custody = data["custody"]
        if (
            not isinstance(custody, dict)
            or set(custody) != set(players)
            or not all(mode in (Custody.SEALED, Custody.SELF) for mode in custody.values())
        ):
            self.bad('MatchCreated.custody must give every player "sealed" or "self"')
        data["player_keys"]
        if ("name" in data) != ("settings" in data):
            self.bad("MatchCreated records its name and settings together, or neither")
        for problem in (
            name_problem(data["name"]) if "name" in data else None,
            settings_problem(data["settings"]) if "settings" in data else None,
        ):
            if problem is not None:
                self.bad(f"MatchCreated: {problem}")

    def on_PlayerJoined(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A player joins once, before the first deal if with entropy."""
        player, entropy = data["player"], data["entropy"]
        if player not in self.log.players:
            self.bad(f"{player!r} joins but is not a player")
        if player in self.log.joined:
            self.bad(f"{player!r} joins twice")
        if entropy is not None:
            if not isinstance(entropy, str) or not 1 <= len(entropy) <= 256:  # noqa: PLR2004
                self.bad(f"the entropy of {player!r} is not text of 1 to 256 characters")
            if self.log.opened:
                self.bad(f"{player!r} adds entropy after the first deal")

    def on_SeatClaimed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """Only the player claims a seat, once per invite."""
        player = data["player"]
        data["public_key"]
        if player not in self.log.players:
            self.bad(f"a seat is claimed for {player!r}, who is not a player")
            return
        if data["actor"] != player:
            self.bad(f"{player}'s seat is claimed by {data['actor']!r}; only the player claims it")
        if self.log.seats[player].claimed:
            self.bad(f"{player}'s seat is claimed again without a re-invite")

    def on_SeatReinvited(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """Only the host re-invites a seat."""
        player = data["player"]
        if player not in self.log.players:
            self.bad(f"a seat is re-invited for {player!r}, who is not a player")
            return
        if data["actor"] != "host":
            self.bad(
                f"{player}'s seat is re-invited by {data['actor']!r}; only the host re-invites"
            )

    # -- a step -----------------------------------------------------------------------

    def step(
        self, data: Mapping[str, Any], kind: str, *, phase: StepStatus = StepStatus.SEALED
    ) -> PublicStep | None:
        """The current step, if the record is about it and it is in ``phase``."""
        cur = self.log.current
        if cur is None or data["step"] != cur.number:
            self.bad(
                f"{kind} is about step {data['step']!r}, but step {cur.number if cur else None} "
                "is current"
            )
            return None
        if cur.status != phase:
            self.bad(f"{kind} in step {cur.number} while the step is {cur.status}")
            return None
        return cur

    def order(self, cur: PublicStep, kind: str, rank: int) -> None:
        """Events within a step come in protocol order."""
        if rank < self.rank:
            self.bad(
                f"{kind} comes too late in step {cur.number} (the order is StepOpened, "
                "commitments, StepSealed, defaults, openings, reveals, decisions, StepResolved)"
            )
        self.rank = max(self.rank, rank)

    def submitter(self, cur: PublicStep, player: Any, kind: str) -> bool:
        """Whether ``player`` is asked to submit in the step (a failure if not)."""
        if player not in cur.submitters:
            self.bad(f"{kind}: {player!r} is not asked to submit in step {cur.number}")
            return False
        return True

    def on_StepOpened(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """Steps open one after another, each after the last resolved."""
        number = data["step"]
        if self.log.finished:
            self.bad(f"step {number} opens after the match is over")
        cur = self.log.current
        if data["actor"] == "system":
            self.opened_by_itself(number, cur)
        if cur is not None and cur.status != StepStatus.RESOLVED:
            self.bad(f"step {number} opens before step {cur.number} resolved")
        expected = (cur.number if cur else 0) + 1
        if number != expected:
            self.bad(f"step {number} opens; the next step is {expected}")
        submitters = data["submitters"]
        if (
            not isinstance(submitters, list)
            or len(set(submitters)) != len(submitters)
            or any(p not in self.log.players for p in submitters)
        ):
            self.bad(f"step {number}'s submitters {submitters!r} are not distinct players")
        if data["deal_source"] not in tuple(DealSource):
            self.bad(f"step {number} has the deal_source {data['deal_source']!r}")
        if not isinstance(data["deal"], dict) or not isinstance(data["view"], dict):
            self.bad(f"step {number}'s deal and view must be objects")
        self.rank = 0
        self.request_deadlines = []
        self.deadline_due = self.deadline(data["deadline"], f"step {number}")

    def on_SubmissionCommitted(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A commitment in the open step, before its deadline, never used before."""
        cur = self.step(data, "SubmissionCommitted", phase=StepStatus.OPEN)
        player, value = data["player"], data["commitment"]
        if not isinstance(value, str) or not HEX64.fullmatch(value):
            self.bad("a commitment is 64 lowercase hex digits")
            return
        if value in self.used:
            self.bad(f"the commitment at {self.seq} was already used at {self.used[value]}")
        self.used.setdefault(value, self.seq)
        data["signature"]
        if cur is None or not self.submitter(cur, player, "SubmissionCommitted"):
            return
        if self.deadline_due is not None and self.time > self.deadline_due:
            self.bad(
                f"{player}'s submission at {self.seq} was committed at {self.time}, after step "
                f"{cur.number}'s deadline {self.deadline_due}"
            )
        self.order(cur, "SubmissionCommitted", _RANK["SubmissionCommitted"])
        custody = self.log.custody.get(player)
        if data["custody"] != custody:
            self.bad(
                f"{player}'s submission says custody {data['custody']!r}, the match says "
                f"{custody!r}"
            )
        earlier = cur.commitments.get(player)
        if data["supersedes"] != (earlier.commitment if earlier else None):
            self.bad(
                f"{player}'s submission supersedes {data['supersedes']!r}, but their commitment "
                f"was {earlier.commitment if earlier else None!r}"
            )

    def on_StepSealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """The seal lists who submitted and who is missing, as the commitments say."""
        cur = self.step(data, "StepSealed", phase=StepStatus.OPEN)
        if cur is None:
            return
        submitted, missing = list(cur.submitted), list(cur.missing)
        if data["submitted"] != submitted or data["missing"] != missing:
            self.bad(
                f"StepSealed of step {cur.number} lists submitted {data['submitted']} and missing "
                f"{data['missing']}; the commitments say {submitted} and {missing}"
            )
        self.order(cur, "StepSealed", _RANK["StepSealed"])
        passed = self.deadline_due is not None and self.time >= self.deadline_due
        everyone = self.log.settings["auto_seal"] and not missing
        if data["actor"] == "system" and not (passed or everyone):
            self.bad(
                f"step {cur.number} was sealed by the system before its deadline, and the "
                "match does not seal by itself once everyone has submitted (or someone had not)"
            )

    def opened_by_itself(self, number: Any, cur: PublicStep | None) -> None:
        """A step opened by the system: the settings say so, and every seat was claimed."""
        if not self.log.settings["auto_open"]:
            self.bad(
                f"step {number} was opened by the system, but the match's settings do not "
                "open steps by themselves"
            )
        elif cur is None and not all(seat.claimed for seat in self.log.seats.values()):
            self.bad(f"step {number} opened by itself before every seat was claimed")

    def on_DefaultApplied(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A default for a missing pick, or for a self-custody commitment never opened."""
        cur = self.step(data, "DefaultApplied")
        player, reason = data["player"], data["reason"]
        if cur is None or not self.submitter(cur, player, "DefaultApplied"):
            return
        if player in cur.defaults or player in cur.reveals:
            self.bad(f"{player} gets a default twice, or after their reveal, in step {cur.number}")
        if reason == "missing":
            if player not in cur.missing:
                self.bad(
                    f"{player} gets the default for a missing pick in step {cur.number} but "
                    "submitted"
                )
        elif reason == "not-revealed":
            if (
                self.log.custody.get(player) != Custody.SELF
                or player not in cur.commitments
                or player in cur.openings
            ):
                self.bad(
                    f"{player} gets the default for an unopened commitment in step {cur.number}, "
                    "but had nothing to open"
                )
        else:
            self.bad(f"DefaultApplied gives the unknown reason {reason!r}")
        self.order(cur, "DefaultApplied", _RANK.get(reason, 3))

    def on_OpeningReceived(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A self-custody player opens once, in the sealed step."""
        cur = self.step(data, "OpeningReceived")
        player = data["player"]
        if cur is None or not self.submitter(cur, player, "OpeningReceived"):
            return
        self.order(cur, "OpeningReceived", _RANK["OpeningReceived"])
        if self.log.custody.get(player) != Custody.SELF:
            self.bad(f"{player} is in sealed custody and sends no opening")
        if player in cur.openings or player in cur.defaults:
            self.bad(f"{player} opens twice, or after their default, in step {cur.number}")
        data["commitment"]

    def on_SubmissionRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A reveal in its step (or, for an at-end game, after the match, in step order)."""
        number, player = data["step"], data["player"]
        if self.disclosure is Disclosure.AT_END or self.log.ended is not None:
            target = self.log.step(number) if isinstance(number, int) else None
            if not self.log.finished:
                self.bad(
                    f"{player}'s pick of step {number} is revealed before the match ends; this "
                    "game reveals at the end"
                )
            elif target is None or number < self.reveal_step:
                self.bad(f"the reveal of step {number!r} is out of step order")
            self.after_rank("SubmissionRevealed")
            self.reveal_step = max(self.reveal_step, number if isinstance(number, int) else 0)
        else:
            target = self.step(data, "SubmissionRevealed")
            if target is not None:
                self.order(target, "SubmissionRevealed", _RANK["SubmissionRevealed"])
        if target is None or not self.submitter(target, player, "SubmissionRevealed"):
            return
        if player in target.defaults:
            self.bad(f"{player} got the default in step {number}, yet a pick is revealed")
        if player in target.reveals:
            self.bad(f"{player}'s pick of step {number} is revealed twice")
        if self.log.custody.get(player) == Custody.SELF and player not in target.openings:
            self.bad(
                f"{player}'s self-custody pick of step {number} is revealed without their opening"
            )
        if player in target.commitments:
            data["commitment"]

    def on_DecisionRequested(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """One request at a time, numbered in turn, of a player."""
        cur = self.step(data, "DecisionRequested")
        if cur is None:
            return
        self.order(cur, "DecisionRequested", _RANK["DecisionRequested"])
        if len(cur.requests) != len(cur.decisions):
            self.bad(f"a decision is requested in step {cur.number} before the last one was made")
        if data["index"] != len(cur.requests):
            self.bad(
                f"decision request {data['index']!r} of step {cur.number} should be number "
                f"{len(cur.requests)}"
            )
        if data["player"] not in (*self.log.players, HOST):
            self.bad(f"a decision is requested of {data['player']!r}, who is not a player")
        what = f"decision request {data['index']!r} of step {cur.number}"
        self.request_deadlines.append(self.deadline(data["deadline"], what))

    def on_DecisionMade(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """The answer to the open request, by its player, before its deadline."""
        cur = self.step(data, "DecisionMade")
        if cur is None:
            return
        self.order(cur, "DecisionMade", _RANK["DecisionMade"])
        index = len(cur.decisions)
        if (
            index >= len(cur.requests)
            or data["index"] != index
            or data["player"] != cur.requests[index].player
        ):
            self.bad(
                f"decision {data['index']!r} by {data['player']!r} in step {cur.number} answers "
                "no open request"
            )
        if not isinstance(data["defaulted"], bool) or not isinstance(data["payload"], dict):
            self.bad("a decision has a payload object and a defaulted flag")
        if data["player"] == HOST and data["defaulted"] is False and data["actor"] != HOST:
            self.bad(f"the host's declaration in step {cur.number} is made by {data['actor']!r}")
        due = self.request_deadlines[index] if index < len(self.request_deadlines) else None
        if data["defaulted"] is False and due is not None and self.time > due:
            self.bad(
                f"decision {index} of step {cur.number} was made at {self.time}, after its "
                f"deadline {due} (only its default may come later)"
            )

    def on_StepResolved(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """A step resolves with every decision made and every pick opened or defaulted."""
        cur = self.step(data, "StepResolved")
        if cur is None:
            return
        self.order(cur, "StepResolved", _RANK["StepResolved"])
        if len(cur.requests) != len(cur.decisions):
            self.bad(f"step {cur.number} resolves with a decision still open")
        for player in cur.submitters:
            if player in cur.defaults:
                continue
            if player not in cur.commitments:
                self.bad(f"step {cur.number} resolves without a pick or default for {player}")
            elif self.log.custody.get(player) == Custody.SELF and player not in cur.openings:
                self.bad(f"step {cur.number} resolves without {player}'s opening or default")

    # -- after the last step ----------------------------------------------------------

    def after_rank(self, kind: str) -> None:
        """After the match: MatchFinished, reveals, DealRevealed, SeedRevealed, in order."""
        rank = _AFTER[kind]
        if rank < self.after:
            self.bad(
                f"{kind} comes too late (after the match: MatchFinished, reveals, DealRevealed, "
                "SeedRevealed)"
            )
        self.after = max(self.after, rank)

    def on_MatchFinished(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """The match finishes once, right after its last step resolved."""
        if self.log.finished:
            self.bad("MatchFinished appears again")
        elif self.previous_type != "StepResolved":
            self.bad("MatchFinished must follow the last StepResolved")
        if not isinstance(data["result"], dict):
            self.bad("MatchFinished.result must be an object")
        self.after_rank("MatchFinished")

    def on_MatchEnded(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """The host ends the match early, once, with a reason; disclosure follows."""
        if self.log.finished:
            self.bad("MatchEnded comes after the match is over")
        if data["actor"] != "host":
            self.bad(f"the match is ended by {data['actor']!r}; only the host ends a match early")
        problem = reason_problem(data["reason"])
        if problem is not None:
            self.bad(f"MatchEnded: {problem}")
        self.after_rank("MatchEnded")

    def on_DealRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """Each private deal is disclosed once, after the match, in step order."""
        number = data["step"]
        if not self.log.finished:
            self.bad(f"the private deal of step {number} is revealed before the match ends")
        self.after_rank("DealRevealed")
        step = self.log.step(number) if isinstance(number, int) else None
        if step is None or step.deal_source == DealSource.NONE or number <= self.deal_step:
            self.bad(
                f"DealRevealed for step {number!r}, which dealt nothing or was revealed already"
            )
        if not isinstance(data["private"], dict):
            self.bad("DealRevealed.private must be an object")
        self.deal_step = max(self.deal_step, number if isinstance(number, int) else 0)

    def on_SeedRevealed(self, data: Mapping[str, Any]) -> None:  # noqa: N802
        """The seed is revealed last, after the match."""
        if not self.log.finished:
            self.bad("the seed is revealed before the match ends")
        self.after_rank("SeedRevealed")
        data["seed"]

    # -- the end of the log -----------------------------------------------------------

    def end(self) -> None:
        """A log starts with two records; say what the log held."""
        n = self.seq + 1
        if n < 2:  # noqa: PLR2004 - MatchCreated and SeedCommitted
            self.fail("structure", n, "the log must start with MatchCreated and SeedCommitted")
        self.summary(
            "structure",
            f"{n} events in protocol order, {len(self.log.steps)} step(s)"
            + (
                ", ended early by the host"
                if self.log.ended is not None
                else ", finished"
                if self.log.finished
                else ", under way"
            ),
        )


__all__ = ["FIELDS", "HEX64", "StructureCheck"]
