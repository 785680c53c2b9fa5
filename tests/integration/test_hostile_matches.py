"""Issue 14, point 3: nothing the service accepts can break verification.

Random matches of every game are played through the real service, on both stores, with
inputs that are hostile but accepted: extreme legal values (1 and 1000 start points, 1000
garnets spent on eight reserve tiles at once, priorities 1 and N, a ban of null, illegal but
well-formed Apocalypse moves, decisions and their defaults), long and non-ASCII names and
candidates, amendments, identical re-sends, missing submissions, self-custody commitments
opened or left unopened, seats claimed with signing keys (signed picks), re-invited and
claimed again without one. Every match's exported bundle must then pass every offline check:
whatever a player or host could get accepted, the service's own log still verifies.
"""

from __future__ import annotations

import os
import random
import uuid
from typing import TYPE_CHECKING, Any

import pytest

from domain.commitment import commit
from domain.fairrand import Rng
from domain.rules import get_rules
from domain.rules.apocalypse import SQUARES
from domain.rules.grid_adaptation import ALL_CELLS, FLIP_ROUNDS, MAX_PURCHASE, reserve_cost
from replay.bundle import dump_bundle, load_bundle, player_public_key, sign_submission
from replay.verify import verify_bundle
from tests.conftest import archive_of

if TYPE_CHECKING:
    from domain.rules.base import State
    from service.application import DealerRoom

MAX_STEPS = 60
LONG = "Ægir Þórsdóttir-Ñúñez Zoë Ålund"[:32]  # 31 characters of Latin letters and spaces
NAMES = {
    2: [LONG, "名前"],
    3: ["josé", "Ωmega", LONG],
    4: ["josé", "Ωmega", LONG, "dee"],
    6: ["josé", "Ωmega", LONG, "dee", "ülle", "ñu"],
}
CANDIDATES = [f"{i:02d} " + "é🂡" * 30 for i in range(100)]  # 100 names of 63 characters

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("vote", 3, {}),
    ("vote", 3, {"candidates": CANDIDATES, "voters": NAMES[3][:2]}),
    ("six-nimmt", 3, {"start_points": 1}),
    ("six-nimmt", 2, {"start_points": 3, "action_card": "even-odd", "virtual_player": False}),
    ("apocalypse", 2, {}),
    ("picking-nine", 3, {}),
    ("picking-nine", 4, {"tiebreak": list(reversed(NAMES[4]))}),
    ("grid-adaptation", 3, {"garnets": {NAMES[3][0]: 1000, NAMES[3][2]: 7}}),
]


IDS = [f"{game}-{i}" for i, (game, _, _) in enumerate(GAMES)]


def pick_for(game: str, state: State, player: str, rnd: random.Random, rng: Rng) -> Any:
    """A pick the rules accept, pushed towards the extremes of what they accept."""
    rules = get_rules(game)
    pick = rules.bot_pick(state, player, rng)
    if game == "six-nimmt":
        hand = state["hands"][player]
        return {"card": rnd.choice([min(hand), max(hand), pick["card"]])}
    if game == "apocalypse" and rnd.random() < 0.3:
        move = {"from": rnd.choice(SQUARES), "to": rnd.choice(SQUARES)}
        if rnd.random() < 0.5:
            move["drop"] = rnd.choice(SQUARES)
        return move
    if game == "picking-nine":
        n = len(state["players"])
        ban = rnd.choice([None, pick["ban"]])
        return {**pick, "ban": ban, "priority": rnd.choice([1, n, pick["priority"]])}
    if game == "grid-adaptation" and state["phase"] == "rounds":
        available = state["garnets"][player] - state["spent"][player]
        bought = state["bought"][player]
        most = max(k for k in range(MAX_PURCHASE + 1) if reserve_cost(bought, k) <= available)
        buy = rnd.choice([0, most])
        reserve = pick["reserve"] if state["reserves"][player] + buy > 0 else None
        if reserve is None and state["reserves"][player] + buy > 0:
            free = [c for c in ALL_CELLS if c not in state["tiles"] and c not in pick["tiles"]]
            reserve = rnd.choice(free)
        flip = rnd.choice([None, 0, 2]) if state["round"] + 1 in FLIP_ROUNDS else None
        return {"tiles": pick["tiles"], "reserve": reserve, "flip": flip, "buy_reserves": buy}
    return pick


