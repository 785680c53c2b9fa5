"""One root for user errors: only they answer 4xx; anything else is a logged 500."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pytest
from flask import Flask

from domain.commitment import CommitmentError
from domain.errors import Conflict, Missing, Refused, UserError
from domain.fairrand import SeedError
from domain.match import BadInvite, BadSalt, MatchConflict, MatchError, SeatTaken
from domain.merkle import ProofError
from domain.receipt import ReceiptError
from domain.rules.base import RulesError
from domain.signed_note import NoteError
from domain.submission_signing import SignatureError
from replay.bundle import BundleError
from replay.inputs import InputError
from replay.review import ReviewError
from replay.state import ReplayError
from replay.whatif import WhatIfError
from service.application import MatchIdTaken, NotFound
from service.archive import ArchiveError, ImportConflict, ImportedMatchError
from service.config import ConfigError
from service.names import PlayerNameError
from service.simulate import ScenarioError
from service.transparency import ProofRequestError
from web import errors

if TYPE_CHECKING:
    from flask.testing import FlaskClient

USER_ERRORS = [
    ArchiveError, BadSalt, BundleError, CommitmentError, ConfigError, ImportedMatchError,
    InputError, MatchError, NoteError, PlayerNameError, ProofError, ProofRequestError,
    ReceiptError, ReplayError, ReviewError, RulesError, ScenarioError, SeedError,
    SignatureError, WhatIfError,
]  # fmt: skip


@pytest.mark.parametrize("kind", USER_ERRORS, ids=lambda k: k.__name__)
def test_every_user_error_has_the_one_root(kind: type[Exception]) -> None:
    assert issubclass(kind, UserError)


@pytest.mark.parametrize(
    ("kind", "root"),
    [(MatchConflict, Conflict), (SeatTaken, Conflict), (MatchIdTaken, Conflict),
     (ImportConflict, Conflict), (BadInvite, Refused), (NotFound, Missing)],
    ids=lambda k: k.__name__,
)  # fmt: skip
def test_each_kind_of_user_error_has_its_own_root(kind: type[Exception], root: type) -> None:
    assert issubclass(kind, root)


def _client(raised: BaseException) -> FlaskClient:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 1024
    errors.init_app(app)

    @app.get("/boom")
    def boom() -> str:
        raise raised

    return app.test_client()


@pytest.mark.parametrize(
    ("raised", "status"),
    [(MatchError("a bad pick"), 400), (RulesError("no such option"), 400),
     (BundleError("not a bundle"), 400), (SeatTaken("seat taken"), 409),
     (BadInvite("not this seat's invite"), 403), (NotFound("no match x"), 404)],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else str(v),
)  # fmt: skip
def test_a_user_error_answers_its_status_and_message(raised: Exception, status: int) -> None:
    response = _client(raised).get("/boom")
    assert response.status_code == status
    assert response.get_json() == {"error": str(raised)}


@pytest.mark.unexpected_errors
@pytest.mark.parametrize("raised", [ValueError("x"), KeyError("k"), LookupError("l")])
def test_any_other_error_is_a_logged_500_that_says_nothing_internal(
    raised: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="dealerroom.web"):
        response = _client(raised).get("/boom")
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error; it has been logged"}
    assert [r.msg for r in caplog.records] == [errors.UNEXPECTED]
