"""Grid Adaptation in the dealer room: what a player reads about their seat, their round, the end.

Everything here is plain words for people (RULINGS.md section 4): a sequence is "011", its
bits are numbered 0, 1, 2 from the left (as the flip in the payload), the terms are EC,
ToL, garnets, sequence and reserve tile. The public records keep every placement sealed
until the match ends, so what a round did to a player is told cell by cell only then;
before, the player reads that their pick counted and what the Life step did to the grid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.grid_adaptation import (
    FIRST_ROUND_TILES,
    FLIP_ROUNDS,
    GARNET_STEP,
    GARNET_THRESHOLD,
    ROUNDS,
    START_RESERVES,
    reserve_price,
)
from web.games.record import revealed
from web.games.words import plural

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from domain.public_log import PublicStep

TERMS: tuple[tuple[str, str], ...] = (
    (
        "sequence",
        (
            "Your secret three bits, such as 011; the bits are numbered 0, 1 and 2 from the left. "
            "Your tiles carry it, and after every round it scores one point per matching bit on "
            "every tile on the grid."
        ),
    ),
    (
        "reserve tile",
        (
            f"An extra tile you may place in a round besides the round's own "
            f"({FIRST_ROUND_TILES} in round 1, then 1), at most one a round. You start with "
            f"{START_RESERVES} and can buy more with garnets."
        ),
    ),
    (
        "flip",
        (
            f"In rounds {FLIP_ROUNDS[0]} and {FLIP_ROUNDS[1]} you may flip one bit of your "
            "sequence (0 becomes 1, 1 becomes 0). Your tiles placed from then on carry the new "
            "sequence and that round already scores with it; tiles on the grid keep their bits."
        ),
    ),
    (
        "garnets",
        (
            "What you spend on reserve tiles: the first one you buy costs "
            f"{reserve_price(0)} garnets and each later one doubles ({reserve_price(0)}, "
            f"{reserve_price(1)}, {reserve_price(2)}, …). At the end you earn 1 garnet at "
            f"{GARNET_THRESHOLD} points and 1 more per further {GARNET_STEP}."
        ),
    ),
    (
        "Life step",
        (
            "After the tiles are placed, one step of the Game of Life: an empty cell with exactly "
            "3 neighbouring tiles is born with their majority bits; a tile with 2 or 3 neighbours "
            "survives; every other tile vanishes. A cell two players chose gets no tile."
        ),
    ),
    (
        "ToL",
        (
            "Token of Life: the sole top scorer wins two; two or three tied for the most points "
            "win one each; four or more tied win none."
        ),
    ),
    (
        "EC",
        (
            "Elimination Candidate: the player with the fewest points. When several tie for the "
            "fewest, the ToL winners vote among them."
        ),
    ),
)

_DECIDED = {
    "vote": "chosen by the ToL winners' vote",
    "voters-garnets": "chosen by the garnets of their voters, the vote being tied",
    "random": "drawn by fair randomness among the tied",
    "fewest-points": "with the fewest points",
}


def _names(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return names[0] if names else "nobody"
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _tally(tally: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} {plural(int(votes), 'vote')}" for name, votes in tally.items())


# --- Your seat ----------------------------------------------------------------------


def seat_words(public: Mapping[str, Any], private: Mapping[str, Any], player: str) -> list[str]:
    """The player's sequence, score, reserve tiles and garnets, in plain words."""
    del player
    if not private:
        return []
    words = []
    finished = bool(public.get("finished"))
    sequence = private.get("sequence")
    if isinstance(sequence, str) and len(sequence) == len("000"):
        secret = "" if finished else " Only you know it until the match ends."
        words.append(
            f"Your sequence is {sequence} (bit 0 is {sequence[0]}, bit 1 is {sequence[1]}, "
            f"bit 2 is {sequence[2]}).{secret}"
        )
    else:
        words.append("Your sequence is dealt when round 1 opens.")
    played = int(public.get("round") or 0)
    score = plural(int(private.get("score") or 0), "point")
    if played:
        words.append(f"Your score: {score} after round {played} of {ROUNDS}.")
    else:
        words.append(f"Your score: {score}; no round has been played yet.")
    reserves = int(private.get("reserves") or 0)
    playable = reserves and not finished
    words.append(
        f"Reserve tiles: {reserves}"
        + (" (you may play one a round besides the round's tiles)." if playable else ".")
    )
    garnets = int(private.get("garnets_available") or 0)
    price = ""
    bought = private.get("reserves_bought")  # not in every version of the private view
    if isinstance(bought, int):
        price = f" (the next reserve tile costs {reserve_price(bought)})"
    words.append(f"Garnets: {garnets} to spend on reserve tiles{price}.")
    candidates = private.get("ec_candidates")
    if candidates:
        words.append(
            f"You won a ToL, so you vote for the EC among {_names(candidates)} "
            "(they are tied for the fewest points)."
        )
    return words


# --- Your round ---------------------------------------------------------------------


def default_for_you(payload: Mapping[str, Any]) -> str:
    """A missing round pick places nothing; a missing EC vote abstains."""
    if "vote" in payload:
        return "you abstain from the EC vote"
    return "you place no tile this round (no reserve tile, no flip, no purchase)"


