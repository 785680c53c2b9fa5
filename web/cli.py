"""The ``dealerroom`` command line, built on Flask's click group.

Every user error exits with status 2 and one line on standard error; nothing is
half-written (each use case saves atomically or not at all).
"""

from __future__ import annotations

import errno
import json
import socket
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from flask.cli import FlaskGroup, with_appcontext
from werkzeug.serving import run_simple

from domain.receipt import ReceiptError, verify_receipt
from domain.record_text import describe
from service.application import DealerRoom, NotFound
from service.config import ConfigError
from service.simulate import ScenarioError, check_scenario, run_scenario
from web import create_app
from web.extension import archive, service, services

if TYPE_CHECKING:
    from collections.abc import Iterator

    from flask import Flask


class CliError(click.ClickException):
    """A user error: one line, exit status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        """Print ``dealerroom: error: <message>`` on one line (control characters escaped)."""
        text = self.format_message()
        shown = (c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
        click.echo(f"dealerroom: error: {''.join(shown)}", err=True, file=file)


def _app() -> DealerRoom:
    return service()


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@click.command("simulate")
@click.argument("scenario_file")
@with_appcontext
def simulate_command(scenario_file: str) -> None:
    """Play a scenario through the service; print each step's public state as JSON."""
    from replay.inputs import SCENARIO_LIMIT  # noqa: PLC0415

    scenario = _read_json(scenario_file, "scenario", SCENARIO_LIMIT)
    try:
        check_scenario(scenario)
        lines = run_scenario(_app(), scenario)
        first = next(lines)
        click.echo(f"match {first['match_id']}", err=True)
        for line in lines:
            click.echo(_compact(line))
    except ScenarioError as exc:
        raise CliError(str(exc)) from None


@click.command("matches")
@with_appcontext
def matches_command() -> None:
    """List the matches, most recent activity first."""
    rows = _app().matches()
    if not rows:
        click.echo("no matches")
        return
    click.echo(f"{'match id':36}  {'game':15}  {'status':9}  {'step':>4}  {'events':>6}  players")
    for m in rows:
        host = m["origin"].rpartition("/match/")[0]
        origin = f"  (imported; its log names {host})" if m["imported"] else ""
        click.echo(
            f"{m['match_id']:36}  {m['game']:15}  {m['status']:9}  {m['step']:>4}  "
            f"{m['events']:>6}  {', '.join(m['players'])}{origin}"
        )


@click.command("timeline")
@click.argument("match_id")
@click.option("--json", "as_json", is_flag=True, help="Print the public records as JSON lines.")
@with_appcontext
def timeline_command(match_id: str, as_json: bool) -> None:  # noqa: FBT001
    """Show a match's log as a readable table."""
    try:
        records = _app().records(match_id)
    except NotFound as exc:
        raise CliError(str(exc)) from None
    for record in records:
        if as_json:
            click.echo(_compact(record))
        else:
            click.echo(
                f"{record['seq']:>4}  {record['at']}  {record['type']:19}  "
                f"{record['data'].get('actor', ''):8}  {describe(record, short=True)}"
            )


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@with_appcontext
def serve_command(host: str, port: int) -> None:
    """Serve the web front end (demo matches of every game are loaded into an empty store)."""
    from flask import current_app  # noqa: PLC0415

    check_port_free(host, port)  # before loading anything: a taken port is one line, exit 2

    from service.demo import live_demo, load_demo  # noqa: PLC0415

    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # noqa: SLF001
    loaded = load_demo(_app())
    if loaded:
        click.echo(f"loaded {len(loaded)} demo matches", err=True)
    live = live_demo(_app())
    services().start_ticker()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # noqa: S104 - display only
    base = f"http://{shown}:{port}"
    click.echo(f"dealerroom serving on {base}/", err=True)
    for line in open_these(app, base, live):
        click.echo(line)
    # Flask's app.run() refuses to run inside its own CLI; serve with werkzeug directly.
    run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)


