"""The Picking Nine dealer room in words: your holdings, your best Quattro, what a round did.

Every sentence is said to one player in the second person. The best Quattro is found with
the rules' own scoring (:func:`domain.rules.picking_nine.best_quattro`), never scored here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.picking_nine import (
    GRAY_ZERO,
    QUATTRO,
    ROUNDS,
    best_quattro,
    colour,
    number,
)
from web.games.picking_nine import picture
from web.games.record import revealed
from web.games.words import listed, plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from markupsafe import Markup

    from domain.public_log import PublicStep
    from web.games.record import Moment

TERMS: tuple[tuple[str, str], ...] = (
    (
        "Quattro",
        (
            "four cards with four different colours and four different numbers; it scores the sum "
            "of their numbers. Your score is your best Quattro among your cards, 0 without one."
        ),
    ),
    (
        "gray zero",
        (
            "the card 0: a colour and a number of its own, worth 0 points. It is in every pool "
            "until someone takes it; banned, it stays for the next pools."
        ),
    ),
    (
        "priority",
        (
            "your number from 1 to the number of players. Unique numbers pick first, lowest "
            "first; then shared numbers, lowest first, in tie-break list order."
        ),
    ),
    (
        "ban",
        (
            "a card of the pool removed before anyone picks. Only the ban of the highest unique "
            "priority number counts; when no number is unique, nothing is banned."
        ),
    ),
    (
        "tie-break list",
        (
            "the order among players who share a priority number. Whoever picks before someone "
            "with the same number has won a tie-break and moves to the bottom of the list."
        ),
    ),
    (
        "ToL",
        (
            "Token of Life: earned by the one player with the top score at the end (a tie for "
            "the top: nobody). It brings 7 garnets."
        ),
    ),
    (
        "EC",
        "Elimination Candidate: every player whose score is at most the second-lowest score.",
    ),
    ("garnets", "the match's reward: 7 for the ToL, 5 for every other player who is not EC."),
)


# -- Cards and Quattros --------------------------------------------------------------------


def card_name(card: str) -> str:
    """A card as players say it: its code, the gray zero by name.

    >>> card_name("R7"), card_name("0")
    ('R7', 'the gray zero')
    """
    return "the gray zero" if card == GRAY_ZERO else card


def names(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> names(["ana"]), names(["ana", "ben"]), names(["ana", "ben", "cai"])
    ('ana', 'ana and ben', 'ana, ben and cai')
    """
    shown = [str(i) for i in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def cards_text(cards: Sequence[str]) -> str:
    """The cards by code, comma-separated (the gray zero as ``0``), or "none"."""
    return listed(cards)


def why_no_quattro(cards: Sequence[str]) -> str:
    """Why ``cards`` hold no Quattro yet, in a few words."""
    if not cards:
        return "a Quattro needs 4 cards and you hold none yet"
    if len(cards) < QUATTRO:
        return f"a Quattro needs 4 cards and you hold {len(cards)}"
    colours = len({colour(c) for c in cards})
    numbers = len({number(c) for c in cards})
    return (
        f"your cards have {plural(colours, 'different colour')} and "
        f"{plural(numbers, 'different number')}; a Quattro needs 4 of each"
    )


def quattro_sentence(cards: Sequence[str], prefix: str = "Your best Quattro so far") -> str:
    """``"<prefix>: R7, G2, B3, Y4 (16 points)."`` or why there is none."""
    four = picture.best_four(cards)
    if four:
        return f"{prefix}: {cards_text(four)} ({plural(best_quattro(four), 'point')})."
    return f"{prefix}: none ({why_no_quattro(cards)}), so it scores 0."


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= n % 100 <= 20:  # noqa: PLR2004 - the English teens
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _you(names: Sequence[str], player: str) -> str:
    return ", ".join("you" if name == player else str(name) for name in names)


def pool_is_open(public: Mapping[str, Any]) -> bool:
    """Whether the view's pool is a round's pool not played yet.

    Every round gives every player a card of its pool, so a pool played already has a card
    in somebody's holdings; a newly dealt one has none (its gray zero is nobody's yet).
    """
    pool = public.get("pool") or []
    held = {card for cards in (public.get("holdings") or {}).values() for card in cards}
    return bool(pool) and not public.get("finished") and not held.intersection(pool)


# -- The hooks -----------------------------------------------------------------------------


def seat_picture(m: Moment, player: str) -> tuple[str, int, list[Markup]]:
    """The public picture with the player's own holdings row marked "you"."""
    return picture.draw(m, you=player)


def seat_words(public: Mapping[str, Any], private: Mapping[str, Any], player: str) -> list[str]:
    """The round and its pool, your holdings, your best Quattro, your tie-break place."""
    del private  # Picking Nine keeps no secret: holdings are public
    words: list[str] = []
    played = int(public.get("round") or 0)
    pool: list[str] = list(public.get("pool") or [])
    if pool_is_open(public):
        zero = " (with the gray zero, until someone takes it)" if GRAY_ZERO in pool else ""
        words.append(
            f"Round {played + 1} of {ROUNDS}. The pool{zero}: {cards_text(pool)}. "
            "You will receive one of its cards."
        )
    elif public.get("finished"):
        words.append(f"All {ROUNDS} rounds are played.")
    else:
        words.append(
            f"{plural(played, 'round')} of {ROUNDS} played; the next pool is not dealt yet."
        )
    cards: list[str] = list((public.get("holdings") or {}).get(player) or [])
    words.append(f"Your holdings: {cards_text(cards) if cards else 'none yet'}.")
    finished = bool(public.get("finished"))
    words.append(
        quattro_sentence(cards, "Your best Quattro" if finished else "Your best Quattro so far")
    )
    tiebreak: list[str] = list(public.get("tiebreak") or [])
    if player in tiebreak and not finished:
        place = tiebreak.index(player) + 1
        words.append(
            f"You are {ordinal(place)} of {len(tiebreak)} on the tie-break list "
            f"({_you(tiebreak, player)}): among players sharing a priority number, the earlier "
            "on the list picks first."
        )
    if finished:
        garnets = (public.get("garnets") or {}).get(player, 0)
        if public.get("tol") == player:
            words.append(f"You earned the ToL: {plural(garnets, 'garnet')}.")
        elif player in (public.get("ec") or []):
            words.append("You are EC (an Elimination Candidate): no garnets.")
        else:
            words.append(f"You dodged EC: {plural(garnets, 'garnet')}.")
    return words


def default_for_you(payload: Mapping[str, Any]) -> str:
    """Ends "If you send nothing by the deadline, ...": the default want-list, no ban, N."""
    wants = list(payload.get("wants") or [])
    return (
        f"your want-list is the first {len(wants)} cards of the pool in order "
        f"({cards_text(wants)}), with no ban and priority {payload.get('priority')}"
    )


def _tiebreak_move(step: PublicStep, player: str) -> str | None:
    """What the round did to the player's place on the tie-break list, if anything."""
    before = list(step.view_at_open.get("tiebreak") or [])
    after = list((step.outcome or {}).get("tiebreak") or [])
    if player not in before or player not in after:
        return None
    was, now = before.index(player) + 1, after.index(player) + 1
    if now > was:  # only a tie-break winner moves down the list
        return (
            "You shared your priority number and picked before someone with it: you won a "
            f"tie-break, so you moved down the tie-break list from {ordinal(was)} to "
            f"{ordinal(now)} ({_you(after, player)})."
        )
    if now < was:
        return (
            "Tie-break winners moved to the bottom, so you moved up the tie-break list from "
            f"{ordinal(was)} to {ordinal(now)} ({_you(after, player)})."
        )
    return None


def for_you(step: PublicStep, player: str) -> list[str]:
    """What the round did to the player: the default, the card received, the ban, the list."""
    words: list[str] = []
    outcome = step.outcome or {}
    if step.resolved_seq is None:
        return words
    round_no = step.number
    if player in step.defaults:
        default = step.defaults[player].payload
        payload = default if isinstance(default, dict) else {}
        words.append(
            f"You sent nothing in time for round {round_no}, so the default applied: "
            f"{default_for_you(payload)}."
        )
    received = (outcome.get("received") or {}).get(player)
    banned = outcome.get("banned")
    ban = (
        f"{card_name(banned)[:1].upper()}{card_name(banned)[1:]} was banned before anyone picked."
        if banned
        else "Nothing was banned."
    )
    if received:
        words.append(f"Round {round_no}: you received {card_name(received)}. {ban}")
    else:
        words.append(f"Round {round_no}: {ban}")
    moved = _tiebreak_move(step, player)
    if moved:
        words.append(moved)
    view = step.view or {}
    cards = list((view.get("holdings") or {}).get(player) or [])
    if cards:
        words.append(
            f"Your holdings: {cards_text(cards)}. {quattro_sentence(cards, 'Your best Quattro')}"
        )
    pick = revealed(step).get(player)
    if isinstance(pick, dict):
        words.append(
            f"Your pick, revealed at the end: you wanted {cards_text(pick.get('wants') or [])}, "
            f"banned {card_name(pick['ban']) if pick.get('ban') else 'nothing'}, "
            f"priority {pick.get('priority')}."
        )
    return words


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """Who earns the ToL, everybody's score, who is EC and the garnets earned."""
    scores: dict[str, int] = dict(result.get("scores") or {})
    if not scores:
        return ["The match has ended."]
    ranked = sorted(
        scores, key=lambda p: (-scores[p], players.index(p) if p in players else len(players))
    )
    top = scores[ranked[0]]
    tol = result.get("tol")
    words = []
    if tol:
        words.append(
            f"{tol} wins the ToL with the best Quattro, {plural(scores.get(tol, top), 'point')}."
        )
    else:
        leaders = [p for p in ranked if scores[p] == top]
        words.append(
            f"Nobody wins the ToL: {names(leaders)} share the top score, {plural(top, 'point')}."
        )
    words.append("Scores: " + ", ".join(f"{p} {scores[p]}" for p in ranked) + ".")
    ec = [p for p in ranked if p in (result.get("ec") or [])]
    if ec:
        words.append(f"EC (Elimination Candidates): {listed(ec)}.")
    garnets = result.get("garnets") or {}
    words.append("Garnets: " + ", ".join(f"{p} {garnets.get(p, 0)}" for p in ranked) + ".")
    return words
