"""A custom game's design: the options a host writes, checked and normalised (RULINGS.md §5).

See :mod:`domain.rules.custom` for the rules and every reading chosen where §5 is silent.
Every list and text is bounded before it is walked, and every refusal is a
:class:`~domain.rules.base.BadOptions` with one plain sentence naming the setting.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    BadOptions,
    Disclosure,
    check_options_object,
    check_whole,
    describe,
    describe_keys,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

# --- The bounds of §5 -------------------------------------------------------------------

MIN_ROUNDS, MAX_ROUNDS = 1, 50
MIN_FIELDS, MAX_FIELDS = 1, 8
MAX_FIELD_NAME = 32
FIELD_NAME = re.compile(r"[a-z0-9_]{1,32}")
LIMIT = 10**6  # integer fields: -LIMIT <= min <= max <= LIMIT
MIN_CHOICES, MAX_CHOICES = 2, 40
MAX_CHOICE_LENGTH = 40
MAX_TEXT_LENGTH = 500
MIN_PLAYERS, MAX_PLAYERS = 2, 30
# --- Readings where §5 is silent ---------------------------------------------------------
MAX_TITLE = 100  # a title is 1 to 100 printable characters
MAX_POINTS = 1000  # a step's winners gain 0 to 1000 points
DEFAULT_TITLE = "Custom game"
DEFAULT_ROUNDS = 3
DEFAULT_POINTS = 1

KINDS = ("integer", "choice", "player", "ranking", "text")
RESOLVERS = ("lowest-unique", "highest-unique", "plurality", "host")
UNIQUE_RESOLVERS = ("lowest-unique", "highest-unique")
AT_RESOLVE, AT_END = "at-resolve", "at-end"
DISCLOSURES = (AT_RESOLVE, AT_END)
DISCLOSURE = {AT_RESOLVE: Disclosure.ON_RESOLVE, AT_END: Disclosure.AT_END}

OPTION_NAMES = ("title", "rounds", "fields", "resolver", "disclosure", "default", "points")
_KIND_KEYS = {
    "integer": ("min", "max"),
    "choice": ("choices",),
    "player": ("self",),
    "ranking": ("choices", "length"),
    "text": ("max_length",),
}
_KIND_REQUIRED = {
    "integer": ("min", "max"),
    "choice": ("choices",),
    "player": (),
    "ranking": ("choices", "length"),
    "text": ("max_length",),
}

DEFAULT_FIELDS: tuple[dict[str, Any], ...] = (
    {"name": "number", "kind": "integer", "min": 1, "max": 10, "optional": False},
)
"""The fields of a design that gives none: a whole number from 1 to 10."""
DEFAULT_RESOLVER: dict[str, Any] = {"kind": "lowest-unique", "field": "number"}
"""The resolver of a design that gives none: the lowest unique ``number``."""


def is_text(value: object) -> bool:
    r"""Whether ``value`` is a text that is valid Unicode (no lone surrogates).

    >>> is_text("josé"), is_text("\ud800"), is_text(3)
    (True, False, False)
    """
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _field_label(index: int, raw: object) -> str:
    """Return how a message names field ``index`` (1-based), by its name when it has one."""
    name = raw.get("name") if isinstance(raw, dict) else None
    if isinstance(name, str) and FIELD_NAME.fullmatch(name):
        return f'the field "{name}"'
    return f"field {index}"


def _check_keys(
    raw: dict[str, Any], allowed: tuple[str, ...], needed: tuple[str, ...], what: str
) -> None:
    unknown = [key for key in raw if key not in allowed]
    if unknown:
        word = "setting" if len(unknown) == 1 else "settings"
        msg = (
            f"{what} has the unknown {word} {describe_keys(unknown)}; it takes {', '.join(allowed)}"
        )
        raise BadOptions(msg)
    for key in needed:
        if key not in raw:
            msg = f'{what} needs "{key}"'
            raise BadOptions(msg)


def _check_flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        msg = f"{what} is true or false, not {describe(value)}"
        raise BadOptions(msg)
    return value


def _check_list(value: object, least: int, most: int, whose: str, items: str) -> list[Any]:
    """Return ``value`` if it is a list of ``least`` to ``most`` items (counted, not read).

    :raises BadOptions: saying "``whose`` ``least`` to ``most`` ``items``, not ...".
    """
    if not isinstance(value, list):
        msg = f"{whose} a list of {least} to {most} {items}, not {describe(value)}"
        raise BadOptions(msg)
    if not least <= len(value) <= most:
        msg = f"{whose} {least} to {most} {items}, not {len(value)}"
        raise BadOptions(msg)
    return value


def check_choices(value: object, what: str) -> list[str]:
    """Return ``value`` if it is a list of 2 to 40 distinct texts of 1 to 40 printable characters.

    :raises BadOptions: naming ``what`` otherwise.
    """
    value = _check_list(value, MIN_CHOICES, MAX_CHOICES, f"{what} has", "choices")
    seen: set[str] = set()
    for choice in value:
        if not (is_text(choice) and 1 <= len(choice) <= MAX_CHOICE_LENGTH and choice.isprintable()):
            msg = (
                f"a choice of {what} is 1 to {MAX_CHOICE_LENGTH} printable characters, "
                f"not {describe(choice)}"
            )
            raise BadOptions(msg)
        if choice in seen:
            msg = f"{what} lists the choice {describe(choice)} twice"
            raise BadOptions(msg)
        seen.add(choice)
    return list(value)


def check_field(raw: object, index: int) -> dict[str, Any]:
    """Return field ``index`` (1-based) of a design, normalised (``optional`` filled).

    :raises BadOptions: naming the field and the setting at fault.
    """
    what = _field_label(index, raw)
    if not isinstance(raw, dict):
        msg = f"field {index} is an object with a name and a kind, not {describe(raw)}"
        raise BadOptions(msg)
    name = raw.get("name")
    if not isinstance(name, str) or not FIELD_NAME.fullmatch(name):
        msg = (
            f"field {index} needs a name of 1 to {MAX_FIELD_NAME} characters a-z, 0-9 or _, "
            f"not {describe(name)}"
        )
        raise BadOptions(msg)
    kind = raw.get("kind")
    if kind not in KINDS:
        msg = f"{what} has the kind {describe(kind)}; a kind is one of {', '.join(KINDS)}"
        raise BadOptions(msg)
    _check_keys(raw, ("name", "kind", *_KIND_KEYS[kind], "optional"), _KIND_REQUIRED[kind], what)
    field: dict[str, Any] = {"name": name, "kind": kind}
    if kind == "integer":
        low = check_whole(raw["min"], f"the min of {what}", -LIMIT, LIMIT, BadOptions)
        high = check_whole(raw["max"], f"the max of {what}", -LIMIT, LIMIT, BadOptions)
        if low > high:
            msg = f"the min of {what} ({low}) is above its max ({high})"
            raise BadOptions(msg)
        field |= {"min": low, "max": high}
    elif kind == "choice":
        field["choices"] = check_choices(raw["choices"], what)
    elif kind == "player":
        field["self"] = _check_flag(raw.get("self", False), f'"self" of {what}')
    elif kind == "ranking":
        choices = check_choices(raw["choices"], what)
        length = check_whole(raw["length"], f"the length of {what}", 1, len(choices), BadOptions)
        field |= {"choices": choices, "length": length}
    else:
        field["max_length"] = check_whole(
            raw["max_length"], f"the max_length of {what}", 1, MAX_TEXT_LENGTH, BadOptions
        )
    field["optional"] = _check_flag(raw.get("optional", False), f'"optional" of {what}')
    return field


def check_fields(value: object) -> list[dict[str, Any]]:
    """Return a design's fields, normalised.

    :raises BadOptions: for anything but 1 to 8 valid fields with distinct names.
    """
    value = _check_list(value, MIN_FIELDS, MAX_FIELDS, "a design has", "fields")
    fields = [check_field(raw, index) for index, raw in enumerate(value, start=1)]
    names = [field["name"] for field in fields]
    for name in names:
        if names.count(name) > 1:
            msg = f'two fields are called "{name}"; each field needs its own name'
            raise BadOptions(msg)
    return fields


def check_resolver(value: object, fields: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a design's resolver, normalised, checked against its fields.

    :raises BadOptions: for an unknown kind, or a field that is missing or of a kind the
        resolver cannot read.
    """
    if not isinstance(value, dict):
        msg = f"the resolver is an object with a kind, not {describe(value)}"
        raise BadOptions(msg)
    kind = value.get("kind")
    if kind not in RESOLVERS:
        msg = (
            f"the resolver has the kind {describe(kind)}; "
            f"a resolver is one of {', '.join(RESOLVERS)}"
        )
        raise BadOptions(msg)
    if kind == "host":
        _check_keys(value, ("kind",), (), "the host resolver")
        return {"kind": "host"}
    _check_keys(value, ("kind", "field"), ("field",), f"the {kind} resolver")
    name = value["field"]
    by_name = {field["name"]: field for field in fields}
    field = by_name.get(name) if isinstance(name, str) else None
    if field is None:
        msg = f"the resolver reads the field {describe(name)}, which the design does not have"
        raise BadOptions(msg)
    wanted = ("integer",) if kind in UNIQUE_RESOLVERS else ("choice", "player")
    if field["kind"] not in wanted:
        msg = (
            f'the {kind} resolver reads a {" or ".join(wanted)} field, and "{name}" is a '
            f"{field['kind']} field"
        )
        raise BadOptions(msg)
    return {"kind": kind, "field": name}