def open_these(app: Flask, base: str, live: list[dict[str, Any]]) -> list[str]:
    """The URLs ``serve`` prints: the match list, the demo timelines, live demo links.

    Each unclaimed seat gets its invite link (it works once); a claimed seat says so.
    """
    from flask import url_for  # noqa: PLC0415

    with app.test_request_context(base_url=base):
        lines = [
            f"open {url_for('pages.index', _external=True)}  (every match; host a new one at /new)"
        ]
        for match in live:
            mid = match["match_id"]
            lines.append(f"live demo: {match['game']} (step 1 open)")
            lines.append(
                f"  timeline     {url_for('pages.timeline', match_id=mid, _external=True)}"
            )
            host = url_for("pages.host", match_id=mid, _external=True)
            lines.append(f"  host console {host}#{match['host_token']}")
            seats = match.get("seats", {})
            for player, invite in match["invites"].items():
                if seats.get(player, {}).get("claimed"):
                    lines.append(f"  {player:12} seat claimed (a new invite: the host console)")
                    continue
                room = url_for("pages.room", match_id=mid, player=player, _external=True)
                lines.append(f"  {player:12} {room}#invite={invite}")
    return lines


def check_port_free(host: str, port: int) -> None:
    """:raises CliError: when ``host:port`` cannot be listened on (taken, forbidden, no host).

    The probe binds as werkzeug's server will (``SO_REUSEADDR``), so a port in ``TIME_WAIT``
    passes and one another program listens on does not. Port 0 (any free port) passes.
    """
    if port == 0:
        return
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        msg = f"cannot serve on {host}: {why}; give --host an address of this machine"
        raise CliError(msg) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                msg = (
                    f"port {port} on {host} is taken by another program; stop it or choose "
                    "another port with --port"
                )
            else:
                msg = f"cannot serve on {host} port {port}: {exc.strerror or exc}"
            raise CliError(msg) from None


def _read_json(path: str, what: str, limit: int | None = None) -> Any:
    """Read a JSON input file within its size and shape bounds (:mod:`replay.inputs`)."""
    from replay.inputs import SMALL_LIMIT, InputError, load_json_file  # noqa: PLC0415

    try:
        return load_json_file(path, SMALL_LIMIT if limit is None else limit, what)
    except InputError as exc:
        raise CliError(str(exc)) from None


@click.group("receipt")
def receipt_group() -> None:
    """Check players' receipts offline."""


@receipt_group.command("check")
@click.argument("receipt_file")
@click.option(
    "--against",
    "against",
    default=None,
    help="A later checkpoint with its consistency proof (from `dealerroom checkpoint --from`).",
)
@click.option("--key", "key", default=None, help="The host's verifier key, obtained out of band.")
def receipt_check_command(receipt_file: str, against: str | None, key: str | None) -> None:
    """Verify a receipt: its record is in the signed log (and still in a later checkpoint)."""
    receipt = _read_json(receipt_file, "receipt")
    later = _read_json(against, "checkpoint") if against else None
    try:
        checked = verify_receipt(receipt, trusted_key=key, later=later)
    except ReceiptError as exc:
        raise CliError(str(exc)) from None
    click.echo(
        f"ok: {checked.player}'s commitment {checked.commitment[:16]}… for step {checked.step} "
        f"is leaf {receipt['leaf_index']} of the log of size {checked.tree_size}"
    )
    if checked.later_size is not None:
        click.echo(f"ok: the checkpoint of size {checked.later_size} extends it")
    if key is None:
        click.echo(
            "note: checked with the key inside the receipt; pass --key to pin the host's key"
        )


@click.command("checkpoint")
@click.argument("match_id")
@click.option(
    "--from",
    "old",
    type=click.IntRange(1, 2**63 - 1),
    default=None,
    help="Print the later checkpoint proving the log extends the one of this size.",
)
@with_appcontext
def checkpoint_command(match_id: str, old: int | None) -> None:
    """Print a match's latest signed checkpoint (JSON, with the key), or a later checkpoint.

    With --from SIZE: the later checkpoint object (docs/protocol-bundles.md section 2), as
    `receipt check --against` reads it; the key goes to standard error.
    """
    try:
        key = _app().public_key(match_id)
        if old is None:
            click.echo(json.dumps({**_app().checkpoint(match_id), "public_key": key}, indent=1))
            return
        later = _app().consistency(match_id, old)
    except (NotFound, ValueError) as exc:
        raise CliError(str(exc)) from None
    click.echo(json.dumps(later, indent=1))
    click.echo(f"key: {key} (pin it with --key; check that the host publishes it)", err=True)


