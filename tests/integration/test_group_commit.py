"""Group commit and inline projection (issue #19), on both stores.

Commands that arrive together are saved in one transaction; each save projects its own
events (index, summary, Merkle leaves, one signed checkpoint per match); a batch that cannot
be saved is retried command by command; nothing is acknowledged before it is durable, and
nothing is recorded twice.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import delete, select, update

from domain.receipt import verify_receipt
from service.application import DealerRoom

if TYPE_CHECKING:
    from domain.match import Match
    from service.config import Settings

PLAYERS = [f"p{i}" for i in range(6)]


def leaves_of(room: DealerRoom, match_id: str) -> list[int]:
    log = room.tlog
    with room.index.engine.connect() as conn:
        found = conn.execute(
            select(log.leaves.c.seq).where(log.leaves.c.match_id == match_id).order_by("seq")
        )
        return list(found.scalars())


def check_log(room: DealerRoom, match_id: str, receipts: list[dict[str, Any]]) -> None:
    """Every leaf once, checkpoints ascending to the end, every receipt extends to it."""
    size = len(room.records(match_id))
    assert leaves_of(room, match_id) == list(range(size))
    sizes = [c["size"] for c in room.tlog.every_checkpoint(match_id)]
    assert sizes == sorted(set(sizes)) and sizes[-1] == size
    for receipt in receipts:
        later = room.consistency(match_id, receipt["tree_size"])
        assert (
            verify_receipt(receipt, trusted_key=room.public_key(), later=later).later_size == size
        )


def test_submissions_arriving_together_share_saves_and_every_receipt_verifies(
    service: DealerRoom,
) -> None:
    matches = [service.create_match("vote", PLAYERS)["match_id"] for _ in range(4)]
    for match_id in matches:
        service.open_step(match_id)
    before = (service._batches.group.batches, service._batches.group.commands)
    receipts: dict[str, list[dict[str, Any]]] = {m: [] for m in matches}
    gate = threading.Barrier(len(matches) * len(PLAYERS))

    def vote(match_id: str, player: str) -> None:
        gate.wait()
        answer = service.submit(match_id, player, {"vote": "p1"})
        receipts[match_id].append(answer["receipt"])

    threads = [threading.Thread(target=vote, args=(m, p)) for m in matches for p in PLAYERS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    batches = service._batches.group.batches - before[0]
    commands = service._batches.group.commands - before[1]
    assert commands == len(threads)
    assert batches < commands  # 24 commands at once: some shared a transaction
    for match_id in matches:
        assert len(receipts[match_id]) == len(PLAYERS)
        commits = [r for r in service.records(match_id) if r["type"] == "SubmissionCommitted"]
        assert sorted(r["data"]["player"] for r in commits) == PLAYERS  # each exactly once
        check_log(service, match_id, receipts[match_id])
        assert service.seal(match_id) == "finished"
        check_log(service, match_id, receipts[match_id])


def test_a_refused_command_in_a_batch_leaves_the_others_alone(service: DealerRoom) -> None:
    match_id = service.create_match("vote", PLAYERS)["match_id"]
    service.open_step(match_id)
    errors: list[str] = []
    gate = threading.Barrier(len(PLAYERS))

    def vote(player: str) -> None:
        gate.wait()
        try:  # p0 votes for nobody on the list
            service.submit(match_id, player, {"vote": "zed" if player == "p0" else "p2"})
        except Exception as exc:  # noqa: BLE001 - the refusal is what is checked
            errors.append(f"{player}: {exc}")

    threads = [threading.Thread(target=vote, args=(p,)) for p in PLAYERS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(errors) == 1 and errors[0].startswith("p0: ")
    status = service.status(match_id)
    assert status["step"]["submitted"] == PLAYERS[1:]


def test_a_command_that_fails_half_way_spoils_nothing_saved(service: DealerRoom) -> None:
    match_id = service.create_match("vote", PLAYERS)["match_id"]
    service.open_step(match_id)
    service.submit(match_id, "p1", {"vote": "p2"})  # the match is now a hot copy

    def half_way(match: Match) -> None:
        match.seal(service.now())  # records StepSealed (and defaults) on the copy...
        msg = "and then fails"
        raise RuntimeError(msg)  # ...before the save: none of it may be kept

    with pytest.raises(RuntimeError, match="and then fails"):
        service._command(match_id, "host", half_way)
    assert service.status(match_id)["step"]["status"] == "open"
    assert service.submit(match_id, "p2", {"vote": "p3"})["unchanged"] is False
    assert service.status(match_id)["step"]["submitted"] == ["p1", "p2"]
    check_log(service, match_id, [])


def test_another_worker_s_saves_are_seen_and_a_lost_race_is_retried(settings: Settings) -> None:
    one, two = DealerRoom(settings), DealerRoom(settings)
    try:
        match_id = one.create_match("vote", PLAYERS)["match_id"]
        one.open_step(match_id)
        receipts = []
        # Each worker keeps its own copy of the match; they take turns, so each copy is
        # behind by the other's save every time.
        for i, player in enumerate(PLAYERS[:4]):
            receipts.append((one, two)[i % 2].submit(match_id, player, {"vote": "p0"})["receipt"])
        assert two.status(match_id)["step"]["submitted"] == PLAYERS[:4]
        key = one.match_key(match_id)
        receipts.append(one.submit(match_id, "p4", {"vote": "p0"})["receipt"])
        assert key in one._batches.hot  # read from the store, saved, kept
        # An answer that saves nothing is checked against the store: one's copy is behind
        # two's save, so p3's identical repeat is answered from the stored match.
        receipts.append(two.submit(match_id, "p5", {"vote": "p0"})["receipt"])
        again = one.submit(match_id, "p3", {"vote": "p0"})
        assert again["unchanged"] is True
        assert again["receipt"]["tree_size"] == len(one.records(match_id))
        # A copy behind another worker's save takes the events it lacks first (the match
        # index says it is behind), so nothing is retried.
        alone: list[str] = []
        run_alone = one._command_alone

        def counted(*args: Any, **kwargs: Any) -> Any:
            alone.append(args[1])
            return run_alone(*args, **kwargs)

        one._command_alone = counted  # type: ignore[method-assign]
        receipts.append(one.submit(match_id, "p0", {"vote": "p1"})["receipt"])
        receipts.append(two.submit(match_id, "p1", {"vote": "p1"})["receipt"])
        assert key in one._batches.hot
        receipts.append(one.submit(match_id, "p2", {"vote": "p1"})["receipt"])
        assert alone == []
        # A race lost outright: two saves between one's check and one's save (here: the
        # check answers as if it came first); the store refuses one's save, and the command
        # runs again by itself on the stored match.
        behind = one.index.version_of(match_id)
        receipts.append(two.submit(match_id, "p3", {"vote": "p1"})["receipt"])
        checked = one.index.version_of
        one.index.version_of = lambda _: behind  # type: ignore[method-assign]
        try:
            receipts.append(one.submit(match_id, "p4", {"vote": "p1"})["receipt"])
        finally:
            one.index.version_of = checked  # type: ignore[method-assign]
        assert alone == ["p4"]
        assert one.status(match_id)["step"]["submitted"] == PLAYERS
        commits = [r for r in one.records(match_id) if r["type"] == "SubmissionCommitted"]
        assert [r["data"]["player"] for r in commits] == [*PLAYERS, "p0", "p1", "p2", "p3", "p4"]
        check_log(one, match_id, receipts)
        check_log(two, match_id, receipts)
    finally:
        one.close()
        two.close()


def test_a_store_projected_by_the_old_catch_up_is_caught_up_once(settings: Settings) -> None:
    room = DealerRoom(settings)
    try:
        done = room.create_match("vote", ["ana", "ben"])["match_id"]
        room.open_step(done)
        room.submit(done, "ana", {"vote": "ben"})
        before = room.matches()
        size = len(room.records(done))
        # 1. Make the store look as an older service left it: the last events saved but
        #    not projected (the catch-up through the tracked position had not run yet).
        index, log = room.index, room.tlog
        with index.engine.begin() as conn:
            conn.execute(delete(index.tracking).where(index.tracking.c.name == index.INLINE))
            conn.execute(delete(log.leaves).where(log.leaves.c.seq >= 2))
            conn.execute(delete(log.checkpoints).where(log.checkpoints.c.size > 2))
            first_two = room.recorder.select_notifications(1, 2)[-1].id
            conn.execute(
                update(index.tracking)
                .where(index.tracking.c.name == index.NAME)
                .values(position=first_two)
            )
    finally:
        room.close()
    again = DealerRoom(settings)
    try:
        # 2. Opening it projects the rest once, then saves project themselves.
        assert leaves_of(again, done) == list(range(size))
        assert [m["status"] for m in again.matches()] == [m["status"] for m in before]
        again.submit(done, "ben", {"vote": "ana"})
        assert again.seal(done) == "finished"
        check_log(again, done, [])
    finally:
        again.close()
    third = DealerRoom(settings)  # an ordinary start writes nothing and projects nothing twice
    try:
        check_log(third, done, [])
    finally:
        third.close()


def test_workers_sharing_a_match_take_turns_instead_of_losing_saves(
    backend: str, settings: Settings
) -> None:
    """Two workers streaming picks into one match: on PostgreSQL no save is lost to the other.

    Without the advisory locks of :mod:`service.match_locks`, each worker computes on its copy
    while the other saves, and about every other save fails and runs again alone. On SQLite
    (one worker per instance) the locks are off and the unique key alone decides.
    """
    one, two = DealerRoom(settings), DealerRoom(settings)
    try:
        assert one.match_turns.enabled is (backend == "postgres")
        match_id = one.create_match("vote", PLAYERS)["match_id"]
        one.open_step(match_id, seconds=86400)
        alone: list[str] = []
        for room in (one, two):
            run_alone = room._command_alone

            def counted(*args: Any, _run: Any = run_alone, **kwargs: Any) -> Any:
                alone.append(args[1])
                return _run(*args, **kwargs)

            room._command_alone = counted  # type: ignore[method-assign]
        receipts: list[dict[str, Any]] = []
        failures: list[BaseException] = []

        def stream(room: DealerRoom, player: str) -> None:
            try:
                for n in range(12):
                    vote = PLAYERS[n % len(PLAYERS)]
                    receipts.append(room.submit(match_id, player, {"vote": vote})["receipt"])
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

        threads = [
            threading.Thread(target=stream, args=((one, two)[i % 2], player))
            for i, player in enumerate(PLAYERS[:4])
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert len(receipts) == 48
        if backend == "postgres":
            assert alone == []  # every batch waited for the other worker's turn, none raced
        commits = [r for r in one.records(match_id) if r["type"] == "SubmissionCommitted"]
        assert len(commits) == 48
        check_log(one, match_id, receipts)
        check_log(two, match_id, receipts)
    finally:
        one.close()
        two.close()


def test_callers_queued_behind_a_batch_form_the_next_one_each_answered_once() -> None:
    """The leader's own command is in its batch; those who queued meanwhile are the next one.

    The first batch is held open until every other caller has queued; they then run as
    batches of at most ``most``, oldest first, each command in exactly one batch, and every
    caller gets its own command back.
    """
    from uuid import uuid4

    from service.group_commit import GroupCommit, Work

    batches: list[list[int]] = []
    first_running, everyone_queued = threading.Event(), threading.Event()

    def run_batch(batch: list[Work]) -> None:
        batches.append([work.result for work in batch])
        if len(batches) == 1:
            first_running.set()
            assert everyone_queued.wait(10)

    group = GroupCommit(run_batch, most=4)
    answers: dict[int, Work] = {}

    def call(n: int) -> None:
        answers[n] = group.run(Work(uuid4(), "p", lambda m: m, result=n))

    first = threading.Thread(target=call, args=(0,))
    first.start()
    assert first_running.wait(10)
    others = [threading.Thread(target=call, args=(n,)) for n in range(1, 10)]
    for thread in others:
        thread.start()
    for _ in range(200):  # until all nine wait in the queue behind the first batch
        if len(group._queue) == 9:
            break
        threading.Event().wait(0.01)
    everyone_queued.set()
    for thread in [first, *others]:
        thread.join(10)
    assert batches[0] == [0]
    assert sorted(n for batch in batches for n in batch) == list(range(10))
    assert all(len(batch) <= 4 for batch in batches)
    assert len(batches) == 4  # [0], then the nine queued in three batches
    assert all(answers[n].result == n and answers[n].finished for n in range(10))
    assert group.batches == 4 and group.commands == 10
