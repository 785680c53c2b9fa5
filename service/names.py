r"""Player names: what a match may be created with, checked before anything is recorded.

A name is how a player is shown on every page and in the log, and it is a path segment of
their dealer room (``/matches/<id>/players/<name>``) and of the API. So a name must be one
that reads as itself and reaches its route:

* **PRECIS.** Each name is enforced with the PRECIS ``UsernameCasePreserved`` profile
  (RFC 8265, through ``precis-i18n``): full-width letters become their usual forms, text is
  NFC-normalised (so ``josé`` typed as ``e`` + combining accent is the same name as ``é``),
  and control characters (NUL...), invisible ones (zero-width space, the right-to-left
  override...), symbols, unassigned code points and mixed-direction text are refused. The
  name recorded is the enforced one.
* **Spaces.** ``UsernameCasePreserved`` refuses spaces. A host of a chat game uses nicknames,
  so a name may be made of several parts separated by single spaces (``ana b``), each part
  enforced on its own as RFC 8265 section 3.5 suggests; a space at either end, or two in a
  row, is refused rather than trimmed, so what the host typed is what the players see. In a
  URL the space travels as ``%20``.
* **Length.** 1 to :data:`MAX_LENGTH` characters after enforcement (a very long text is
  refused before any of it is processed).
* **Routes.** A name cannot be ``.`` or ``..`` (URL paths resolve them away) or contain ``/``
  (it would split the path), nor ``\\``, ``?``, ``#`` or ``%``, which end or escape a path
  in a link written by hand or by a careless client; ``host`` and ``system`` (in any case)
  are the names of the service's own actors in the log.
* **Unique.** No two names of a match may be equal ignoring case (``ana``/``Ana``/``ANA``)
  or look alike: the UTS #39 confusable *skeletons* of their case-folded forms must differ
  (Latin ``ana`` and ``аna`` with a Cyrillic ``а``). ``confusable-homoglyphs`` ships
  Unicode's confusables table but no skeleton function, so :func:`skeleton` computes it from
  that table.

Vote candidates are the vote's option texts, not names: the rules check those.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from precis_i18n import get_profile

from domain.errors import UserError

MAX_LENGTH = 32
RESERVED = ("host", "system")  # the actors the service itself records
URL_SPECIAL = "/\\?#%"  # split, end or escape a URL path (a backslash is a slash to some)

_REASONS = {
    "controls": "contains a control character (such as NUL)",
    "precis_ignorable_properties": (
        "contains an invisible character (such as a zero-width space or a direction override)"
    ),
    "zero_width_joiner": "contains an invisible character (a zero-width joiner)",
    "zero_width_nonjoiner": "contains an invisible character (a zero-width non-joiner)",
    "bidi_rule": "mixes right-to-left and left-to-right text in a way that can mislead",
    "has_compat": "contains a character that is a styled variant of another (such as 𝐚 for a)",
    "symbols": "contains a symbol or emoji",
    "punctuation": "contains punctuation that is not allowed in names",
    "unassigned": "contains a character that Unicode has not assigned",
    "context": "contains a joining character outside the script that needs it",
    "spaces": "contains a space character other than a plain single space",
    "other_letter_digits": "contains a character that is not allowed in names",
}


class PlayerNameError(UserError):
    """A player name that cannot be used; the message says which one and why."""


def check_player_names(names: list[str] | tuple[str, ...]) -> list[str]:
    r"""The names to record for a match's players, in seat order.

    :raises PlayerNameError: naming the first name that cannot be used and why.

    >>> check_player_names(["ana", "ｂｅｎ", "jose\\u0301"])
    ['ana', 'ben', 'josé']
    >>> check_player_names(["ana", "Ana"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    service.names.PlayerNameError: player names must differ in more than upper and lower case: ...
    """
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        msg = "players is a list of names (text)"
        raise PlayerNameError(msg)
    checked: list[str] = []
    folded: dict[str, str] = {}
    skeletons: dict[str, str] = {}
    for raw in names:
        name = check_player_name(raw)
        key = name.casefold()
        if key in folded:
            if folded[key] == name:
                msg = f"the player name {_shown(name)} appears twice (perhaps written two ways)"
            else:
                msg = (
                    f"player names must differ in more than upper and lower case: "
                    f"{_shown(name)} and {_shown(folded[key])} are the same name"
                )
            raise PlayerNameError(msg)
        looks = {skeleton(name), skeleton(key)}  # as written, and whatever the case
        twin = next((skeletons[look] for look in looks if look in skeletons), None)
        if twin is not None:
            msg = (
                f"player names must not look alike: {_shown(name)} can be mistaken for "
                f"{_shown(twin)}; choose a name that looks different"
            )
            raise PlayerNameError(msg)
        folded[key] = name
        skeletons.update(dict.fromkeys(looks, name))
        checked.append(name)
    return checked


def check_player_name(raw: str) -> str:
    """One player name as it is recorded (PRECIS-enforced), on its own.

    :raises PlayerNameError: saying why the name cannot be used.
    """
    if len(raw) > 4 * MAX_LENGTH:  # refused before any processing, whatever it holds
        msg = f"a player name is at most {MAX_LENGTH} characters, not {len(raw):,}"
        raise PlayerNameError(msg)
    if not raw:
        msg = "a player name cannot be empty"
        raise PlayerNameError(msg)
    if raw != raw.strip(" "):
        msg = f"the player name {_shown(raw)} begins or ends with a space; remove it"
        raise PlayerNameError(msg)
    if "  " in raw:
        msg = f"the player name {_shown(raw)} has two spaces in a row; use one"
        raise PlayerNameError(msg)
    name = " ".join(_enforce(part, raw) for part in raw.split(" "))
    if not 1 <= len(name) <= MAX_LENGTH:
        msg = f"a player name is at most {MAX_LENGTH} characters; {_shown(name)} has {len(name)}"
        raise PlayerNameError(msg)
    if name in (".", ".."):
        msg = f'a player name cannot be "{name}" (it cannot appear in a link)'
        raise PlayerNameError(msg)
    for char in URL_SPECIAL:
        if char in name:
            msg = f"the player name {_shown(name)} contains '{char}', which has a meaning in links"
            raise PlayerNameError(msg)
    if name.casefold() in RESERVED:
        msg = f"{_shown(name)} is reserved for the service's own actions; choose another name"
        raise PlayerNameError(msg)
    return name


def _enforce(part: str, whole: str) -> str:
    """One space-free part of a name through PRECIS UsernameCasePreserved."""
    try:
        return str(get_profile("UsernameCasePreserved").enforce(part))
    except UnicodeError as exc:
        reason = str(exc.args[-1]).rsplit("/", 1)[-1] if exc.args else ""
        why = _REASONS.get(reason, "contains a character that is not allowed in names")
        msg = f"the player name {_shown(whole)} {why}; choose letters, digits and single spaces"
        raise PlayerNameError(msg) from None


def _shown(name: str) -> str:
    """A name as a message may show it: quoted, invisible characters spelled out, cut short."""
    text = "".join(
        c if c.isprintable() and unicodedata.category(c) not in ("Cf", "Co", "Cs") else
        f"\\u{ord(c):04x}"
        for c in name[:40]
    )  # fmt: skip
    return f'"{text}{"..." if len(name) > 40 else ""}"'  # noqa: PLR2004


def skeleton(text: str) -> str:
    r"""The UTS #39 confusable skeleton: equal skeletons mean the texts can be mistaken.

    ``NFD``, then each character replaced by the prototype of its confusable class, then
    ``NFD`` again.

    >>> skeleton("\\u0430na") == skeleton("ana")  # Cyrillic a
    True
    >>> skeleton("rn") == skeleton("m"), skeleton("ana") == skeleton("ama")
    (True, False)
    """
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from the table ``confusable-homoglyphs`` ships.

    The table lists, for a source character, its prototype, and for a prototype, every
    source confusable with it (right-to-left ones wrapped in left-to-right marks for
    display, which are dropped here). Characters joined through it form one class; its
    prototype is the member with the most links (a many-character prototype such as "rn",
    which no single character is, wins a tie).
    """
    from confusable_homoglyphs.confusables import confusables_data  # noqa: PLC0415 - 900 KB

    def clean(text: str) -> str:
        return text.replace("\u200e", "")

    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    links: dict[str, int] = {}
    for key, entries in confusables_data.items():
        source = clean(key)
        links[source] = max(links.get(source, 0), len(entries))
        for entry in entries:
            parent[find(clean(entry["c"]))] = find(source)
    classes: dict[str, list[str]] = {}
    for member in list(parent):
        classes.setdefault(find(member), []).append(member)
    prototypes: dict[str, str] = {}
    for members in classes.values():
        proto = max(members, key=lambda m: (links.get(m, 0), len(m), -ord(m[0])))
        for member in members:
            if len(member) == 1 and member != proto:
                prototypes[member] = proto
    return prototypes


def as_recorded(name: Any) -> Any:
    """A name as players are recorded (PRECIS-prepared), or as given if it is no name.

    Custody and keys are keyed by name, so they match the recorded names; a key that is no
    player's name is refused by the match, naming it.
    """
    try:
        return check_player_name(name)
    except PlayerNameError:
        return name
