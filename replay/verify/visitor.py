"""Visitors over a bundle, and the base of the verifier's checks.

A visitor is modelled on python-chess's ``BaseVisitor``: :func:`walk` calls
``begin(header)``, then ``visit(record)`` for every record in order, then ``end()``, and
returns ``result()``. Each check of the verifier is a :class:`CheckVisitor` with its own
verdict; :class:`~replay.verify.BundleVerifier` composes them over one walk.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from domain.public_log import PublicLog
from replay.verify.verdict import Tally

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from domain.public_log import PublicStep
    from domain.signed_note import Verifier
    from domain.vocabulary import StepStatus
    from replay.verify.verdict import Check

ResultT = TypeVar("ResultT")
_UNKNOWN: Any = object()


class Visitor(ABC, Generic[ResultT]):
    """Base of bundle visitors: ``begin``, ``visit`` each record, ``end``, ``result``."""

    def begin(self, header: Mapping[str, Any]) -> None:
        """Called first with the bundle without its records (plus ``"size"``: their count)."""

    def visit(self, record: Mapping[str, Any]) -> None:
        """Called for each record, in order."""

    def end(self) -> None:
        """Called after the last record."""

    @abstractmethod
    def result(self) -> ResultT:
        """Return what the visitor found."""


def walk(bundle: Mapping[str, Any], visitor: Visitor[ResultT]) -> ResultT:
    """Drive ``visitor`` over a bundle and return its result."""
    records = bundle["records"]
    header = {k: v for k, v in bundle.items() if k != "records"}
    header["size"] = len(records)
    visitor.begin(header)
    visit = visitor.visit
    for record in records:
        visit(record)
    visitor.end()
    return visitor.result()


@dataclass
class Shared:
    """What the checks of one walk share: the pinned key, the fold of the records so far.

    ``log`` is the public-record model (:class:`~domain.public_log.PublicLog`) of the
    records *before* the one being visited: a check reads where the match stood, and the
    walk folds the record in after every check has seen it. ``records`` holds every record
    visited (for the checks that replay the match at the end); ``tick`` counts work.
    """

    trusted: Verifier | None = None
    extra_receipts: list[Mapping[str, Any]] = field(default_factory=list)
    log: PublicLog = field(default_factory=PublicLog)
    records: list[Mapping[str, Any]] = field(default_factory=list)
    tick: Callable[[], None] = lambda: None
    header: Mapping[str, Any] = field(default_factory=dict)


class CheckVisitor(Visitor[tuple["Check", ...]]):
    """One of the verifier's checks (or two answered by one piece of work).

    ``names`` are the checks it answers; each has a :class:`~replay.verify.verdict.Tally`
    collecting its findings, and ``result()`` is their verdicts. A record's handler is the
    method ``on_<Type>(data)``, called with the record's ``data`` object (``seq`` is set
    first); a handler that meets a malformed record (a missing field, a value of
    the wrong type) stops there and :meth:`malformed` is told.
    """

    names: ClassVar[tuple[str, ...]]
    needs_log: ClassVar[bool] = True  # reads the public-record model
    per_record: ClassVar[bool] = True  # has something to do for each record

    def __init__(self, shared: Shared) -> None:
        """Start with a tally for each of ``names`` and no record visited."""
        self.shared = shared
        self.tallies = {name: Tally(name) for name in self.names}
        self.seq = -1
        self._handlers: dict[str, Callable[[Mapping[str, Any]], None] | None] = {}

    @property
    def log(self) -> PublicLog:
        """The public-record model before the record being visited."""
        return self.shared.log

    def visit(self, record: Mapping[str, Any]) -> None:
        """Dispatch the record to its ``on_<Type>`` handler."""
        self.seq += 1
        kind: Any = record.get("type")
        data: Any = record.get("data")
        if not self.accept(record, kind, data):
            return
        handler = self._handlers.get(kind, _UNKNOWN)
        if handler is _UNKNOWN:  # first record of this type: look its handler up once
            handler = self._handlers[kind] = getattr(self, f"on_{kind}", None)
        if handler is None:
            return
        try:
            handler(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self.malformed(str(kind), exc)

    def accept(self, record: Mapping[str, Any], kind: Any, data: Any) -> bool:
        """Whether to handle the record (by default: a known type with a data object)."""
        del record
        return isinstance(kind, str) and isinstance(data, dict)

    def malformed(self, kind: str, exc: Exception) -> None:
        """A handler met a malformed record (the structure check reports it)."""

    def fail(
        self, check: str, seq: int | None, message: str, seq_range: tuple[int, int] | None = None
    ) -> None:
        """Record a failure of ``check``."""
        self.tallies[check].fail(seq, message, seq_range)

    def pend(self, check: str, message: str) -> None:
        """Record that ``check`` waits for disclosure."""
        self.tallies[check].pend(message)

    def summary(self, check: str, text: str) -> None:
        """Set the detail shown when ``check`` passes."""
        self.tallies[check].summary = text

    def result(self) -> tuple[Check, ...]:
        """The verdict of each check this visitor answers."""
        return tuple(tally.check() for tally in self.tallies.values())


def options_of(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The options a ``MatchCreated`` record gives (``{}`` when they are not an object)."""
    options = data.get("options")
    return options if isinstance(options, dict) else {}


def current_step(log: PublicLog, data: Mapping[str, Any], phase: StepStatus) -> PublicStep | None:
    """The current step, if the record is about it and it is in ``phase``."""
    step = log.current
    if step is None or data["step"] != step.number or step.status != phase:
        return None
    return step


__all__ = ["CheckVisitor", "Shared", "Visitor", "current_step", "options_of", "walk"]
