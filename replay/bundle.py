"""Match bundles: one file holding a match's public log, its signed checkpoints and receipts.

A bundle is everything an offline verifier needs (``docs/protocol-bundles.md``)::

    {"format": "dealerroom/bundle/v1",
     "match_id": "<lowercase UUID>",
     "origin": "<prefix>/match/<match_id>",
     "rules": {"game": "six-nimmt", "version": "1"},
     "public_key": "<C2SP verifier key: name+keyid+base64(0x01 || key)>",
     "records": [<public records, seq 0, 1, 2, ...>],
     "checkpoints": [{"size": n, "note": "<signed checkpoint note>"}, ...],
     "receipts": [<receipts, see replay.receipt>]}

The file is the RFC 8785 (JCS) canonical JSON of that object followed by one newline, so
``dump_bundle(load_bundle(x)) == x`` for every bundle this module wrote.

Leaves are ``JCS(record)`` and leaf hashes ``SHA-256(0x00 || leaf)``, the tree is RFC 6962
(``domain.merkle``), checkpoints are C2SP tlog-checkpoint bodies in C2SP signed notes
(``domain.signed_note``) whose key name is the origin prefix before ``/match/``.

:func:`play_scenario` drives a scenario (ARCHITECTURE.md, "Scenario format") through the
domain :class:`~domain.match.Match` aggregate with explicit times and salts, so tests and
fixtures get real, deterministic records without the service.
"""

from __future__ import annotations

import base64
import hashlib
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from domain import submission_signing
from domain.canonical import canonical_json
from domain.commitment import CommitmentError, canonical_match_id, commit
from domain.errors import UserError
from domain.match import Match, actor, format_time, public_record, token_hash
from domain.merkle import MerkleLog, record_leaf_hash
from domain.rules import get_rules
from domain.signed_note import Checkpoint, NoteError, Signer, Verifier, sign_checkpoint
from replay.inputs import InputError, parse_json

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from datetime import datetime
    from uuid import UUID

BUNDLE_FORMAT = "dealerroom/bundle/v1"
BUNDLE_KEYS = (
    "format",
    "match_id",
    "origin",
    "rules",
    "public_key",
    "records",
    "checkpoints",
    "receipts",
)
RECORD_KEYS = frozenset({"seq", "type", "at", "data"})
MATCH_PATH = "/match/"
HOST = "host"  # who declares a custom game's winners (a scenario step's "declare")
_PLAYER_KEY_NAME = "player"  # players' keys are bare Ed25519 keys; the note key name is unused

Record = dict[str, Any]
Bundle = dict[str, Any]
SeatAction = tuple[str, str, "bytes | None"]
"""``("claim", player, private key or None)`` or ``("reinvite", player, None)``."""


class BundleError(UserError):
    """A bundle (or its parts) that is malformed, with the place and the reason."""


# ---------------------------------------------------------------------------
# Canonical bytes and leaves (defined in ``domain``; re-exported for readers of bundles)
# ---------------------------------------------------------------------------

jcs = canonical_json
submission_message = submission_signing.submission_message


def merkle_log(records: Sequence[Mapping[str, Any]]) -> MerkleLog:
    """Return the :class:`~domain.merkle.MerkleLog` over the records' leaves, in order."""
    log = MerkleLog()
    append = log.append
    for record in records:
        append(record_leaf_hash(record))
    return log


# ---------------------------------------------------------------------------
# Origins and keys
# ---------------------------------------------------------------------------


def match_origin(prefix: str, match_id: str) -> str:
    """Return the log origin of a match: ``<prefix>/match/<match_id>``.

    >>> match_origin("dealerroom.example", "6B3F2A2E-1C4D-4E5F-9A8B-7C6D5E4F3A2B")
    'dealerroom.example/match/6b3f2a2e-1c4d-4e5f-9a8b-7c6d5e4f3a2b'
    """
    return f"{prefix}{MATCH_PATH}{canonical_match_id(match_id)}"


