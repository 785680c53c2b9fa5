"""Many hosts and players at once over real HTTP, on both stores: nothing lost, nothing twice.

Several matches of the vote and of 6 nimmt! are played at the same time against a gunicorn
server: every player commits and amends from a thread of their own while the host seals at
a random moment (in half of the matches the deadline ticker races the host's seal), picks
are revealed as steps resolve, and decisions are defaulted. Afterwards every match is read
back and checked by :func:`tests.load.workload.check_matches`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from tests.load.server import Api
from tests.load.workload import Ledger, Load, check_matches, six_nimmt, vote

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.load.server import Server

LOG = logging.getLogger(__name__)

PLAY_WAIT = 60.0  # seconds the whole load may take
# The host seals after 0.05-0.4 s; a 1 s deadline with the seal at 0.8-1.3 s lets the ticker
# (which runs every second) and the host race for the same seal.
RACE = {"seconds": 1, "seal_after": (0.8, 1.3)}


def test_concurrent_matches_keep_every_receipt_and_every_bundle_verifies(
    start_server: Callable[[], Server],
) -> None:
    # 1. A server on a fresh store, and six matches of four players.
    server = start_server()
    with Api(server.url) as api:
        ledger = Ledger()
        load = Load(api, ledger, seed=10)
        plans = [vote(), vote(), vote(**RACE), six_nimmt(), six_nimmt(), six_nimmt(**RACE)]
        tables = [load.create(plan) for plan in plans]

        # 2. Play them all at once: 6 hosts and up to 24 players submitting concurrently.
        load.run(tables, timeout=PLAY_WAIT)

        # Check every request was answered, and with a 201 or a 409 (the step was sealed).
        assert ledger.problems == []
        assert ledger.unanswered == 0
        assert set(ledger.refused) <= {409}
        assert len(ledger.accepted) >= len(tables)

        # Check every match against what its clients were told (exact: no crash here).
        found = check_matches(api, tables, ledger, exact=True)
        assert found.matches == len(tables)
        assert found.steps_resolved == 3 * 1 + 3 * 3  # every step of every plan resolved once
        assert found.receipts == len(ledger.accepted)
        LOG.info(  # shown with pytest --log-cli-level=INFO
            "%s matches, %s records, %s receipts, %s picks refused after the seal",
            found.matches,
            found.records,
            found.receipts,
            ledger.refused[409],
        )