def normalise_design(options: Mapping[str, Any]) -> dict[str, Any]:
    """Return a design with every default filled, in the order of §5.

    The default pick is checked here against the fields; whether the players it names
    are players of the match is checked at set-up (:func:`check_default_for_players`).

    :raises BadOptions: naming the setting at fault.
    """
    from domain.rules.custom.picks import check_payload  # noqa: PLC0415 - picks imports us

    given = check_options_object(options, "a custom game", OPTION_NAMES)
    title = given.get("title", DEFAULT_TITLE)
    if not (is_text(title) and 1 <= len(title) <= MAX_TITLE and title.isprintable()):
        msg = f"the title is 1 to {MAX_TITLE} printable characters, not {describe(title)}"
        raise BadOptions(msg)
    rounds = check_whole(
        given.get("rounds", DEFAULT_ROUNDS), "rounds", MIN_ROUNDS, MAX_ROUNDS, BadOptions
    )
    fields = check_fields(given.get("fields", [dict(f) for f in DEFAULT_FIELDS]))
    resolver = check_resolver(given.get("resolver", dict(DEFAULT_RESOLVER)), fields)
    disclosure = given.get("disclosure", AT_RESOLVE)
    if disclosure not in DISCLOSURES:
        msg = f'the disclosure is "at-resolve" or "at-end", not {describe(disclosure)}'
        raise BadOptions(msg)
    if resolver["kind"] == "host" and disclosure == AT_END:
        msg = (
            'the host resolver needs "at-resolve" disclosure: the host judges the revealed '
            "picks of each round"
        )
        raise BadOptions(msg)
    points = check_whole(given.get("points", DEFAULT_POINTS), "points", 0, MAX_POINTS, BadOptions)
    default = given.get("default")
    if default is not None:
        default = check_payload(
            fields, default, players=None, player=None, error=BadOptions, what="the default pick"
        )
    return {
        "title": title,
        "rounds": rounds,
        "fields": fields,
        "resolver": resolver,
        "disclosure": disclosure,
        "default": default,
        "points": points,
    }