def split_origin(origin: Any) -> tuple[str, str]:
    """Split an origin into its prefix (the key name) and its canonical match id.

    :raises BundleError: unless ``origin`` is ``<prefix>/match/<lowercase UUID>``.

    >>> split_origin("dealerroom.example/match/6b3f2a2e-1c4d-4e5f-9a8b-7c6d5e4f3a2b")
    ('dealerroom.example', '6b3f2a2e-1c4d-4e5f-9a8b-7c6d5e4f3a2b')
    """
    if not isinstance(origin, str):
        msg = "the origin is text: <prefix>/match/<match id>"
        raise BundleError(msg)
    prefix, sep, match_id = origin.rpartition(MATCH_PATH)
    try:
        canonical = canonical_match_id(match_id)
    except CommitmentError:
        canonical = None
    if not sep or not prefix or canonical != match_id:
        msg = f"origin {origin!r} is not <prefix>/match/<lowercase match id>"
        raise BundleError(msg)
    return prefix, match_id


def verifier_key(key: Verifier | str, where: str = "public_key") -> Verifier:
    """Return ``key`` as a :class:`~domain.signed_note.Verifier` (parsing verifier key text).

    Only the canonical text of a key is accepted (``docs/protocol-tamper-evidence.md``
    section 7); ``where`` names the key in the message.

    :raises BundleError: for a malformed verifier key.
    """
    if isinstance(key, Verifier):
        return key
    try:
        return Verifier.from_vkey(key)
    except (NoteError, AttributeError, TypeError) as exc:
        msg = f"{where} is not a verifier key <name>+<key id>+<base64 key>: {exc}"
        raise BundleError(msg) from None


# ---------------------------------------------------------------------------
# Checkpoints
# ---------------------------------------------------------------------------


def sign_checkpoints(
    records: Sequence[Mapping[str, Any]],
    signer: Signer,
    origin: str,
    sizes: Sequence[int],
    *,
    log: MerkleLog | None = None,
) -> list[dict[str, Any]]:
    """Sign one checkpoint per tree size over ``records``; return ``[{"size", "note"}, ...]``.

    ``log`` may pass the records' :func:`merkle_log` when the caller has it already.

    :raises BundleError: if the sizes are not ascending and within the records, or the
        signer's key name is not the origin's prefix.
    """
    prefix, _ = split_origin(origin)
    if signer.name != prefix:
        msg = f"the signing key is named {signer.name!r}; checkpoints of {origin} need {prefix!r}"
        raise BundleError(msg)
    _check_sizes(list(sizes), len(records))
    log = merkle_log(records) if log is None else log
    return [
        {"size": size, "note": sign_checkpoint(Checkpoint(origin, size, log.root(size)), signer)}
        for size in sizes
    ]


def _check_sizes(sizes: list[Any], limit: int | None) -> None:
    if not sizes:
        msg = "a bundle needs at least one checkpoint"
        raise BundleError(msg)
    for i, size in enumerate(sizes):
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            msg = f"checkpoints[{i}].size must be a whole number, not {size!r}"
            raise BundleError(msg)
        if i and size <= sizes[i - 1]:
            msg = f"checkpoint sizes must ascend strictly: {sizes[i - 1]} then {size}"
            raise BundleError(msg)
        if limit is not None and size > limit:
            msg = f"checkpoint size {size} exceeds the {limit} records"
            raise BundleError(msg)


# ---------------------------------------------------------------------------
# Building, dumping and loading bundles
# ---------------------------------------------------------------------------


