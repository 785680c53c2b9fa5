"""A match's name and settings, and the reason of an early end (:mod:`domain.match`).

``MatchCreated`` records the match's public ``name`` and its ``settings``: whether the next
step opens by itself (``auto_open``: the first once every seat is claimed, each next one as
soon as the last resolves), whether a step seals itself as soon as everyone asked has
submitted (``auto_seal``), and the deadline of a step opened by itself (``step_seconds``, or
``None``: no deadline). A match created without them (scenarios, matches made before they
existed) records neither field, and reads as no name and every setting off.

``MatchEnded`` records the host's reason for ending a match early.

The checks here are the aggregate's and the verifier's alike: one rule, written once.

>>> match_name("  Friday night  ")
'Friday night'
>>> settings_problem({"auto_open": True, "auto_seal": True, "step_seconds": 10})
'settings.step_seconds is a whole number from 30 to 86400, or null for no deadline'
>>> recorded_settings(None) == SETTINGS_OFF
True
"""

from __future__ import annotations

import unicodedata
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from domain.match_errors import MatchError

if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_NAME = 80
MAX_REASON = 300
MIN_STEP_SECONDS = 30
MAX_STEP_SECONDS = 86400  # 24 hours
SETTING_NAMES = ("auto_open", "auto_seal", "step_seconds")
SETTINGS_OFF: Mapping[str, Any] = MappingProxyType(
    {"auto_open": False, "auto_seal": False, "step_seconds": None}
)
"""The settings of a match that records none: nothing happens by itself, no step deadline."""

_CONTROL = frozenset({"Cc", "Cf", "Cs"})  # control, format (bidi overrides...), surrogates


def _control_problem(text: str, what: str, *, lines: bool) -> str | None:
    for char in text:
        if unicodedata.category(char) in _CONTROL and not (lines and char == "\n"):
            return f"{what} holds the control character U+{ord(char):04X}; use plain text"
    return None


def name_problem(value: Any) -> str | None:
    """Why ``value`` is not a recorded match name (``None``: it is one)."""
    if not isinstance(value, str):
        return "the match name is text"
    if value != value.strip():
        return "the match name has no spaces before or after it"
    if len(value) > MAX_NAME:
        return f"the match name is at most {MAX_NAME} characters (it has {len(value)})"
    return _control_problem(value, "the match name", lines=False)


def match_name(value: Any) -> str:
    """The match name to record: ``value`` trimmed ("" for none).

    :raises MatchError: when it is not text, too long or holds control characters.
    """
    text = value.strip() if isinstance(value, str) else value
    problem = name_problem(text)
    if problem is not None:
        raise MatchError(problem)
    return str(text)


def settings_problem(value: Any) -> str | None:
    """Why ``value`` is not a recorded settings object (``None``: it is one)."""
    if not isinstance(value, dict) or set(value) != set(SETTING_NAMES):
        return "settings is an object of exactly auto_open, auto_seal and step_seconds"
    for flag in ("auto_open", "auto_seal"):
        if not isinstance(value[flag], bool):
            return f"settings.{flag} is true or false"
    seconds = value["step_seconds"]
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not MIN_STEP_SECONDS <= seconds <= MAX_STEP_SECONDS
    ):
        return (
            f"settings.step_seconds is a whole number from {MIN_STEP_SECONDS} to "
            f"{MAX_STEP_SECONDS}, or null for no deadline"
        )
    return None


def match_settings(
    *, auto_open: bool = False, auto_seal: bool = False, step_seconds: int | None = None
) -> dict[str, Any]:
    """The settings to record.

    :raises MatchError: for a setting out of its bounds.
    """
    value = {"auto_open": auto_open, "auto_seal": auto_seal, "step_seconds": step_seconds}
    problem = settings_problem(value)
    if problem is not None:
        raise MatchError(problem)
    return value


def recorded_settings(value: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settings a ``MatchCreated`` says (none recorded: :data:`SETTINGS_OFF`)."""
    return dict(SETTINGS_OFF if value is None else value)


def reason_problem(value: Any) -> str | None:
    """Why ``value`` is not a recorded reason for an early end (``None``: it is one)."""
    if not isinstance(value, str) or not value.strip():
        return f"the reason for ending the match is text of 1 to {MAX_REASON} characters"
    if value != value.strip():
        return "the reason has no spaces before or after it"
    if len(value) > MAX_REASON:
        return f"the reason is at most {MAX_REASON} characters (it has {len(value)})"
    return _control_problem(value, "the reason", lines=True)


def end_reason(value: Any) -> str:
    """The reason to record for an early end: ``value`` trimmed.

    :raises MatchError: when it is empty, too long or holds control characters.
    """
    text = value.strip() if isinstance(value, str) else value
    problem = reason_problem(text)
    if problem is not None:
        raise MatchError(problem)
    return str(text)


__all__ = [
    "MAX_NAME",
    "MAX_REASON",
    "MAX_STEP_SECONDS",
    "MIN_STEP_SECONDS",
    "SETTINGS_OFF",
    "SETTING_NAMES",
    "end_reason",
    "match_name",
    "match_settings",
    "name_problem",
    "reason_problem",
    "recorded_settings",
    "settings_problem",
]