@click.command("verify", context_settings={"ignore_unknown_options": True})
@click.argument("bundle_file")
@click.option("--trusted-key", default=None, help="The host's verifier key, pinned out of band.")
@click.option(
    "--receipt",
    "receipts",
    multiple=True,
    help="A player's receipt to check against the bundle (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.option("--no-progress", is_flag=True, help="Never report progress on stderr.")
def verify_command(
    bundle_file: str,
    trusted_key: str | None,
    receipts: tuple[str, ...],
    as_json: bool,  # noqa: FBT001
    no_progress: bool,  # noqa: FBT001
) -> None:
    """Verify a match bundle offline (no database, no network): exit 0 only if every check passes.

    Long bundles report progress on stderr (on a terminal, or from 50,000 records).
    """
    from domain.errors import UserError  # noqa: PLC0415
    from replay.bundle import load_bundle, verifier_key  # noqa: PLC0415 - a light CLI start
    from replay.inputs import BUNDLE_LIMIT, SMALL_LIMIT, load_json_file, read_limited  # noqa: PLC0415
    from replay.verify import progress_reporter, verify_bundle  # noqa: PLC0415

    try:
        trusted = verifier_key(trusted_key, "--trusted-key") if trusted_key else None
        bundle = load_bundle(read_limited(bundle_file, BUNDLE_LIMIT, "bundle"))
        held = [load_json_file(path, SMALL_LIMIT, "receipt") for path in receipts]
        progress = None if no_progress else progress_reporter(len(bundle["records"]))
        verdict = verify_bundle(bundle, trusted_key=trusted, receipts=held, progress=progress)
    except UserError as exc:  # InputError, BundleError: one line
        raise CliError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(verdict.to_json(), indent=1, ensure_ascii=False))
    else:
        click.echo(str(verdict))
    sys.exit(0 if verdict.ok else 1)


# ---------------------------------------------------------------------------- bundles


def _read_bundle(path: str) -> dict[str, Any]:
    """Read and shape-check a bundle file (``-``: standard input)."""
    from replay.bundle import BundleError, load_bundle  # noqa: PLC0415
    from replay.inputs import BUNDLE_LIMIT, InputError, read_limited  # noqa: PLC0415

    try:
        data = read_limited(path, BUNDLE_LIMIT, "bundle")  # "-": standard input
    except InputError as exc:
        raise CliError(str(exc)) from None
    try:
        return load_bundle(data)
    except BundleError as exc:
        msg = f"{path} is not a bundle: {exc}"
        raise CliError(msg) from None


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file, so no half-written file is left."""
    try:
        with tempfile.NamedTemporaryFile(
            dir=path.parent, prefix=f".{path.name}.", delete=False
        ) as handle:
            handle.write(data)
        Path(handle.name).replace(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        if "handle" in locals():
            Path(handle.name).unlink(missing_ok=True)
        msg = f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}"
        raise CliError(msg) from None


@click.command("export")
@click.argument("match_id")
@click.option(
    "-o",
    "--output",
    default="-",
    show_default=True,
    help="The bundle file to write; - is standard output.",
)
@with_appcontext
def export_command(match_id: str, output: str) -> None:
    """Write a match's bundle: every record, every signed checkpoint, the key, the rules."""
    from replay.bundle import dump_bundle  # noqa: PLC0415

    try:
        bundle = archive().export_bundle(match_id)
    except (NotFound, ValueError) as exc:
        raise CliError(str(exc)) from None
    data = dump_bundle(bundle)
    if output == "-":
        stream = sys.stdout.buffer
        stream.write(data)
        stream.flush()
        return
    _write_atomically(Path(output), data)
    click.echo(
        f"wrote {output}: match {bundle['match_id']} ({bundle['rules']['game']}), "
        f"{len(bundle['records'])} records, {len(bundle['checkpoints'])} signed checkpoints",
        err=True,
    )


