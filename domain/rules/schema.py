"""What a game declares about itself for the generic layers: options, pick fields, legal picks.

A new-match form is built from a game's :class:`Option` list, a pick form and the docs from
its :class:`PickField` list, and a player's choices from its :class:`LegalPicks` view, so no
page, API or CLI needs to know a game by name.

:class:`LegalPicks` is a lazy view like python-chess's ``LegalMoveGenerator``: iterating
generates the picks one at a time (a Grid Adaptation round has millions), ``in`` asks
:meth:`~domain.rules.base.Rules.is_legal`, and ``any()`` stops at the first.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    from domain.rules.base import Rules

JSON = Any
Payload = dict[str, Any]


class OptionKind(enum.StrEnum):
    """The kind of value an option takes (the form control it needs)."""

    BOOL = "bool"  # true or false
    INTEGER = "integer"  # a whole number from ``minimum`` to ``maximum``
    CHOICE = "choice"  # one of ``choices`` (``null`` among them when it may be left unset)
    NAMES = "names"  # a list of ``minimum`` to ``maximum`` distinct names
    PER_PLAYER_INTEGER = "per-player-integer"  # {player: whole number from minimum to maximum}
    TEXT = "text"  # a text of ``minimum`` to ``maximum`` characters
    DESIGN = "design"  # a JSON value the game's own editor builds (a custom game's fields)


@dataclass(frozen=True)
class Option:
    """One match option, as a new-match form offers it.

    ``default`` is what ``normalise_options({})`` records for it. When ``filled`` is false
    the option is left out of the record when not given and set-up works its value out
    from the players (a vote's candidates); ``default`` is then ``None`` and
    ``description`` says what applies.

    >>> Option("start_points", OptionKind.INTEGER, 66, "points at the start", 1, 1000)
    Option(name='start_points', kind=<OptionKind.INTEGER: 'integer'>, default=66, \
description='points at the start', minimum=1, maximum=1000, choices=(), filled=True)
    """

    name: str
    kind: OptionKind
    default: JSON
    description: str  # plain words, one sentence
    minimum: int | None = None  # INTEGER, PER_PLAYER_INTEGER: the value; NAMES: the length
    maximum: int | None = None
    choices: tuple[JSON, ...] = ()  # CHOICE only
    filled: bool = True

    def as_json(self) -> dict[str, JSON]:
        """Return the option as a JSON object for a form or the API.

        >>> Option("virtual_player", OptionKind.BOOL, True, "a virtual player joins").as_json()
        {'name': 'virtual_player', 'kind': 'bool', 'default': True, \
'description': 'a virtual player joins', 'minimum': None, 'maximum': None, 'choices': [], \
'filled': True}
        """
        return {
            "name": self.name,
            "kind": self.kind.value,
            "default": self.default,
            "description": self.description,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices),
            "filled": self.filled,
        }


class FieldKind(enum.StrEnum):
    """The kind of value a pick's field holds."""

    INTEGER = "integer"  # a whole number (a 6 nimmt! card, a priority, a bit index)
    TEXT = "text"  # one name from the game's vocabulary (a card, a square, a cell, a player)
    TEXT_LIST = "text-list"  # an ordered list of such names


@dataclass(frozen=True)
class PickField:
    """One field of a pick's payload, for forms and docs.

    ``required`` fields must be sent; the others take their default when left out.
    ``nullable`` fields may be ``null`` (no ban, no reserve tile, no flip).

    >>> PickField("card", FieldKind.INTEGER, "the card of your hand you play").as_json()
    {'name': 'card', 'kind': 'integer', 'meaning': 'the card of your hand you play', \
'required': True, 'nullable': False}
    """

    name: str
    kind: FieldKind
    meaning: str  # plain words
    required: bool = True
    nullable: bool = False

    def as_json(self) -> dict[str, JSON]:
        """Return the field as a JSON object for a form or the API."""
        return {
            "name": self.name,
            "kind": self.kind.value,
            "meaning": self.meaning,
            "required": self.required,
            "nullable": self.nullable,
        }


_SHOWN_PICKS = 3  # picks shown by a view's repr


class LegalPicks:
    """A lazy view of a player's legal picks in one state (python-chess ``legal_moves``).

    Iterating yields each legal pick once, in the normalised form ``check_pick`` returns,
    generating it only when asked; ``payload in view`` is ``rules.is_legal``; ``any()``
    stops at the first pick; ``count()`` (and ``len``) use the game's closed form where it
    has one, else count by iterating.
    """

    def __init__(self, rules: Rules, state: dict[str, Any], player: str) -> None:
        """Make the view of ``player``'s picks in ``state`` (nothing is generated yet)."""
        self.rules = rules
        self.state = state
        self.player = player

    def __iter__(self) -> Iterator[Payload]:
        """Generate the legal picks, one at a time."""
        return self.rules.generate_legal_picks(self.state, self.player)

    def __contains__(self, payload: object) -> bool:
        """Whether ``payload`` is a legal pick (any spelling ``check_pick`` accepts)."""
        return self.rules.is_legal(self.state, self.player, payload)

    def any(self) -> bool:
        """Whether there is at least one legal pick (generates at most one)."""
        return next(iter(self), None) is not None

    def __bool__(self) -> bool:
        """Whether there is at least one legal pick."""
        return self.any()

    def count(self) -> int:
        """Return how many legal picks there are."""
        return self.rules.count_legal_picks(self.state, self.player)

    def __len__(self) -> int:
        """Return how many legal picks there are (see :meth:`count`)."""
        return self.count()

    def __repr__(self) -> str:
        """Show the game, the player and the first few picks."""
        first = list(itertools.islice(self, _SHOWN_PICKS + 1))
        shown = ", ".join(repr(pick) for pick in first[:_SHOWN_PICKS])
        if len(first) > _SHOWN_PICKS:
            shown += ", ..."
        return f"<LegalPicks of {self.rules.name} for {self.player!r} ({shown})>"