def _your_cells(pick: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    """What became of each cell the player chose (known once the picks are revealed)."""
    clashes, vanished = set(outcome.get("collisions") or []), set(outcome.get("vanished") or [])
    words = []
    cells = [(c, "tile") for c in pick.get("tiles") or []]
    if pick.get("reserve"):
        cells.append((pick["reserve"], "reserve tile"))
    for cell, what in cells:
        if cell in clashes:
            words.append(
                f"Another player also chose {cell}, so no tile went there and your {what} is spent."
            )
        elif cell in vanished:
            words.append(f"Your {what} on {cell} vanished in the Life step.")
        else:
            words.append(f"Your {what} on {cell} survived the Life step.")
    if pick.get("flip") is not None:
        words.append(f"You flipped bit {pick['flip']} of your sequence.")
    if pick.get("buy_reserves"):
        words.append(f"You bought {plural(int(pick['buy_reserves']), 'reserve tile')}.")
    return words


def _round_for_you(step: PublicStep, player: str) -> list[str]:
    outcome = step.outcome or {}
    words = []
    default = step.defaults.get(player)
    pick = revealed(step).get(player)
    if default is not None:
        why = "did not open your pick" if default.reason == "not-revealed" else "sent nothing"
        words.append(f"You {why} in time, so you placed no tile in round {step.number}.")
    elif isinstance(pick, dict):
        words.extend(_your_cells(pick, outcome))
    elif player in step.submitters:
        words.append(
            f"Your round {step.number} pick counted; what you chose stays sealed until the "
            "match ends."
        )
    placed, born = outcome.get("placed") or [], outcome.get("born") or []
    vanished = outcome.get("vanished") or []
    words.append(
        f"Round {step.number}: {plural(len(placed), 'tile')} placed, {len(born)} born and "
        f"{len(vanished)} vanished in the Life step."
    )
    scores = outcome.get("round_scores") or {}
    if scores:
        shown = ", ".join(f"{bits} {points}" for bits, points in scores.items())
        words.append(f"Points each sequence scored this round: {shown}.")
    return words


def _vote_for_you(step: PublicStep, player: str) -> list[str]:
    outcome = step.outcome or {}
    words = []
    ec, tally = outcome.get("ec"), outcome.get("tally") or {}
    how = _DECIDED.get(str(outcome.get("decided_by")), "")
    who = "You are" if ec == player else f"{ec} is"
    words.append(f"{who} the Elimination Candidate (EC), {how} ({_tally(tally)}).")
    pick = revealed(step).get(player)
    if player in step.defaults:
        words.append("You sent no vote in time, so you abstained.")
    elif isinstance(pick, dict) and pick.get("vote"):
        words.append(f"You voted for {pick['vote']}.")
    return words


def for_you(step: PublicStep, player: str) -> list[str]:
    """What the latest round (or the EC vote) did to ``player``."""
    if step.resolved_seq is None:
        return []
    if "tally" in (step.outcome or {}):
        return _vote_for_you(step, player)
    return _round_for_you(step, player) if player in step.submitters else []


# --- The end ------------------------------------------------------------------------


def _held(seqs: Sequence[str]) -> str:
    """``000 in every round`` or ``011 in rounds 1-3, then 111 in rounds 4-8``."""
    if len(set(seqs)) == 1:
        return f"{seqs[0]} in every round"
    runs: list[tuple[str, int, int]] = []
    for i, bits in enumerate(seqs, start=1):
        if runs and runs[-1][0] == bits:
            runs[-1] = (bits, runs[-1][1], i)
        else:
            runs.append((bits, i, i))
    shown = [
        f"{bits} in round {a}" if a == b else f"{bits} in rounds {a}–{b}" for bits, a, b in runs
    ]
    return ", then ".join(shown)


def result_words(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """The scores, the ToLs, the EC and how it was decided, the garnets earned."""
    scores: Mapping[str, int] = result.get("player_scores") or {}
    if not scores:
        return ["The match is over."]
    seats = {p: i for i, p in enumerate(players)}
    ranked = sorted(scores, key=lambda p: (-scores[p], seats.get(p, len(seats))))
    final = "Final scores: " + ", ".join(f"{p} {plural(scores[p], 'point')}" for p in ranked)
    tokens: Mapping[str, int] = result.get("tokens") or {}
    top = scores[ranked[0]]
    if not tokens:
        tied = [p for p in ranked if scores[p] == top]
        headline = (
            f"{len(tied)} players tied for the most points ({top}), so nobody wins a Token "
            "of Life (ToL)."
        )
    elif len(tokens) == 1:
        (winner,) = tokens
        headline = f"{winner} has the most points ({top}) and wins two Tokens of Life (ToL)."
    else:
        headline = (
            f"{_names(list(tokens))} tied for the most points ({top}) and win one Token of "
            "Life (ToL) each."
        )
    words = [headline]
    ec = result.get("ec")
    if ec is not None:
        how = _DECIDED.get(str(result.get("ec_by")), "")
        tally = result.get("ec_tally") or {}
        counted = f" ({_tally(tally)})" if tally else ""
        words.append(f"{ec} is the Elimination Candidate (EC), {how}{counted}.")
    words.append(f"{final}.")
    votes: Mapping[str, str | None] = result.get("ec_votes") or {}
    if votes:
        said = [
            f"{voter} voted for {choice}" if choice else f"{voter} abstained"
            for voter, choice in votes.items()
        ]
        words.append(f"The EC vote: {'; '.join(said)}.")
    earned = {p: n for p, n in (result.get("garnets") or {}).items() if n}
    if earned:
        words.append("Garnets earned: " + ", ".join(f"{p} {n}" for p, n in earned.items()) + ".")
    else:
        words.append(f"Nobody earned garnets (the first comes at {GARNET_THRESHOLD} points).")
    held: Mapping[str, Sequence[str]] = result.get("sequences_held") or {}
    if held:
        words.append(
            "Sequences held: "
            + "; ".join(f"{p} {_held(seqs)}" for p, seqs in held.items() if seqs)
            + "."
        )
    return words
