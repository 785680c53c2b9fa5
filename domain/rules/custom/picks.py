"""A custom game's picks: checking a payload against the fields, the legal picks, bot picks.

A pick's normal form lists every field of the design in design order; an optional field
left out or ``null`` is ``null``. The legal picks of a design can be astronomically many
(an integer field of 2,000,001 values times a free text), so they are a lazy product of
indexable value lists (:class:`Values`) that never materialise, and their number has a
closed form.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.rules.base import RulesError, describe, describe_keys, is_name, list_names
from domain.rules.custom.design import is_text
from domain.rules.schema import FieldKind, PickField

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from domain.fairrand import Rng

Field = dict[str, Any]

# Code points a text may hold: every one but the surrogates (U+D800 to U+DFFF).
_SURROGATES = range(0xD800, 0xE000)
CODE_POINTS = 0x110000 - len(_SURROGATES)
BOT_LETTERS = "abcdefghijklmnopqrstuvwxyz"
BOT_TEXT = 12  # a bot's text is at most this long
BOT_SKIPS = 4  # a bot leaves an optional field empty one time in this many


def _code_point(index: int) -> str:
    """Return the ``index``-th code point that is not a surrogate."""
    return chr(index if index < _SURROGATES.start else index + len(_SURROGATES))


def _field_words(field: Field) -> str:
    return f'the field "{field["name"]}"'


def check_value(
    field: Field,
    value: object,
    *,
    players: Sequence[str] | None,
    player: str | None,
    error: type[RulesError],
) -> object:
    """Return ``value`` if it is valid for ``field`` (``None`` only for an optional field).

    ``players`` (the match's) and ``player`` (who picks) are ``None`` when not known yet:
    a player field then takes any name.

    :raises error: naming the field.
    """
    what = _field_words(field)
    if value is None:
        if field["optional"]:
            return None
        msg = f"{what} needs a value; only an optional field may be left empty"
        raise error(msg)
    kind = field["kind"]
    if kind == "integer":
        low, high = field["min"], field["max"]
        if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
            msg = f"{what} is a whole number from {low} to {high}, not {describe(value)}"
            raise error(msg)
    elif kind == "choice":
        if not isinstance(value, str) or value not in field["choices"]:
            msg = f"{what} is one of {list_names(field['choices'])}, not {describe(value)}"
            raise error(msg)
    elif kind == "player":
        _check_player(field, value, players, player, error)
    elif kind == "ranking":
        _check_ranking(field, value, error)
    elif not (is_text(value) and 1 <= len(value) <= field["max_length"]):  # type: ignore[arg-type]
        msg = f"{what} is a text of 1 to {field['max_length']} characters, not {describe(value)}"
        raise error(msg)
    return value


def _check_player(
    field: Field,
    value: object,
    players: Sequence[str] | None,
    player: str | None,
    error: type[RulesError],
) -> None:
    what = _field_words(field)
    if players is None:
        if not is_name(value):
            msg = f"{what} names a player, not {describe(value)}"
            raise error(msg)
        return
    allowed = [p for p in players if field["self"] or p != player]
    if value not in allowed:
        whom = "a player of the match" if field["self"] else "a player of the match other than you"
        if player is None:
            whom = "a player of the match"
        msg = f"{what} names {whom} ({list_names(allowed)}), not {describe(value)}"
        raise error(msg)


def _check_ranking(field: Field, value: object, error: type[RulesError]) -> None:
    what = _field_words(field)
    length = field["length"]
    if not isinstance(value, list) or len(value) != length:
        msg = f"{what} is a list of {length} different choices in order, not {describe(value)}"
        if isinstance(value, list):
            msg = f"{what} ranks exactly {length} choices, not {len(value)}"
        raise error(msg)
    for item in value:
        if not isinstance(item, str) or item not in field["choices"]:
            msg = f"{what} ranks choices among {list_names(field['choices'])}, not {describe(item)}"
            raise error(msg)
    if len(set(value)) != length:
        msg = f"{what} ranks each choice at most once"
        raise error(msg)


def check_payload(
    fields: Sequence[Field],
    payload: object,
    *,
    players: Sequence[str] | None,
    player: str | None,
    error: type[RulesError],
    what: str = "a pick",
) -> dict[str, Any]:
    """Return ``payload`` in normal form: every field, in design order, ``null`` when empty.

    :raises error: for anything but an object with exactly the fields' names (an optional
        one may be missing or null), each valid for its field; the message names the field.
    """
    names = [field["name"] for field in fields]
    if not isinstance(payload, dict):
        msg = f"{what} is an object with the fields {', '.join(names)}, not {describe(payload)}"
        raise error(msg)
    unknown = [key for key in payload if key not in names]
    if unknown:
        word = "field" if len(unknown) == 1 else "fields"
        msg = (
            f"{what} has the unknown {word} {describe_keys(unknown)}; "
            f"its fields are {', '.join(names)}"
        )
        raise error(msg)
    normal: dict[str, Any] = {}
    for field in fields:
        if field["name"] not in payload and not field["optional"]:
            msg = f'{what} needs the field "{field["name"]}"'
            raise error(msg)
        value = payload.get(field["name"])
        try:
            normal[field["name"]] = check_value(
                field, value, players=players, player=player, error=error
            )
        except error as exc:
            if what == "a pick":
                raise
            msg = f"in {what}, {exc}"
            raise error(msg) from None
    return normal


def pick_field(field: Field) -> PickField:
    """Return ``field`` of a design as a pick's field for forms and docs, in plain words."""
    kind = field["kind"]
    if kind == "integer":
        meaning, shape = f"a whole number from {field['min']} to {field['max']}", FieldKind.INTEGER
    elif kind == "choice":
        meaning, shape = f"one of {list_names(field['choices'])}", FieldKind.TEXT
    elif kind == "player":
        meaning = "a player of the match" if field["self"] else "another player of the match"
        shape = FieldKind.TEXT
    elif kind == "ranking":
        meaning = f"{field['length']} of {list_names(field['choices'])}, in order"
        shape = FieldKind.TEXT_LIST
    else:
        meaning, shape = f"a text of up to {field['max_length']} characters", FieldKind.TEXT
    if field["optional"]:
        meaning += " (or nothing)"
    return PickField(
        field["name"], shape, meaning, required=not field["optional"], nullable=field["optional"]
    )