@click.command("import")
@click.argument("bundle_file")
@click.option(
    "--trusted-key",
    default=None,
    help="The foreign host's verifier key, obtained from it out of band (its /api/key).",
)
@click.option(
    "--unpinned",
    is_flag=True,
    help="Import without a pinned key: the log is checked, not whose it is.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result and verdict as JSON.")
@with_appcontext
def import_command(
    bundle_file: str,
    trusted_key: str | None,
    *,
    unpinned: bool,
    as_json: bool,
) -> None:
    """Verify another host's bundle; keep it here, read-only (refused if a check fails).

    The host's key must be pinned with --trusted-key, or --unpinned given explicitly.
    """
    from replay.bundle import BundleError, verifier_key  # noqa: PLC0415
    from replay.verify import progress_reporter  # noqa: PLC0415
    from service.archive import ArchiveError  # noqa: PLC0415

    if trusted_key is not None and unpinned:
        msg = "give either --trusted-key KEY or --unpinned, not both"
        raise CliError(msg)
    if trusted_key is None and not unpinned:
        msg = (
            "pin the host's key with --trusted-key KEY (obtained from the host out of band, e.g. "
            "its /api/key), or pass --unpinned to import a log whose key nobody vouches for"
        )
        raise CliError(msg)
    if trusted_key is not None:
        try:
            verifier_key(trusted_key, "--trusted-key")
        except BundleError as exc:
            raise CliError(str(exc)) from None
    bundle = _read_bundle(bundle_file)
    progress = progress_reporter(len(bundle["records"]))
    try:
        result = archive().import_bundle(bundle, trusted_key=trusted_key, progress=progress)
    except (ArchiveError, BundleError) as exc:
        msg = f"refused {bundle_file}: {exc}"
        raise CliError(msg) from None
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
        return
    verdict = result.verdict
    pending = [c.name for c in verdict.checks if c.status == "pending"]
    checked = (
        "every check passed"
        if not pending
        else f"no check failed; pending until the match ends: {', '.join(pending)}"
    )
    host = bundle["origin"].rpartition("/match/")[0]
    source = f"from {host} (key pinned)" if verdict.pinned else f"naming {host} (key not pinned)"
    what = f"match {result.match_id} ({bundle['rules']['game']}, {result.records} records"
    if result.action == "unchanged":
        click.echo(f"already imported: {what}); nothing changed")
    elif result.action == "extended":
        click.echo(f"extended imported {what}, was {result.previous_records}) {source}: {checked}")
    else:
        click.echo(
            f"imported {what}, {len(bundle['checkpoints'])} signed checkpoints) {source}: {checked}"
        )
    if not verdict.pinned:
        click.echo(
            f"note: the log is unchanged since it was signed by {verdict.public_key}, but nobody "
            f"pinned that key, so nothing shows it is {host}'s"
        )