def play_match(
    service: DealerRoom, game: str, players: list[str], options: dict[str, Any], rnd: random.Random
) -> tuple[str, bool]:
    """Play one match with hostile-but-accepted inputs; return its id and whether it finished."""
    custody = {p: "self" for p in players if rnd.random() < 0.3}
    match_id = str(uuid.UUID(int=rnd.getrandbits(128), version=4))  # the same match each run
    created = service.create_match(game, players, options, custody=custody, match_id=match_id)
    mid = created["match_id"]
    keys: dict[str, bytes] = {}
    for player, invite in (created.get("invites") or {}).items():
        if rnd.random() < 0.5:
            keys[player] = os.urandom(32)
            service.claim(mid, player, invite, player_public_key(keys[player]))
        elif rnd.random() < 0.5:
            service.claim(mid, player, invite)
    if keys and rnd.random() < 0.5:
        player = rnd.choice(sorted(keys))
        invite = service.reinvite(mid, player)["invite"]
        del keys[player]
        service.claim(mid, player, invite)
    rules = get_rules(game)
    for number in range(1, MAX_STEPS + 1):
        if service.status(mid)["finished"]:
            return mid, True
        service.open_step(mid, seconds=3600)
        record = service.get_match(mid).current
        assert record is not None
        state, submitters = record.state_at_open, list(record.submitters)
        openings: dict[str, tuple[Any, bytes]] = {}
        for player in submitters:
            if rnd.random() < 0.15:
                continue
            rng = Rng(bytes(32), mid, f"bot/{number}/{player}")
            for _ in range(rnd.choice([1, 1, 2, 3])):  # amendments
                pick = rules.check_pick(state, player, pick_for(game, state, player, rnd, rng))
                salt = os.urandom(32)
                commitment = commit(mid, number, player, pick, salt)
                signature = (
                    sign_submission(keys[player], mid, number, player, commitment)
                    if player in keys
                    else None
                )
                if custody.get(player) == "self":
                    service.submit_commitment(mid, player, commitment, signature=signature)
                    openings[player] = (pick, salt)
                else:
                    answer = service.submit(mid, player, pick, salt=salt.hex(), signature=signature)
                    assert answer["commitment"] == commitment
                    if rnd.random() < 0.2:
                        again = service.submit(
                            mid, player, pick, salt=salt.hex(), signature=signature
                        )
                        assert again["unchanged"] and again["commitment"] == commitment
        status = service.seal(mid)
        if status == "openings":
            for player, (pick, salt) in openings.items():
                if rnd.random() < 0.8:
                    status = service.open_commitment(mid, player, number, pick, salt.hex())
            if status == "openings":
                status = service.force_openings(mid)
        while status == "decision":
            asked = service.status(mid)["step"]["decision"]
            if rnd.random() < 0.6:
                status = service.decide(mid, asked["player"], {"row": rnd.randrange(4)})
            else:
                status = service.apply_decision_default(mid)
        assert status in ("resolved", "finished"), status
    return mid, service.status(mid)["finished"]


def assert_verifies(service: DealerRoom, mid: str, *, finished: bool) -> None:
    bundle = load_bundle(dump_bundle(archive_of(service).export_bundle(mid)))
    verdict = verify_bundle(bundle, trusted_key=service.public_key())
    assert verdict.ok, str(verdict)
    if finished:
        assert verdict.complete, str(verdict)


@pytest.mark.parametrize(("game", "count", "options"), GAMES, ids=IDS)
def test_a_match_of_hostile_but_accepted_inputs_still_verifies(
    service: DealerRoom, game: str, count: int, options: dict[str, Any]
) -> None:
    rnd = random.Random(f"{game}/{count}/{sorted(options)}")  # noqa: S311 - test data, not secrets
    mid, finished = play_match(service, game, NAMES[count], options, rnd)
    assert finished or game == "apocalypse", f"{game} did not finish in {MAX_STEPS} steps"
    assert_verifies(service, mid, finished=finished)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("game", "count", "options"), GAMES, ids=IDS)
def test_many_matches_of_hostile_but_accepted_inputs_still_verify(
    sqlite_service: DealerRoom, game: str, count: int, options: dict[str, Any], seed: int
) -> None:
    rnd = random.Random(f"{game}/{count}/{sorted(options)}/{seed}")  # noqa: S311
    options = {**options, "start_points": 1000} if game == "six-nimmt" and seed == 0 else options
    mid, finished = play_match(sqlite_service, game, NAMES[count], options, rnd)
    assert_verifies(sqlite_service, mid, finished=finished)