def build_bundle(
    records: Sequence[Mapping[str, Any]],
    checkpoints: Sequence[Mapping[str, Any]],
    public_key: Verifier | str,
    *,
    receipts: Sequence[Mapping[str, Any]] = (),
) -> Bundle:
    """Assemble a bundle; the match id, origin and rules come from the ``MatchCreated`` record.

    :raises BundleError: if the records do not start with ``MatchCreated`` or a part is
        malformed.
    """
    if not records or records[0].get("type") != "MatchCreated":
        msg = "the records must start with MatchCreated"
        raise BundleError(msg)
    data = records[0].get("data")
    if not isinstance(data, dict):
        msg = "records[0].data must be an object"
        raise BundleError(msg)
    origin = data.get("origin")
    _, match_id = split_origin(origin)
    bundle: Bundle = {
        "format": BUNDLE_FORMAT,
        "match_id": match_id,
        "origin": origin,
        "rules": {"game": data.get("game"), "version": data.get("rules_version")},
        "public_key": verifier_key(public_key).vkey(),
        "records": [dict(r) for r in records],
        "checkpoints": [dict(c) for c in checkpoints],
        "receipts": [dict(r) for r in receipts],
    }
    return check_bundle(bundle)


def export_bundle(
    records: Sequence[Mapping[str, Any]],
    signer: Signer,
    *,
    sizes: Sequence[int] | None = None,
    receipts: Sequence[Mapping[str, Any]] = (),
) -> Bundle:
    """Sign checkpoints at ``sizes`` (default: just the whole log) and build the bundle.

    :raises BundleError:
    """
    if not records:
        msg = "there are no records to export"
        raise BundleError(msg)
    origin = records[0].get("data", {}).get("origin")
    sizes = [len(records)] if sizes is None else list(sizes)
    checkpoints = sign_checkpoints(records, signer, origin, sizes)
    return build_bundle(records, checkpoints, signer.verifier(), receipts=receipts)


def dump_bundle(bundle: Mapping[str, Any]) -> bytes:
    """Return the file bytes of a bundle: its RFC 8785 canonical JSON and one newline.

    :raises BundleError: if the bundle is malformed.
    """
    check_bundle(bundle)
    return jcs(bundle) + b"\n"


def load_bundle(data: bytes | str) -> Bundle:
    """Parse and shape-check bundle file bytes (UTF-8 JSON; canonical form not required).

    Duplicate keys, ``NaN`` and ``Infinity``, numbers of more than 40 characters and values
    nested more than 100 levels deep are rejected (:mod:`replay.inputs`). Whether the
    records are honest is the verifier's question (:mod:`replay.verify`), not this
    function's.

    :raises BundleError: with the place and the reason.
    """
    try:
        value = parse_json(data, "the bundle")
    except InputError as exc:
        raise BundleError(str(exc)) from None
    return check_bundle(value)


def check_bundle(bundle: Any) -> Bundle:
    """Return ``bundle`` if it has the bundle's shape.

    Checked: exactly the bundle's keys; the format; a canonical match id matching the
    origin; rules with a game and a version; a well-formed verifier key; records that are
    objects with exactly ``seq`` (whole number), ``type``, ``at`` (text) and ``data``
    (object); at least one checkpoint, sizes ascending, notes as text; receipts as objects.

    :raises BundleError: with the place and the reason.
    """
    if not isinstance(bundle, dict):
        msg = "a bundle is a JSON object"
        raise BundleError(msg)
    keys = set(bundle)
    missing = [k for k in BUNDLE_KEYS if k not in keys]
    extra = sorted(keys - set(BUNDLE_KEYS))
    if missing:
        msg = f"the bundle lacks {', '.join(missing)}"
        raise BundleError(msg)
    if extra:
        msg = f"the bundle has unknown key(s) {', '.join(extra)}"
        raise BundleError(msg)
    if bundle["format"] != BUNDLE_FORMAT:
        msg = f"format is {bundle['format']!r}; this reader knows {BUNDLE_FORMAT!r}"
        raise BundleError(msg)
    _, match_id = split_origin(bundle["origin"])
    if bundle["match_id"] != match_id:
        msg = f"match_id {bundle['match_id']!r} is not the match of origin {bundle['origin']!r}"
        raise BundleError(msg)
    rules = bundle["rules"]
    if (
        not isinstance(rules, dict)
        or set(rules) != {"game", "version"}
        or not all(isinstance(v, str) and v for v in rules.values())
    ):
        msg = 'rules is {"game": text, "version": text}'
        raise BundleError(msg)
    if not isinstance(bundle["public_key"], str):
        msg = "public_key is verifier key text"
        raise BundleError(msg)
    verifier_key(bundle["public_key"])
    for name in ("records", "checkpoints", "receipts"):
        if not isinstance(bundle[name], list):
            msg = f"{name} is a list"
            raise BundleError(msg)
    for i, record in enumerate(bundle["records"]):
        check_record_shape(record, f"records[{i}]")
    for i, checkpoint in enumerate(bundle["checkpoints"]):
        if not isinstance(checkpoint, dict) or set(checkpoint) != {"size", "note"}:
            msg = f'checkpoints[{i}] is {{"size": n, "note": text}}'
            raise BundleError(msg)
        if not isinstance(checkpoint["note"], str):
            msg = f"checkpoints[{i}].note is the signed note's text"
            raise BundleError(msg)
    _check_sizes([c["size"] for c in bundle["checkpoints"]], None)
    for i, receipt in enumerate(bundle["receipts"]):
        if not isinstance(receipt, dict):
            msg = f"receipts[{i}] is an object"
            raise BundleError(msg)
    return bundle


