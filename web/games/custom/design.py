"""A custom game's design in words: its fields, its resolver, a pick, the rules in short.

A custom match's options (``MatchCreated.options``, normalised by its rules) are what the
host designed: a title, the number of rounds, the fields of a pick, the resolver, when picks
are disclosed, a default pick and the points a round's winners gain. :func:`design_of` reads
them without trusting them (a damaged or forged log gives whatever it gives), and the
functions below say them in plain words for the room, the timeline and the host console.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.record_text import names
from web import svg
from web.games.words import plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

NUMBER_RESOLVERS = {"lowest-unique": "lowest", "highest-unique": "highest"}
NOTE_LIMIT = 500  # the host's note, as the rules bound it


@dataclass(frozen=True)
class Design:
    """What the host designed, read leniently from the options."""

    title: str = ""
    rounds: int | None = None
    fields: tuple[Mapping[str, Any], ...] = ()
    resolver: str = ""
    resolver_field: str | None = None
    disclosure: str = "at-resolve"
    default: Any = None
    points: int = 1
    by_name: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def judged(self) -> Mapping[str, Any] | None:
        """The field the resolver judges, if it judges one."""
        return self.by_name.get(self.resolver_field or "")


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def design_of(options: Mapping[str, Any]) -> Design:
    """The design the options describe; anything unreadable is left out."""
    fields = tuple(
        f
        for f in options.get("fields") or ()
        if isinstance(f, dict) and isinstance(f.get("name"), str)
    )
    resolver = options.get("resolver")
    resolver = resolver if isinstance(resolver, dict) else {}
    judged = resolver.get("field")
    points = _whole(options.get("points"))
    return Design(
        title=str(options.get("title") or ""),
        rounds=_whole(options.get("rounds")),
        fields=fields,
        resolver=str(resolver.get("kind") or ""),
        resolver_field=judged if isinstance(judged, str) else None,
        disclosure="at-end" if options.get("disclosure") == "at-end" else "at-resolve",
        default=options.get("default"),
        points=1 if points is None else points,
        by_name={f["name"]: f for f in fields},
    )


def played_rounds(view: Mapping[str, Any]) -> int:
    """The rounds resolved so far, as the public view counts them (0 when it does not)."""
    return _whole(view.get("round")) or 0


def label(name: Any) -> str:
    """A field's name as words: ``best_city`` is "best city"."""
    return str(name).replace("_", " ")


def quoted(text: Any, limit: int = 120) -> str:
    """Free text in quotes, cut to ``limit`` characters."""
    return f"“{svg.short(str(text), limit)}”"


def field_words(f: Mapping[str, Any]) -> str:
    """What a field asks for: "a whole number from 1 to 10", "one of Paris, Rome or Oslo"."""
    kind = f.get("kind")
    choices = [str(c) for c in f.get("choices") or ()]
    if kind == "integer":
        what = f"a whole number from {f.get('min')} to {f.get('max')}"
    elif kind == "choice":
        what = f"one of {either(choices)}"
    elif kind == "player":
        what = "any player of the match, yourself included" if f.get("self") else "another player"
    elif kind == "ranking":
        length = _whole(f.get("length")) or len(choices)
        what = f"{length} of {names(choices)}, in your order of preference"
    elif kind == "text":
        what = f"a text of up to {plural(_whole(f.get('max_length')) or 0, 'character')}"
    else:
        what = "a value"
    return f"{what} (you may leave it empty)" if f.get("optional") else what


def either(items: Sequence[str]) -> str:
    """Alternatives as people list them: "Paris, Rome or Oslo"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def value_words(f: Mapping[str, Any] | None, value: Any) -> str:
    """One field's value in words: a number, a choice, a name, a ranking, quoted text."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return ", then ".join(svg.short(str(v), 40) for v in value) if value else "nothing"
    if f is not None and f.get("kind") == "text":
        return quoted(value)
    return svg.short(str(value), 60)


def pick_words(design: Design, payload: Any) -> str:
    """A whole pick in words: "guess 3; city Paris"; fields left empty are left out."""
    if not isinstance(payload, dict):
        return "nothing"
    parts = [
        f"{label(name)} {value_words(design.by_name.get(name), value)}"
        for name, value in payload.items()
        if value is not None
    ]
    return "; ".join(parts) if parts else "nothing"


def resolver_words(design: Design) -> str:
    """How a round is won, in one sentence."""
    judged = label(design.resolver_field or "")
    if design.resolver in NUMBER_RESOLVERS:
        which = NUMBER_RESOLVERS[design.resolver]
        return (
            f"The player whose {judged} is the {which} number nobody else chose wins the "
            "round; if every number was chosen by two players or more, nobody wins it."
        )
    if design.resolver == "plurality":
        return (
            f"The {judged} chosen by the most players wins the round (all of them on a tie), "
            f"and every player who chose it is a winner."
        )
    if design.resolver == "host":
        return (
            "Once the picks are revealed, the host declares the round's winners (possibly "
            "nobody), with a note if they like."
        )
    return "The rules decide each round's winners."


def summary(design: Design) -> tuple[str, ...]:
    """The rules of this match in short, one paragraph an item."""
    rounds = plural(design.rounds, "round") if design.rounds else "Several rounds"
    asked = "; ".join(f"{label(f['name'])}: {field_words(f)}" for f in design.fields)
    sealed = (
        "Every pick is revealed when its round resolves."
        if design.disclosure == "at-resolve"
        else "Picks stay sealed until the match ends; only each round's winners are told."
    )
    missing = (
        f"A player who sends nothing gets the default pick ({pick_words(design, design.default)})."
        if isinstance(design.default, dict)
        else "A player who sends nothing takes no part in that round."
    )
    return (
        (
            f"{design.title or 'A custom game'}, designed by the host. {rounds}: in each, every "
            f"player seals a pick nobody sees until the round is sealed. {sealed}"
        ),
        f"A pick gives {asked}." if asked else "A pick is whatever the host asked for.",
        resolver_words(design),
        (
            f"Each round's winners gain {plural(design.points, 'point')}; the players with the "
            f"most points at the end win the match. {missing}"
        ),
    )


def terms(design: Design) -> tuple[tuple[str, str], ...]:
    """Each field of a pick, with what it asks for, and the resolver's own word."""
    named = tuple((label(f["name"]), field_words(f)) for f in design.fields)
    words = {
        "lowest-unique": "lowest unique number",
        "highest-unique": "highest unique number",
        "plurality": "most chosen",
        "host": "declared by the host",
    }
    if design.resolver not in words:
        return named
    return (*named, (words[design.resolver], resolver_words(design)))
