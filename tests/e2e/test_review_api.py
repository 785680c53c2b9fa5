"""Dispute review on the web: the page, its comparison and ``POST /api/matches/<id>/what-if``.

The what-if the web gives is the command line's: for a finished match of every game, the API's
answer is exactly what ``dealerroom replay BUNDLE --what-if STEP:PLAYER=JSON --json`` prints for
the match's bundle (plus the link of the page that shows it). Around it: the player's seat at a
step rebuilt for the dealer room's controls, every bad address answered with a page that says
what was wrong (and every bad body with a JSON error), a match under way reviewed without its
sealed picks, and the what-if limited per address.
"""

from __future__ import annotations

import json
import re
from itertools import islice
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.public_log import PublicLog
from replay.state import MatchReplay
from service.simulate import load_scenario, run_scenario
from tests.actions import bearer, create_match, picking_nine_with_a_secret
from tests.conftest import SCENARIOS
from tests.e2e.test_cli import dealerroom
from tests.roomy import roomy_app
from web import review
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from flask import Flask
    from flask.testing import FlaskClient

GAMES = {
    "vote": "vote-basic",
    "six-nimmt": "six-nimmt-even-odd",
    "apocalypse": "apocalypse-bot-match",
    "picking-nine": "picking-nine-six-bots",
    "grid-adaptation": "grid-adaptation-ec-vote",
}