def check_record_shape(record: Any, where: str = "record") -> None:
    """Raise :class:`BundleError` unless ``record`` is ``{"seq", "type", "at", "data"}``.

    >>> check_record_shape({"seq": 0, "type": "MatchCreated", "at": "t", "data": {}})
    >>> check_record_shape({"seq": -1, "type": "MatchCreated", "at": "t", "data": {}})
    Traceback (most recent call last):
    ...
    replay.bundle.BundleError: record.seq must be a whole number, not -1
    """
    if not isinstance(record, dict) or record.keys() != RECORD_KEYS:
        msg = f'{where} is {{"seq", "type", "at", "data"}} and nothing else'
        raise BundleError(msg)
    seq = record["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        msg = f"{where}.seq must be a whole number, not {seq!r}"
        raise BundleError(msg)
    if not isinstance(record["type"], str) or not isinstance(record["at"], str):
        msg = f"{where}.type and {where}.at are text"
        raise BundleError(msg)
    if not isinstance(record["data"], dict):
        msg = f"{where}.data is an object"
        raise BundleError(msg)


# ---------------------------------------------------------------------------
# Playing scenarios through the aggregate (tests and fixtures)
# ---------------------------------------------------------------------------


def counter_salt(counter: int) -> bytes:
    """A deterministic salt for tests and fixtures: ``SHA-256("dealerroom/test-salt/<n>")``.

    Never use it for real matches: anyone can recompute it and open the commitment.
    """
    return hashlib.sha256(f"dealerroom/test-salt/{counter}".encode()).digest()


def player_public_key(private_key: bytes) -> str:
    """Return the ``player_keys`` form of an Ed25519 key: base64 of the 32 raw public bytes.

    >>> player_public_key(bytes(range(32)))
    'A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg='
    """
    return base64.b64encode(Signer(_PLAYER_KEY_NAME, private_key).verifier().public_key).decode()


def sign_submission(
    private_key: bytes, match_id: str, step: int, player: str, commitment: str
) -> str:
    """Return a player's signature of a submission (base64), from the raw private key."""
    return submission_signing.sign_submission(private_key, match_id, step, player, commitment)


def check_submission_signature(
    public_key: str, signature: str, match_id: str, step: int, player: str, commitment: str
) -> bool:
    """Return whether ``signature`` (base64) is the player's signature of the submission.

    ``public_key`` is the ``MatchCreated.player_keys`` entry (base64 of 32 raw bytes); the
    message and the check are :mod:`domain.submission_signing`'s.

    >>> key = bytes(range(32))
    >>> sig = sign_submission(key, "00000000-0000-4000-8000-000000000000", 1, "ana", "ab" * 32)
    >>> check_submission_signature(player_public_key(key), sig,
    ...                            "00000000-0000-4000-8000-000000000000", 1, "ana", "ab" * 32)
    True
    """
    try:
        submission_signing.check_submission_signature(
            public_key, signature, match_id, step, player, commitment
        )
    except (submission_signing.SignatureError, CommitmentError):
        return False
    return True


@dataclass
class PlayedScenario:
    """The records of a scenario played through the aggregate, and the command boundaries.

    ``boundaries`` lists the log size after each command (creation, each join, open, submit,
    seal, opening and decision), so a checkpoint at each boundary is what a service signing
    after every command would have published. ``events`` are the aggregate's own events
    (sealed parts included), for comparing a replay with the aggregate.
    """

    match_id: str
    origin: str
    records: list[Record] = field(default_factory=list)
    boundaries: list[int] = field(default_factory=list)
    events: list[Match.Event] = field(default_factory=list)


def play_scenario(  # noqa: PLR0913
    scenario: Mapping[str, Any],
    *,
    match_id: UUID,
    start_time: datetime,
    seed: bytes | None = None,
    prefix: str = "dealerroom.example",
    tick: timedelta = timedelta(seconds=1),
    custody: Mapping[str, str] | None = None,
    player_keys: Mapping[str, bytes] | None = None,
    entropy: Mapping[str, str | None] | None = None,
    salt: Callable[[int], bytes] = counter_salt,
    seats: Mapping[int, Sequence[SeatAction]] | None = None,
) -> PlayedScenario:
    """Play a scenario through the domain ``Match`` aggregate and return its public records.

    Each command happens ``tick`` after the previous one, starting at ``start_time``. The
    seed is ``seed``, else the scenario's ``"seed"``. ``custody`` puts players in
    self-custody (they commit, then open after the seal); ``player_keys`` maps players to
    32-byte Ed25519 private keys whose public halves go into ``MatchCreated.player_keys`` and
    which sign each submission; ``entropy`` makes players join, with that entropy, before the
    first step. Salts come from ``salt(counter)`` (default :func:`counter_salt`).
    ``seats[n]`` are seat actions taken just before step ``n`` opens: ``("claim", player,
    key)`` claims the seat with its current invite, registering the public half of the
    32-byte private ``key`` (or no key: ``None``), which then signs the player's submissions;
    ``("reinvite", player, None)`` re-invites it, revoking the key.

    Decisions follow the scenario's ``decide`` ({player: payload}; the same answer serves
    each request that player gets in the step) and otherwise get their default.

    :raises ValueError: (``RulesError``, ``MatchError``) when the scenario is not playable.
    """
    if seed is None:
        seed = bytes.fromhex(scenario["seed"])
    rules = get_rules(scenario["game"])
    mid = canonical_match_id(str(match_id))
    origin = match_origin(prefix, mid)
    keys = dict(player_keys or {})
    clock = _Clock(start_time, tick)
    played = PlayedScenario(match_id=mid, origin=origin)
    match: Match | None = None

    def collect() -> None:
        assert match is not None  # noqa: S101 - set before the first command
        events = cast("list[Match.Event]", match.collect_events())
        played.events.extend(events)
        played.records.extend(json.loads(json.dumps(public_record(e))) for e in events)
        if events:
            played.boundaries.append(len(played.records))

    with _acting("host"):
        match = Match.create(
            match_id=match_id,
            game=scenario["game"],
            options=scenario.get("options") or {},
            players=scenario["players"],
            origin=origin,
            custody=dict(custody or {}),
            player_keys={p: player_public_key(k) for p, k in keys.items()},
            credentials={},
            invites={p: token_hash(_invite(p, 0)) for p in scenario["players"]},
            seed=seed,
            at=clock(),
        )
    collect()
    invites = dict.fromkeys(scenario["players"], 0)

    def seat_actions(number: int) -> None:
        assert match is not None  # noqa: S101 - created above
        for action, player, key in (seats or {}).get(number, ()):
            if action == "claim":
                with _acting(player):
                    public = None if key is None else player_public_key(key)
                    credential = token_hash(f"{_invite(player, invites[player])}/token")
                    invite = _invite(player, invites[player])
                    match.claim(player, invite, credential, public, clock())
                if key is None:
                    keys.pop(player, None)
                else:
                    keys[player] = key
            else:
                invites[player] += 1
                with _acting("host"):
                    match.reinvite(player, token_hash(_invite(player, invites[player])), clock())
                keys.pop(player, None)
            collect()

    for player, text in (entropy or {}).items():
        with _acting(player):
            match.join(player, text, clock())
        collect()
    counter = 0
    for step in scenario["steps"]:
        seat_actions(match.step + 1)
        with _acting("host"):
            number = match.open_step(clock(), deal=step.get("deal") or None)
        collect()
        record = match.steps[number]
        openings: dict[str, tuple[Any, bytes]] = {}
        for player, payload in (step.get("submit") or {}).items():
            counter += 1
            secret = salt(counter)
            pick = rules.check_pick(record.state_at_open, player, payload)
            value = commit(mid, number, player, pick, secret)
            signature = (
                sign_submission(keys[player], mid, number, player, value)
                if player in keys
                else None
            )
            with _acting(player):
                if match.custody[player] == "self":
                    match.submit_commitment(player, value, clock(), signature=signature)
                    openings[player] = (pick, secret)
                else:
                    match.submit_sealed(player, payload, secret, clock(), signature=signature)
            collect()
        with _acting("host"):
            match.seal(clock())
            status = match.advance(clock(), decision_deadline=clock.deadline())
        collect()
        if status == "openings":
            for player, (pick, secret) in openings.items():
                with _acting(player):
                    match.open_commitment(player, number, pick, secret.hex(), clock())
                collect()
            with _acting("host"):
                status = match.advance(
                    clock(), openings_due=True, decision_deadline=clock.deadline()
                )
            collect()
        decide = dict(step.get("decide") or {})
        if step.get("declare") is not None:  # a custom game's winners, declared by the host
            decide[HOST] = step["declare"]
        while status == "decision":
            pending = match.pending_request()
            assert pending is not None  # noqa: S101 - "decision" means one is pending
            who = pending[1].player
            with _acting(who if who in decide else "host"):
                if who in decide:
                    match.decide(who, decide[who], clock())
                else:
                    match.decide(who, None, clock(), defaulted=True)
                status = match.advance(clock(), decision_deadline=clock.deadline())
            collect()
    return played


def play_scenario_records(
    scenario: Mapping[str, Any], *, match_id: UUID, seed: bytes | None, start_time: datetime
) -> list[Record]:
    """Return just the public records of :func:`play_scenario` (default custody, no keys)."""
    return play_scenario(scenario, match_id=match_id, seed=seed, start_time=start_time).records


def _invite(player: str, n: int) -> str:
    """The ``n``-th invite of a seat in a played scenario (deterministic: tests only)."""
    return f"dealerroom/test-invite/{player}/{n}"


class _Clock:
    """Explicit time for the aggregate: each call is one ``tick`` later."""

    def __init__(self, start: datetime, tick: timedelta) -> None:
        self.now = start - tick
        self.tick = tick

    def __call__(self) -> datetime:
        self.now += self.tick
        return self.now

    def deadline(self) -> str:
        return format_time(self.now + 60 * self.tick)


@contextmanager
def _acting(who: str) -> Iterator[None]:
    token = actor.set(who)
    try:
        yield
    finally:
        actor.reset(token)


__all__ = [
    "BUNDLE_FORMAT",
    "Bundle",
    "BundleError",
    "PlayedScenario",
    "Record",
    "build_bundle",
    "check_bundle",
    "check_record_shape",
    "check_submission_signature",
    "counter_salt",
    "dump_bundle",
    "export_bundle",
    "jcs",
    "load_bundle",
    "match_origin",
    "merkle_log",
    "play_scenario",
    "play_scenario_records",
    "player_public_key",
    "record_leaf_hash",
    "sign_checkpoints",
    "sign_submission",
    "split_origin",
    "submission_message",
    "verifier_key",
]