@click.command("replay")
@click.argument("bundle_file")
@click.option(
    "--at",
    "event",
    default=None,
    metavar="EVENT",
    help="Show the state after this record (its seq, from 0).",
)
@click.option("--player", default=None, help="With --at: this player's own view, once disclosed.")
@click.option(
    "--what-if",
    "what_if_spec",
    default=None,
    metavar="STEP:PLAYER=JSON",
    help='Re-run from STEP with PLAYER submitting JSON, e.g. 3:ana={"card":11}.',
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def replay_command(
    bundle_file: str,
    event: str | None,
    player: str | None,
    what_if_spec: str | None,
    as_json: bool,  # noqa: FBT001
) -> None:
    """Review a bundle offline: the state at any event, or what if one pick had been different."""
    from replay.review import ReviewError  # noqa: PLC0415
    from replay.state import MatchReplay, ReplayError  # noqa: PLC0415

    if (event is None) == (what_if_spec is None):
        msg = "give either --at EVENT or --what-if STEP:PLAYER=JSON"
        raise CliError(msg)
    if player is not None and event is None:
        msg = "--player goes with --at EVENT"
        raise CliError(msg)
    bundle = _read_bundle(bundle_file)
    try:
        if what_if_spec is not None:
            _show_what_if(bundle, what_if_spec, as_json)
            return
        text = event or ""
        if not (text.isascii() and text.isdigit() and len(text) <= 19):  # noqa: PLR2004
            shown = repr(text) if len(text) <= 40 else repr(text[:37]) + "…"  # noqa: PLR2004
            msg = f"EVENT is a record number (0, 1, ...), not {shown}"
            raise CliError(msg)
        seq = int(text)
        _show_state(MatchReplay(bundle["records"]), seq, player, as_json)
    except (ReviewError, ReplayError) as exc:
        raise CliError(str(exc)) from None


def _show_state(board: Any, seq: int, player: str | None, as_json: bool) -> None:  # noqa: FBT001
    from replay.review import state_at  # noqa: PLC0415

    shown = state_at(board, seq, player)
    if as_json:
        click.echo(json.dumps(shown, indent=1, ensure_ascii=False))
        return
    record = shown["record"]
    click.echo(
        f"match {shown['match_id']} ({shown['game']}), event {seq} of 0..{shown['records'] - 1}: "
        f"{record['type']} at {record['at']} by {record['data'].get('actor', '?')}"
    )
    said = describe(record, short=True)
    if said:
        click.echo(f"  {said}")
    whose = "public state" if player is None else f"{player}'s view"
    click.echo(f"{whose} after event {seq}:")
    for key, value in shown["state"].items():
        click.echo(f"  {key}: {json.dumps(value, ensure_ascii=False)}")
    if shown["unknown"]:
        click.echo(
            f"note: the view the log recorded; the rules state is not known here "
            f"({shown['unknown']})"
        )
    click.echo(f"changes since event {seq - 1}:" if seq else "changes since the start:")
    for line in shown["changes"] or ["(none)"]:
        click.echo(f"  {line}")


def _show_what_if(bundle: dict[str, Any], spec: str, as_json: bool) -> None:  # noqa: FBT001
    from replay.review import (  # noqa: PLC0415
        ReviewError,
        check_player,
        parse_what_if,
        what_if_table,
    )
    from replay.whatif import WhatIfError, what_if  # noqa: PLC0415

    step, player, payload = parse_what_if(spec)
    check_player(bundle["records"], player)
    try:
        result = what_if(bundle, step, player, payload)
    except WhatIfError as exc:
        raise ReviewError(str(exc)) from None
    if as_json:
        click.echo(
            json.dumps(
                {"match_id": bundle["match_id"], **result.to_json()}, indent=1, ensure_ascii=False
            )
        )
        return
    click.echo(f"match {bundle['match_id']} ({bundle['rules']['game']})")
    for line in what_if_table(result):
        click.echo(line)


COMMANDS = (
    simulate_command,
    matches_command,
    timeline_command,
    serve_command,
    receipt_group,
    checkpoint_command,
    verify_command,
    export_command,
    import_command,
    replay_command,
)


class DealerroomGroup(FlaskGroup):
    """Flask's click group, whose usage errors are one line too, like every user error."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        """Parse the group's own options."""
        with _one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        """Parse and run the command."""
        with _one_line_usage_errors():
            return super().invoke(ctx)


@contextmanager
def _one_line_usage_errors() -> Iterator[None]:
    """Turn click's usage errors (usage, hint, message: four lines) into a :class:`CliError`."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # a bare group shows its help
    except click.UsageError as exc:
        command = exc.ctx.command_path if exc.ctx is not None else "dealerroom"
        msg = f"{exc.format_message()} (see {command} --help)"
        raise CliError(msg) from None
    except ConfigError as exc:  # a bad setting or a missing key: one line, exit 2
        raise CliError(str(exc)) from None


cli = DealerroomGroup(
    name="dealerroom",
    create_app=create_app,
    add_default_commands=False,
    add_version_option=False,
    load_dotenv=False,
    help="dealerroom: sealed picks committed, revealed, replayed and proven fair.",
)


# The app comes from DEALERROOM_* settings, not from Flask's --app/--env-file/--debug.
cli.params = [p for p in cli.params if p.name not in {"env_file", "app", "debug"}]
for _command in COMMANDS:
    cli.add_command(_command)


def main() -> None:
    """Console entry point."""
    try:
        cli.main(prog_name="dealerroom")
    except CliError as exc:  # pragma: no cover - click handles it in standalone mode
        exc.show()
        sys.exit(2)
