"""``kill -9`` under load, then a restart on the same store: nothing acknowledged is lost.

While hosts and players play four matches over HTTP, the whole server (gunicorn's master
and workers) is killed with SIGKILL, as a power cut or the OOM killer would. It restarts on
the same store, and then:

* every submission that got a 2xx answer and a receipt is in the log, at its receipt's
  leaf, and the log after the restart extends the checkpoint the receipt holds;
* nothing is half-written: every match loads, its bundle passes the offline verifier, and
  the match index and signed checkpoints catch up with the log; the SQLite file passes
  ``PRAGMA integrity_check`` before the restart;
* a step whose deadline passed while the server was down is sealed and resolved by the
  deadline ticker after the restart;
* the matches go on: the open steps are sealed and resolved.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from domain.match import parse_time
from tests.load.server import Api
from tests.load.workload import RESOLVE_WAIT, Ledger, Load, Table, check_matches, six_nimmt, vote

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.load.server import Server

LOG = logging.getLogger(__name__)

LOAD_BEFORE_KILL = 40  # accepted submissions to wait for before the kill
LOAD_WAIT = 30.0  # ... or at most this many seconds
DEADLINE = 4  # seconds: the step with this deadline is killed long before it is due


def test_kill_9_under_load_loses_no_acknowledged_submission_and_deadlines_apply_after_restart(
    start_server: Callable[[], Server], store: dict[str, str]
) -> None:
    # 1. A server on a fresh store; four long 6 nimmt! matches under load.
    server = start_server()
    ledger = Ledger()
    with Api(server.url) as api:
        load = Load(api, ledger, seed=20)
        tables = [load.create(six_nimmt(steps=20)) for _ in range(4)]
        late = load.create(vote(players=2))
        load.start(tables)
        until = time.monotonic() + LOAD_WAIT
        while len(ledger.accepted) < LOAD_BEFORE_KILL and time.monotonic() < until:
            time.sleep(0.05)
        assert ledger.problems == []
        assert len(ledger.accepted) >= LOAD_BEFORE_KILL // 4, "the load never got going"

        # 2. One vote opens a step with a short deadline; one of its two players votes.
        opened = api.post(f"/api/matches/{late.match_id}/steps", {"seconds": DEADLINE}, late.host)
        assert opened.status == 201, opened.body
        deadline = parse_time(api.get_ok(f"/api/matches/{late.match_id}")["step"]["deadline"])
        assert load.submit(late, 1, "ana", {"vote": "ben"})

        # 3. kill -9 the server, master and workers, mid-load and before that deadline.
        server.kill()
        killed_at = datetime.now(tz=UTC)
        assert killed_at < deadline, "the machine is too slow: the deadline passed before the kill"
        assert load.join(RESOLVE_WAIT) == []
        assert ledger.problems == []

    # Check the SQLite file is whole before anything opens it again.
    if "DEALERROOM_DATABASE_URL" not in store:
        db = f"file:{store['DEALERROOM_INSTANCE']}/dealerroom.sqlite3?mode=ro"
        with sqlite3.connect(db, uri=True) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()

    # 4. Wait past the deadline, then restart on the same store.
    time.sleep(max(0.0, (deadline - datetime.now(tz=UTC)).total_seconds()) + 0.2)
    server = start_server()
    with Api(server.url) as api:
        # Check the ticker seals and resolves the overdue step (ben gets the default).
        records = _wait_finished(api, late)
        sealed = next(r for r in records if r["type"] == "StepSealed")
        assert sealed["data"]["actor"] == "system"
        assert sealed["data"]["missing"] == ["ben"]
        assert parse_time(sealed["at"]) >= deadline > killed_at
        assert any(r["type"] == "StepResolved" for r in records)

        # Check every acknowledged submission survived and every match verifies; an answer
        # lost in the kill may have left a commitment nobody was told about, one per request.
        found = check_matches(api, [*tables, late], ledger, exact=False)
        assert found.receipts == len(ledger.accepted)
        assert found.extra_commitments <= ledger.unanswered

        # 5. The matches go on: the host seals each open step and it resolves.
        load = Load(api, ledger)
        for table in tables:
            status = api.get_ok(f"/api/matches/{table.match_id}")
            if status["step"]["status"] == "open":
                assert api.post(f"/api/matches/{table.match_id}/seal", {}, table.host).ok
            assert not load.resolve(table, status["step"]["number"])
        assert ledger.problems == []
        check_matches(api, [*tables, late], ledger, exact=False)
        LOG.info(  # shown with pytest --log-cli-level=INFO
            "%s receipts before the kill, %s requests unanswered, "
            "%s commitments recorded but never acknowledged",
            len(ledger.accepted),
            ledger.unanswered,
            found.extra_commitments,
        )


def _wait_finished(api: Api, table: Table) -> list[dict]:
    """The records of ``table`` once the match has finished (within :data:`RESOLVE_WAIT`)."""
    until = time.monotonic() + RESOLVE_WAIT
    while not api.get_ok(f"/api/matches/{table.match_id}")["finished"]:
        assert time.monotonic() < until, "the overdue step was not applied after the restart"
        time.sleep(0.1)
    return api.get_ok(f"/api/matches/{table.match_id}/records")
