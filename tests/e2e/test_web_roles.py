"""The front end's JSON API by role, through Flask's test client: who may do what.

A player acts only as themself, the host only as host, strangers only read public records;
cookie sessions need the CSRF header; no response carries a sealed pick before disclosure.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from tests.actions import bearer, create_match, picking_nine_with_a_secret
from web.extension import service

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient


def test_creating_a_match_gives_private_links_with_the_secret_in_the_fragment(
    client: FlaskClient,
) -> None:
    response = client.post("/api/matches", json={"game": "vote", "players": ["ana", "ben", "cai"]})
    made = response.get_json()
    mid = made["match_id"]
    assert "player_tokens" not in made
    assert made["links"]["host"].endswith(f"/matches/{mid}/host#{made['host_token']}")
    for player, invite in made["invites"].items():
        assert made["links"]["players"][player].endswith(
            f"/matches/{mid}/players/{player}#invite={invite}"
        )
    assert len(set(made["invites"].values()) | {made["host_token"]}) == 4


def test_the_host_holds_no_player_credential_and_a_used_invite_is_refused(
    client: FlaskClient,
) -> None:
    response = client.post("/api/matches", json={"game": "vote", "players": ["ana", "ben"]})
    made = response.get_json()
    mid = made["match_id"]
    claim = f"/api/matches/{mid}/players/ana/claim"
    # Check the host's token does not act as a player, nor does an unclaimed invite
    for secret in (made["host_token"], made["invites"]["ana"]):
        refused = client.get(f"/api/matches/{mid}/players/ana", headers=bearer(secret))
        assert refused.status_code == 403
    assert client.post(claim, json={"invite": made["invites"]["ben"]}).status_code == 403
    first = client.post(claim, json={"invite": made["invites"]["ana"]})
    assert first.status_code == 201
    again = client.post(claim, json={"invite": made["invites"]["ana"]})
    assert again.status_code == 409 and "already claimed" in again.get_json()["error"]
    token = first.get_json()["token"]
    assert client.get(f"/api/matches/{mid}/players/ana", headers=bearer(token)).status_code == 200
    # Check a re-invite by the host revokes the old credential
    issued = client.post(
        f"/api/matches/{mid}/players/ana/invite", headers=bearer(made["host_token"])
    )
    assert issued.status_code == 201 and issued.get_json()["link"].endswith(
        "#invite=" + issued.get_json()["invite"]
    )
    assert client.get(f"/api/matches/{mid}/players/ana", headers=bearer(token)).status_code == 403
    as_player = client.post(f"/api/matches/{mid}/players/ben/invite", headers=bearer(token))
    assert as_player.status_code == 403
    kinds = [r["type"] for r in client.get(f"/api/matches/{mid}/records").get_json()]
    assert kinds[-2:] == ["SeatClaimed", "SeatReinvited"]


def test_signing_out_revokes_the_grant_on_the_server(client: FlaskClient, app: Flask) -> None:
    made = create_match(client)
    mid = made["match_id"]
    signed = client.post(
        f"/api/matches/{mid}/session", json={"token": made["player_tokens"]["ana"]}
    )
    csrf = signed.get_json()["csrf_token"]
    cookie = client.get_cookie("dealerroom")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Strict"
    copied = cookie.value
    assert client.get(f"/api/matches/{mid}/players/ana").status_code == 200
    assert (
        client.delete(f"/api/matches/{mid}/session", headers={"X-CSRF-Token": csrf}).status_code
        == 200
    )
    # Check a copy of the cookie taken before signing out no longer works
    thief = app.test_client()
    thief.set_cookie("dealerroom", copied)
    assert thief.get(f"/api/matches/{mid}/players/ana").status_code == 401


def test_the_session_cookie_is_secure_over_https(client: FlaskClient) -> None:
    made = create_match(client)
    client.post(
        f"/api/matches/{made['match_id']}/session",
        json={"token": made["host_token"]},
        base_url="https://localhost",
    )
    cookie = client.get_cookie("dealerroom", domain="localhost")
    assert cookie is not None and cookie.secure


def test_only_the_host_opens_and_seals_steps(app: Flask, client: FlaskClient) -> None:
    made = create_match(client)
    mid = made["match_id"]
    url = f"/api/matches/{mid}/steps"
    anonymous = client.post(url, json={"seconds": 60})
    assert anonymous.status_code == 401 and "private link" in anonymous.get_json()["error"]
    as_player = client.post(url, json={"seconds": 60}, headers=bearer(made["player_tokens"]["ana"]))
    assert as_player.status_code == 403
    other = create_match(client)
    as_other_host = client.post(url, json={"seconds": 60}, headers=bearer(other["host_token"]))
    assert as_other_host.status_code == 403
    opened = client.post(url, json={"seconds": 60}, headers=bearer(made["host_token"]))
    assert opened.status_code == 201 and opened.get_json()["step"] == 1
    assert (
        client.post(
            f"/api/matches/{mid}/seal", headers=bearer(made["player_tokens"]["ben"])
        ).status_code
        == 403
    )
    assert (
        len(service(app).records(mid)) == 6
    )  # created, seed, three claims, step opened: nothing else


def test_a_player_acts_only_as_themself(app: Flask, client: FlaskClient) -> None:
    made = create_match(client)
    mid = made["match_id"]
    client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 60}, headers=bearer(made["host_token"])
    )
    ana, ben = made["player_tokens"]["ana"], made["player_tokens"]["ben"]
    url = f"/api/matches/{mid}/players/ana/submissions"
    for headers in ({}, bearer(ben), bearer(made["host_token"])):
        refused = client.post(url, json={"payload": {"vote": "ben"}}, headers=headers)
        assert refused.status_code in (401, 403)
    assert client.get(f"/api/matches/{mid}/players/ana", headers=bearer(ben)).status_code == 403
    accepted = client.post(url, json={"payload": {"vote": "ben"}}, headers=bearer(ana))
    assert accepted.status_code == 201
    answer = accepted.get_json()
    assert answer["receipt"]["record"]["data"]["commitment"] == answer["commitment"]
    own = client.get(f"/api/matches/{mid}/players/ana", headers=bearer(ana)).get_json()
    assert own["current_pick"] == {"step": 1, "pick": {"vote": "ben"}}
    with app.app_context():
        commits = [r for r in service(app).records(mid) if r["type"] == "SubmissionCommitted"]
    assert [r["data"]["player"] for r in commits] == ["ana"]


def test_a_private_link_signs_the_browser_in_and_forms_need_the_csrf_header(
    client: FlaskClient,
) -> None:
    made = create_match(client)
    mid = made["match_id"]
    client.post(
        f"/api/matches/{mid}/steps", json={"seconds": 60}, headers=bearer(made["host_token"])
    )
    assert client.post(f"/api/matches/{mid}/session", json={"token": "guess"}).status_code == 403
    signed = client.post(
        f"/api/matches/{mid}/session", json={"token": made["player_tokens"]["cai"]}
    )
    assert signed.status_code == 200 and signed.get_json()["role"] == "cai"
    csrf = signed.get_json()["csrf_token"]
    url = f"/api/matches/{mid}/players/cai/submissions"
    no_header = client.post(url, json={"payload": {"vote": "ana"}})
    assert no_header.status_code == 403 and "CSRF" in no_header.get_json()["error"]
    wrong = client.post(
        url, json={"payload": {"vote": "ana"}}, headers={"X-CSRF-Token": "x" + csrf}
    )
    assert wrong.status_code == 403
    ok = client.post(url, json={"payload": {"vote": "ana"}}, headers={"X-CSRF-Token": csrf})
    assert ok.status_code == 201
    # The grant is cai's alone: the cookie does not let this browser act as ana.
    as_ana = client.post(
        f"/api/matches/{mid}/players/ana/submissions",
        json={"payload": {"vote": "ana"}},
        headers={"X-CSRF-Token": csrf},
    )
    assert as_ana.status_code == 401
    page = client.get(f"/matches/{mid}/players/cai")
    assert page.status_code == 200 and b"Seal and send my pick" in page.data
    assert (
        client.delete(f"/api/matches/{mid}/session", headers={"X-CSRF-Token": csrf}).status_code
        == 200
    )
    assert (
        client.post(
            url, json={"payload": {"vote": "ben"}}, headers={"X-CSRF-Token": csrf}
        ).status_code
        == 401
    )


def test_api_bodies_must_be_json_objects(client: FlaskClient) -> None:
    form = client.post("/api/matches", data={"game": "vote", "players": "ana"})
    assert form.status_code == 400 and "application/json" in form.get_json()["error"]
    broken = client.post("/api/matches", data="{nope", content_type="application/json")
    assert broken.status_code == 400
    wrong_type = client.post("/api/matches", json={"game": "vote", "players": "ana"})
    assert (
        wrong_type.status_code == 400
        and "'players' must be a list" in wrong_type.get_json()["error"]
    )
    unknown = client.post("/api/matches", json={"game": "chess", "players": ["a", "b"]})
    assert unknown.status_code == 400 and "unknown game" in unknown.get_json()["error"]


def test_pages_carry_a_content_security_policy_and_no_inline_script(
    app: Flask, client: FlaskClient
) -> None:
    made = create_match(client)
    mid = made["match_id"]
    for url in [
        "/",
        "/new",
        f"/matches/{mid}",
        f"/matches/{mid}/host",
        f"/matches/{mid}/players/ana",
    ]:
        page = client.get(url)
        assert page.status_code == 200, url
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert page.headers["X-Frame-Options"] == "DENY"
        html = page.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url  # no inline script
        assert " style=" not in html and " onclick=" not in html, url


def test_every_api_route_is_in_the_openapi_document_and_back(
    app: Flask, client: FlaskClient
) -> None:
    document = client.get("/api/openapi.json").get_json()
    described = {
        (path, method.upper())
        for path, operations in document["paths"].items()
        for method in operations
    }
    served = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        served |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert described == served


def test_an_unknown_player_page_is_a_404(client: FlaskClient) -> None:
    mid = create_match(client)["match_id"]
    response = client.get(f"/matches/{mid}/players/zed")
    assert response.status_code == 404 and "zed" in response.get_json()["error"]


def test_no_response_shows_a_sealed_pick_before_disclosure(client: FlaskClient) -> None:
    """Picking Nine keeps every pick sealed until the match ends: probe every route and role."""
    made, host, secret = picking_nine_with_a_secret(client)
    mid = made["match_id"]
    needle = json.dumps(secret["wants"])[1:-1]  # the want-list, as it would appear in any JSON
    urls = [
        "/",
        f"/matches/{mid}",
        f"/matches/{mid}/host",
        f"/matches/{mid}/players/tog",
        f"/matches/{mid}/players/pengu",
        "/api/matches",
        f"/api/matches/{mid}",
        f"/api/matches/{mid}/records",
        f"/api/matches/{mid}/state",
        f"/api/matches/{mid}/bundle",
        f"/api/matches/{mid}/checkpoint",
        f"/api/matches/{mid}/players/pengu",
    ]
    roles = {"anonymous": {}, "host": host, "pengu": bearer(made["player_tokens"]["pengu"])}
    for role, headers in roles.items():
        for url in urls:
            body = client.get(url, headers=headers).get_data(as_text=True)
            assert needle not in body and needle.replace(" ", "") not in body.replace(" ", ""), (
                role,
                url,
            )
    # The submitting player alone sees their own pick.
    own = client.get(
        f"/api/matches/{mid}/players/tog", headers=bearer(made["player_tokens"]["tog"])
    )
    assert own.get_json()["current_pick"]["pick"] == secret