# --- The legal picks, lazily --------------------------------------------------------------


@dataclass(frozen=True)
class Values:
    """An indexable list of ``size`` values (``at(i)``), never materialised.

    ``size`` may exceed what ``len()`` can return, so it is a plain attribute.
    """

    size: int
    at: Callable[[int], Any]


def _ranking_at(choices: Sequence[str], length: int, index: int) -> list[str]:
    """Return the ``index``-th ordered selection of ``length`` of ``choices`` (lexicographic)."""
    left = list(choices)
    out: list[str] = []
    for place in range(length):
        block = math.perm(len(left) - 1, length - place - 1)
        position, index = divmod(index, block)
        out.append(left.pop(position))
    return out


def _text_at(longest: int, index: int) -> str:
    """Return the ``index``-th text of 1 to ``longest`` code points (shortest first)."""
    length = 1
    while index >= CODE_POINTS**length and length < longest:
        index -= CODE_POINTS**length
        length += 1
    letters = []
    for _ in range(length):
        index, digit = divmod(index, CODE_POINTS)
        letters.append(_code_point(digit))
    return "".join(reversed(letters))


def field_values(field: Field, players: Sequence[str], player: str) -> Values:
    """Return the values ``player`` may give ``field`` (``None`` first when optional)."""
    kind = field["kind"]
    if kind == "integer":
        low = field["min"]
        values = Values(field["max"] - low + 1, lambda i: low + i)
    elif kind == "choice":
        choices = field["choices"]
        values = Values(len(choices), choices.__getitem__)
    elif kind == "player":
        allowed = [p for p in players if field["self"] or p != player]
        values = Values(len(allowed), allowed.__getitem__)
    elif kind == "ranking":
        choices, length = field["choices"], field["length"]
        values = Values(math.perm(len(choices), length), lambda i: _ranking_at(choices, length, i))
    else:
        longest = field["max_length"]
        size = sum(CODE_POINTS**n for n in range(1, longest + 1))
        values = Values(size, lambda i: _text_at(longest, i))
    if not field["optional"]:
        return values
    inner = values
    return Values(inner.size + 1, lambda i: None if i == 0 else inner.at(i - 1))


def generate_picks(
    fields: Sequence[Field], players: Sequence[str], player: str
) -> Iterator[dict[str, Any]]:
    """Yield every legal pick of ``player`` in normal form, each once, the last field fastest."""
    lists = [field_values(field, players, player) for field in fields]
    if any(values.size == 0 for values in lists):
        return
    names = [field["name"] for field in fields]
    indices = [0] * len(lists)
    while True:
        yield {name: values.at(i) for name, values, i in zip(names, lists, indices, strict=True)}
        place = len(lists) - 1
        while place >= 0:
            indices[place] += 1
            if indices[place] < lists[place].size:
                break
            indices[place] = 0
            place -= 1
        if place < 0:
            return


def count_picks(fields: Sequence[Field], players: Sequence[str], player: str) -> int:
    """Return how many legal picks ``player`` has (the product of each field's count)."""
    return math.prod(field_values(field, players, player).size for field in fields)


def bot_value(field: Field, players: Sequence[str], player: str, rng: Rng) -> object:
    """Return a random valid value of ``field`` (sometimes ``None`` when optional)."""
    if field["optional"] and rng.below(BOT_SKIPS) == 0:
        return None
    kind = field["kind"]
    if kind == "integer":
        return field["min"] + rng.below(field["max"] - field["min"] + 1)
    if kind == "choice":
        return rng.choice(field["choices"])
    if kind == "player":
        allowed = [p for p in players if field["self"] or p != player]
        return rng.choice(allowed) if allowed else None
    if kind == "ranking":
        return rng.shuffled(field["choices"])[: field["length"]]
    length = 1 + rng.below(min(field["max_length"], BOT_TEXT))
    return "".join(rng.choice(BOT_LETTERS) for _ in range(length))