def play(app: Flask, scenario: str) -> str:
    """Play a scenario of ``fixtures/scenarios`` to its end; return the match id."""
    lines = run_scenario(service(app), load_scenario(SCENARIOS / f"{scenario}.json"))
    match_id = str(next(lines)["match_id"])
    for _ in lines:
        pass
    return match_id


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app holding a finished match of every game."""
    made = roomy_app(
        tmp_path_factory.mktemp("review") / "instance", DEALERROOM_WHATIF_RATE="100000/second"
    )
    made.config["MATCHES"] = {game: play(made, name) for game, name in GAMES.items()}
    yield made
    service(made).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def match_of(app: Flask, game: str) -> str:
    return str(app.config["MATCHES"][game])


def another_pick(app: Flask, match_id: str, step: int, player: str) -> Any:
    """A pick ``player`` could have made in ``step`` other than the one they made."""
    records = service(app).records(match_id)
    found = PublicLog.of(records).steps[step]
    board = MatchReplay(records)
    seal = next(
        r["seq"] for r in records if r["type"] == "StepSealed" and r["data"]["step"] == step
    )
    state = board.at(seal - 1).step_state
    rules = board.context.rules
    made = found.pick(player)
    return next(p for p in islice(rules.generate_legal_picks(state, player), 500) if p != made)


def page_text(response: Any) -> str:
    """The words of a page, tags and extra spaces taken out."""
    html = re.sub(r"<svg.*?</svg>", " ", response.get_data(as_text=True), flags=re.DOTALL)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


# ---------------------------------------------------------------------- the same as the CLI


@pytest.mark.parametrize("game", list(GAMES))
def test_the_web_what_if_is_the_command_lines(
    app: Flask, client: FlaskClient, game: str, tmp_path: Path
) -> None:
    match_id = match_of(app, game)
    steps = PublicLog.of(service(app).records(match_id)).steps
    step = 2 if 2 in steps else 1
    player = steps[step].submitters[0]
    payload = another_pick(app, match_id, step, player)

    # 1. The reviewer asks the web
    answer = client.post(
        f"/api/matches/{match_id}/what-if",
        json={"step": step, "player": player, "payload": payload},
    )
    assert answer.status_code == 200, answer.get_json()
    web = answer.get_json()

    # 2. ... and the command line, on the bundle the web serves
    bundle = tmp_path / "match.bundle.json"
    bundle.write_bytes(client.get(f"/api/matches/{match_id}/bundle").get_data())
    spec = f"{step}:{player}={json.dumps(payload)}"
    done = dealerroom(tmp_path, "replay", str(bundle), "--what-if", spec, "--json")
    assert done.returncode == 0, done.stderr

    # Check the answers are the same, but for the link to the page
    link = web.pop("review_url")
    assert web == json.loads(done.stdout)
    assert link == (
        f"/matches/{match_id}/review?step={step}&player={player}&pick="
        + quote(review.compact(payload), safe=":,")
    )

    # Check the page behind the link shows that what-if
    shown = client.get(link)
    assert shown.status_code == 200
    words = page_text(shown)
    said = review.pick_words(json.loads(review.compact(payload)))  # as the link holds it
    assert f"What if {player} had picked {said} in step {step}?" in words
    first = web["first_divergent_step"]
    if first is None:
        assert "Nothing changes" in words
    else:
        assert f"The match takes another course from step {first}" in words
        assert f"After step {first}" in words
    part = client.get(link.replace("/review?", "/review/comparison?"))
    assert part.status_code == 200 and "<html" not in part.get_data(as_text=True)
    assert f"What if {player} had picked" in page_text(part)


def test_the_same_pick_changes_nothing(app: Flask, client: FlaskClient) -> None:
    match_id = match_of(app, "six-nimmt")
    made = PublicLog.of(service(app).records(match_id)).steps[5].pick("ben")
    answer = client.post(
        f"/api/matches/{match_id}/what-if", json={"step": 5, "player": "ben", "payload": made}
    ).get_json()
    assert answer["first_divergent_step"] is None
    assert answer["original_result"] == answer["new_result"]
    words = page_text(client.get(answer["review_url"]))
    assert "This is the pick ben made" in words and "Nothing changes" in words


# ---------------------------------------------------------------------- the seat at a step


def test_the_seat_at_a_step_is_what_the_dealer_room_gave_the_player(app: Flask) -> None:
    match_id = match_of(app, "six-nimmt")
    records = service(app).records(match_id)
    step = PublicLog.of(records).steps[1]
    with app.test_request_context():
        seat = review.seat_at(review.load(match_id), step, "ana")
    assert seat is not None
    hand = next(r for r in records if r["type"] == "DealRevealed" and r["data"]["step"] == 1)
    dealt = hand["data"]["private"]["ana"]
    assert sorted(seat["me"]["view"]["hand"]) == sorted(dealt)
    assert seat["me"]["current_pick"] == {"step": 1, "pick": step.pick("ana")}
    assert seat["me"]["default_pick"] == {"card": min(dealt)}
    assert sorted(p["card"] for p in seat["me"]["legal"]) == sorted(dealt)
    assert seat["status"]["step"]["number"] == 1 and seat["status"]["step"]["status"] == "open"
    assert seat["public"]["rows"] == step.view_at_open["rows"]
    assert 'data-hit="row 0"' in seat["picture"]


def test_the_page_carries_the_seat_and_the_games_controls(app: Flask, client: FlaskClient) -> None:
    match_id = match_of(app, "apocalypse")
    ben = "ben"
    page = client.get(f"/matches/{match_id}/review?step=3&player={ben}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    seat = json.loads(re.search(r"data-seat='([^']*)'", html).group(1))  # type: ignore[union-attr]
    assert ben in seat["public"]["colors"].values()
    assert seat["me"]["legal"] and all({"from", "to"} <= set(move) for move in seat["me"]["legal"])
    assert 'data-controls="/games/apocalypse/static/controls.js"' in html
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert " style=" not in html and " onclick=" not in html
    words = page_text(page)
    assert "Step 3 as it was played" in words and "ben's table in step 3" in words


# ---------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("?step=abc", 400, "The step is a step number (1, 2, 3...), not 'abc'."),
        ("?step=-1", 400, "not '-1'"),
        ("?step=99", 404, "This match has no step 99: its steps are 1 to 40."),
        ("?step=1&player=zed", 404, "'zed' was not asked for a pick in step 1"),
        ("?step=1&player=virtual", 404, "these players were: ana, ben, cai."),
        ("?step=1&player=ana&pick={card", 400, "The pick in this address is not JSON"),
        ("?step=1&player=ana&pick=%7B%22card%22%3A104%7D", 400, "“card 104” is not a pick ana"),
        ("?step=1&player=ana&pick=%7B%22card%22%3A21%7D&show=x", 400, "The step to show is"),
        ("?step=1&player=ana&pick=%7B%22card%22%3A21%7D&show=77", 404, "There is no step 77"),
    ],
)
def test_a_bad_address_is_a_page_saying_what_was_wrong(
    app: Flask, client: FlaskClient, query: str, status: int, message: str
) -> None:
    match_id = match_of(app, "six-nimmt")
    for path in ("review", "review/comparison"):
        answer = client.get(f"/matches/{match_id}/{path}{query}")
        assert answer.status_code == status, (path, answer.get_data(as_text=True)[:300])
        assert answer.mimetype == "text/html"
        assert message in page_text(answer), path
    page = client.get(f"/matches/{match_id}/review{query}").get_data(as_text=True)
    assert 'href="/"' in page  # the site's navigation


def test_an_unknown_match_is_a_page_too(client: FlaskClient) -> None:
    answer = client.get("/matches/00000000-0000-0000-0000-000000000000/review?step=1")
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    assert "There is no match" in page_text(answer) and "the match list" in page_text(answer)


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({}, 400, "'step' is the number of a played step"),
        ({"step": "1", "player": "ana", "payload": {}}, 400, "'step' is the number"),
        ({"step": True, "player": "ana", "payload": {}}, 400, "'step' is the number"),
        ({"step": 1, "player": "", "payload": {}}, 400, "'player' is the name"),
        ({"step": 1, "player": "ana"}, 400, "'payload' is the pick"),
        ({"step": 99, "player": "ana", "payload": {"card": 1}}, 400, "step 99 was not played"),
        ({"step": 1, "player": "zed", "payload": {"card": 1}}, 400, "'zed' is not a player"),
        ({"step": 1, "player": "ana", "payload": {"card": 104}}, 400, "card 104 is not in"),
        ({"step": 1, "player": "ana", "payload": [1]}, 400, "is not a pick ana could make"),
    ],
)
def test_a_bad_what_if_is_a_json_error(
    app: Flask, client: FlaskClient, body: Any, status: int, message: str
) -> None:
    answer = client.post(f"/api/matches/{match_of(app, 'six-nimmt')}/what-if", json=body)
    assert answer.status_code == status
    assert message in answer.get_json()["error"]


def test_a_what_if_of_an_unknown_match_is_a_404(client: FlaskClient) -> None:
    answer = client.post(
        "/api/matches/nope/what-if", json={"step": 1, "player": "ana", "payload": {}}
    )
    assert answer.status_code == 404 and "There is no match 'nope'" in answer.get_json()["error"]


KEYS = ["card", "vote", "from", "to", "drop", "tiles", "reserve", "wants", "ban", "priority"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@pytest.mark.parametrize("game", list(GAMES))
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=JSON | st.dictionaries(st.sampled_from(KEYS), JSON))
def test_no_pick_breaks_the_what_if(
    app: Flask, client: FlaskClient, game: str, payload: Any
) -> None:
    match_id = match_of(app, game)
    player = PublicLog.of(service(app).records(match_id)).steps[1].submitters[0]
    answer = client.post(
        f"/api/matches/{match_id}/what-if", json={"step": 1, "player": player, "payload": payload}
    )
    assert answer.status_code in {200, 400}, answer.get_data(as_text=True)[:300]
    text = quote(json.dumps(payload))
    page = client.get(f"/matches/{match_id}/review?step=1&player={player}&pick={text}")
    assert page.status_code in {200, 400}


# ---------------------------------------------------------------------- a match under way


def test_a_match_under_way_is_reviewed_once_it_has_finished(store_client: FlaskClient) -> None:
    client = store_client
    made = create_match(client, "vote")
    mid, host = made["match_id"], bearer(made["host_token"])
    client.post(f"/api/matches/{mid}/steps", json={"seconds": 600}, headers=host)
    ask = {"step": 1, "player": "ana", "payload": {"vote": "cai"}}

    # 1. The step is open: nothing to review, no what-if
    page = client.get(f"/matches/{mid}/review?step=1")
    assert page.status_code == 200
    assert "Step 1 is not resolved yet" in page_text(page)
    assert "data-seat" not in page.get_data(as_text=True)
    refused = client.post(f"/api/matches/{mid}/what-if", json=ask)
    assert refused.status_code == 409 and "still under way" in refused.get_json()["error"]
    asked = client.get(f"/matches/{mid}/review?step=1&player=ana&pick=%7B%22vote%22%3A%22cai%22%7D")
    assert asked.status_code == 409 and "Step 1 is not resolved yet" in page_text(asked)

    # 2. Every vote is in and the step sealed: the match is over, the seed revealed
    for player, vote in (("ana", "ben"), ("ben", "ben"), ("cai", "ana")):
        sent = client.post(
            f"/api/matches/{mid}/players/{player}/submissions",
            json={"payload": {"vote": vote}},
            headers=bearer(made["player_tokens"][player]),
        )
        assert sent.status_code == 201
    client.post(f"/api/matches/{mid}/seal", headers=host)

    # Check the review runs now, on this store
    answer = client.post(f"/api/matches/{mid}/what-if", json=ask)
    assert answer.status_code == 200, answer.get_json()
    result = answer.get_json()
    assert result["original_result"]["winners"] == ["ben"]
    assert result["new_result"]["winners"] == ["ana", "ben", "cai"]
    words = page_text(client.get(result["review_url"]))
    assert "it ends with another result" in words and "A tie: ana, ben, cai" in words


def test_a_running_match_shows_no_sealed_pick(client: FlaskClient) -> None:
    """Picking Nine keeps every pick sealed until the match ends; a review shows none of them."""
    made, host, secret = picking_nine_with_a_secret(client)
    mid = made["match_id"]
    pool = client.get(f"/api/matches/{mid}/state").get_json()["pool"]
    for player in ["pengu", "grunkle", "dems"]:
        payload = {"wants": pool[:7], "ban": None, "priority": 1}
        sent = client.post(
            f"/api/matches/{mid}/players/{player}/submissions",
            json={"payload": payload},
            headers=bearer(made["player_tokens"][player]),
        )
        assert sent.status_code == 201, sent.get_json()
    client.post(f"/api/matches/{mid}/seal", headers=host)  # step 1 resolves; picks stay sealed
    needle = json.dumps(secret["wants"])[1:-1]
    pick = quote(json.dumps(secret))
    bodies = [
        client.get(f"/matches/{mid}/review?step=1&player=tog"),
        client.get(f"/matches/{mid}/review?step=1&player=tog&pick={pick}"),
        client.get(f"/matches/{mid}/review/comparison?step=1&player=tog&pick={pick}"),
        client.post(
            f"/api/matches/{mid}/what-if", json={"step": 1, "player": "tog", "payload": secret}
        ),
    ]
    assert [b.status_code for b in bodies] == [200, 409, 409, 409]
    for body in bodies:
        text = body.get_data(as_text=True)
        assert needle not in text and needle.replace(" ", "") not in text.replace(" ", "")
        assert "data-seat" not in text
    assert "This match is still under way" in page_text(bodies[0])


# ---------------------------------------------------------------------- the limit


def test_the_what_if_is_limited_per_address(tmp_path: Path) -> None:
    app = roomy_app(tmp_path / "instance", DEALERROOM_WHATIF_RATE="2/minute")
    try:
        match_id = play(app, "vote-basic")
        client = app.test_client()
        ask = {"step": 1, "player": "ana", "payload": {"vote": "cai"}}
        codes = [
            client.post(f"/api/matches/{match_id}/what-if", json=ask).status_code for _ in range(3)
        ]
        assert codes == [200, 200, 429]
        limited = client.post(f"/api/matches/{match_id}/what-if", json=ask).get_json()
        assert "too many what-ifs" in limited["error"]
    finally:
        service(app).close()
