"""The hidden plurality vote (RULINGS.md section 0).

Hosts hold it for vote-offs and tie-breaks: one step in which every voter seals a vote
for one candidate; all votes are revealed when the step resolves.

* Options: ``candidates`` (default: the players) and ``voters`` (default: the players).
  Each is a list of 1 to 100 distinct names (a name: 1 to 64 printable characters, no
  space at either end; names differing only in case count as the same); voters are
  players. A vote takes 1 to 100 players.
* Payload ``{"vote": "ben"}``; a vote for a non-candidate is rejected at submission.
* Public state: ``tally`` ({candidate: votes}, every candidate listed), ``finished`` and
  ``winners`` (every candidate with the most votes, in candidate order; a tie lists them
  all; empty until finished).
* A voter who submits nothing abstains (the default pick is ``{"vote": null}``); a
  submitted vote must name a candidate (``null`` is the default's mark only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.rules.base import (
    JSON,
    BadOptions,
    Disclosure,
    IllegalPick,
    Payload,
    Resolution,
    Rules,
    State,
    StepSpec,
    check_name_list,
    check_object,
    check_options_object,
    describe,
    distinct_names,
    list_names,
    player_list,
)
from domain.rules.schema import FieldKind, Option, OptionKind, PickField

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from domain.fairrand import Rng


MAX_VOTERS = 100
"""The most players, voters and candidates a vote takes."""
OPTION_NAMES = ("candidates", "voters")
_SHAPE = 'a vote is {"vote": candidate}'


class Vote(Rules):
    """The hidden plurality vote."""

    name = "vote"
    display_name = "Hidden vote"
    version = "1"
    disclosure = Disclosure.ON_RESOLVE
    min_players = 1
    max_players = MAX_VOTERS
    default_is_legal = False  # a missing vote abstains; a submitted one names a candidate

    def options_schema(self) -> list[Option]:
        """Candidates and voters, each defaulting to the players."""
        return [
            Option(
                "candidates",
                OptionKind.NAMES,
                None,
                "the names one may vote for, in order; left out, the players",
                minimum=1,
                maximum=MAX_VOTERS,
                filled=False,
            ),
            Option(
                "voters",
                OptionKind.NAMES,
                None,
                "the players who vote, each a player of the match; left out, every player",
                minimum=1,
                maximum=MAX_VOTERS,
                filled=False,
            ),
        ]

    def default_players(self, options: Mapping[str, Any]) -> list[str]:
        """Return the voters when the options name them, else three stock names.

        :raises BadOptions: for options :meth:`normalise_options` refuses.
        """
        options = self.normalise_options(options)
        if "voters" in options:
            return list(options["voters"])
        return super().default_players(options)

    def pick_fields(self, kind: str) -> list[PickField]:
        """One field: the candidate voted for."""
        del kind
        return [PickField("vote", FieldKind.TEXT, "the candidate you vote for")]

    def normalise_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in nothing: candidates and voters default to the players at set-up.

        :raises BadOptions: for options that are not an object, an unknown option, or a
            candidate or voter list that is not 1 to 100 distinct names.
        """
        options = check_options_object(options, "vote", OPTION_NAMES)
        for what in OPTION_NAMES:
            if what in options:
                check_name_list(options[what], what, least=1, most=MAX_VOTERS, error=BadOptions)
        return options

    def setup(self, options: Mapping[str, Any], players: Sequence[str]) -> State:
        """Return the state before the vote.

        :raises BadOptions: for an unknown option, an empty list or a voter who is not
            a player.
        """
        options = self.normalise_options(options)
        players = player_list(players)
        if not 1 <= len(players) <= MAX_VOTERS:
            msg = f"a vote takes 1 to {MAX_VOTERS} players, not {len(players)}"
            raise BadOptions(msg)
        players = distinct_names(players)
        candidates = list(options.get("candidates", players))
        voters = list(options.get("voters", players))
        strangers = [v for v in voters if v not in players]
        if strangers:
            msg = f"the voter {describe(strangers[0])} is not a player of the match"
            raise BadOptions(msg)
        return {
            "candidates": candidates,
            "voters": voters,
            "tally": dict.fromkeys(candidates, 0),
            "votes": {},
            "finished": False,
            "winners": [],
        }

    def next_step(self, state: State) -> StepSpec | None:
        """One step in which every voter votes."""
        if state["finished"]:
            return None
        return StepSpec(kind="vote", submitters=tuple(state["voters"]))

    def check_pick(self, state: State, player: str, payload: JSON) -> Payload:
        """A vote names one candidate.

        :raises IllegalPick: for anything else.
        """
        payload = check_object(payload, required=("vote",), shape=_SHAPE, error=IllegalPick)
        choice = payload["vote"]
        if not isinstance(choice, str) or choice not in state["candidates"]:
            msg = (
                f"{describe(choice)} is not a candidate; the candidates are "
                f"{list_names(state['candidates'])} (to abstain, submit nothing)"
            )
            raise IllegalPick(msg)
        del player
        return {"vote": choice}

    def default_pick(self, state: State, player: str) -> Payload:
        """A missing vote abstains."""
        del state, player
        return {"vote": None}

    def generate_legal_picks(self, state: State, player: str) -> Iterator[Payload]:
        """Yield a vote for each candidate, in candidate order."""
        del player
        return ({"vote": candidate} for candidate in state["candidates"])

    def count_legal_picks(self, state: State, player: str) -> int:
        """One pick per candidate."""
        del player
        return len(state["candidates"])

    def resolve(
        self,
        state: State,
        picks: Mapping[str, Payload],
        decisions: Sequence[Payload],
        rng: Rng,
    ) -> Resolution:
        """Count the votes; every candidate with the most votes wins."""
        del decisions, rng
        tally = dict.fromkeys(state["candidates"], 0)
        votes: dict[str, str | None] = {}
        for voter in state["voters"]:
            choice = picks[voter]["vote"]
            votes[voter] = choice
            if choice is not None:
                tally[choice] += 1
        top = max(tally.values())
        # With no votes at all every candidate ties at zero, so all are listed.
        winners = [c for c in state["candidates"] if tally[c] == top]
        new = {**state, "tally": tally, "votes": votes, "finished": True, "winners": winners}
        abstained = [v for v, c in votes.items() if c is None]
        return Resolution(
            state=new,
            outcome={"tally": tally, "winners": winners, "abstained": abstained},
        )

    def public_view(self, state: State) -> dict[str, Any]:
        """Tally, finished and winners."""
        return {
            "tally": dict(state["tally"]),
            "finished": state["finished"],
            "winners": list(state["winners"]),
        }

    def is_finished(self, state: State) -> bool:
        """The vote ends after its one step."""
        return bool(state["finished"])

    def result(self, state: State) -> dict[str, Any]:
        """The tally and the winners."""
        return {"tally": dict(state["tally"]), "winners": list(state["winners"])}

    def bot_pick(self, state: State, player: str, rng: Rng) -> Payload:
        """Vote for a uniformly drawn candidate."""
        del player
        return {"vote": rng.choice(state["candidates"])}


RULES = Vote()
