"""Fuzzing every ``dealerroom`` command with hostile arguments and input files.

Hypothesis draws each command's arguments (match ids, numbers, keys, option values) and
its input files: random bytes, a real file cut short, a real file with one value replaced
by anything JSON can hold (huge numbers, NaN, deep nesting, odd unicode), JSON of the
wrong shape. Each runs through click's ``CliRunner`` on one instance that holds a real
match, whose bundle, receipt and checkpoint are the files mutated. Whatever comes in:

* the exit status is 0, 1 (only ``verify``: a check failed) or 2;
* a 2 prints exactly one line on standard error, the error (``simulate`` may have said
  which match it made before a step went wrong), and nothing looks like a traceback;
* no exception escapes the command (``result.exception`` is ``None`` or ``SystemExit``).
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner, Result
from flask.cli import ScriptInfo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.bundle import dump_bundle
from service.simulate import load_scenario, run_scenario
from tests.conftest import SCENARIOS, archive_of
from tests.roomy import roomy_app
from web.cli import cli
from web.extension import service

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from flask import Flask

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------------- hostile values

HUGE = [10**30, -(10**30), 2**53 + 1, 1e308, -0.0, float("nan"), float("inf")]
LEAVES = (
    st.none() | st.booleans() | st.integers() | st.sampled_from(HUGE) | st.floats()
    | st.text(max_size=20) | st.sampled_from(["\ud800", "\x00", "\u202e", "💥" * 50])
)  # fmt: skip
JSON = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
WORDS = st.sampled_from(
    ["", "-", "--", "--json", "-1", "0", "1", "99999999999999999999999", "1e400", "nan", "../..",
     "/dev/null", "/", "\x00", "\x7f", "a\nb", "ana", "host", "0:ana={}", "1:ana=", ":=",
     '1:zed={"vote":"ana"}']
) | st.text(max_size=30)  # fmt: skip


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (the first 400)."""
    yield prefix
    items: Any = value.items() if isinstance(value, dict) else []
    if isinstance(value, list):
        items = enumerate(value)
    for key, child in items:
        yield from _paths(child, (*prefix, key))


def _replaced(document: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(document) if isinstance(document, dict) else list(document)
    copy[path[0]] = _replaced(document[path[0]], path[1:], new)
    return copy


def KEYS(instance: Instance) -> st.SearchStrategy[str]:  # noqa: N802 - a strategy, like st.*
    """Verifier keys: the right one, or anything."""
    return WORDS | st.just(instance.bundle["public_key"])


def files_like(document: Any) -> st.SearchStrategy[bytes]:
    """Bytes that are nearly ``document``: cut short, one value replaced, or anything at all."""
    text = json.dumps(document).encode()
    paths = list(itertools.islice(_paths(document), 400))
    mutated = st.builds(
        lambda path, new: json.dumps(_replaced(document, path, new), allow_nan=True).encode(),
        st.sampled_from(paths),
        JSON,
    )
    return st.one_of(
        mutated,
        st.integers(0, len(text)).map(lambda n: text[:n]),
        st.binary(max_size=200),
        JSON.map(lambda value: json.dumps(value, allow_nan=True).encode()),
        st.just(b"[" * 5000 + b"]" * 5000),
        st.just(b'{"records": ' + b"9" * 5000 + b"}"),
    )


# ---------------------------------------------------------------------- the instance

MADE = re.compile(r"match [0-9a-f-]{36}")


@dataclass
class Instance:
    """An instance with one finished match, its bundle, a receipt and a checkpoint."""

    app: Flask
    folder: Path
    match_id: str
    bundle: dict[str, Any]
    receipt: dict[str, Any]
    checkpoint: dict[str, Any]
    scenario: dict[str, Any]
    count: itertools.count  # type: ignore[type-arg]

    def file(self, data: bytes, suffix: str = ".json") -> str:
        """Write ``data`` to a fresh file; return its path."""
        path = self.folder / f"input-{next(self.count)}{suffix}"
        path.write_bytes(data)
        return str(path)

    def run(self, *args: str, stdin: bytes | None = None) -> Result:
        """Run ``dealerroom ARGS`` on this instance and check the outcome's shape."""
        info = ScriptInfo(create_app=lambda: self.app)
        result = CliRunner().invoke(cli, list(args), obj=info, input=stdin)
        where = f"dealerroom {' '.join(a[:60] for a in args)}"
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            where, result.exc_info,
        )  # fmt: skip
        output = result.stdout + result.stderr
        assert "Traceback" not in output and 'File "' not in output, (where, output[-600:])
        assert result.exit_code in (0, 1, 2), (where, result.exit_code, output[-600:])
        if result.exit_code == 1:
            assert args[0] == "verify", (where, output[-600:])
        if result.exit_code == 2 and list(args) in ([], ["receipt"]):
            assert result.stderr.startswith("Usage: dealerroom"), where  # a bare group's help
        elif result.exit_code == 2:
            *before, last = result.stderr.splitlines() or [""]
            said = last.startswith(("dealerroom: error: ", "error: "))
            assert said, (where, result.stderr[-600:])
            # Only simulate says which match it made before a step goes wrong.
            assert all(MADE.fullmatch(line) for line in before), (where, result.stderr[-600:])
        return result


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Instance]:
    """A vote played to the end through the service, and the files it gives."""
    folder = tmp_path_factory.mktemp("cli")
    app = roomy_app(folder / "instance")
    room = service(app)
    scenario = load_scenario(SCENARIOS / "vote-basic.json")
    lines = run_scenario(room, scenario)
    match_id = next(lines)["match_id"]
    list(lines)
    made = room.create_match("vote", ["ana", "ben"])
    room.open_step(made["match_id"], seconds=600)
    receipt = room.submit(made["match_id"], "ana", {"vote": "ben"})["receipt"]
    yield Instance(
        app, folder, match_id, archive_of(room).export_bundle(match_id), receipt,
        room.checkpoint(match_id), scenario, itertools.count(),
    )  # fmt: skip
    room.close()


def test_the_real_files_pass_so_the_mutations_start_from_good_input(instance: Instance) -> None:
    bundle = instance.file(dump_bundle(instance.bundle))
    receipt = instance.file(json.dumps(instance.receipt).encode())
    scenario = instance.file(json.dumps(instance.scenario).encode())
    for args in (["verify", bundle], ["receipt", "check", receipt], ["replay", bundle, "--at", "3"],
                 ["timeline", instance.match_id], ["simulate", scenario]):  # fmt: skip
        assert instance.run(*args).exit_code == 0, args


# ---------------------------------------------------------------------- commands and files


@SETTINGS
@given(data=st.data())
def test_simulate_takes_any_scenario_file(instance: Instance, data: st.DataObject) -> None:
    contents = data.draw(files_like(instance.scenario), label="scenario")
    where = data.draw(st.sampled_from(["file", "missing", "folder"]), label="where")
    path = {"file": instance.file(contents), "missing": "/nonexistent/x.json"}
    instance.run("simulate", path.get(where, str(instance.folder)))


@SETTINGS
@given(data=st.data())
def test_verify_takes_any_bundle_and_receipt(instance: Instance, data: st.DataObject) -> None:
    args = ["verify", instance.file(data.draw(files_like(instance.bundle), label="bundle"))]
    if data.draw(st.booleans(), label="with a receipt"):
        receipt = data.draw(files_like(instance.receipt), label="receipt")
        args += ["--receipt", instance.file(receipt)]
    if data.draw(st.booleans(), label="with a key"):
        args += ["--trusted-key", data.draw(KEYS(instance), label="key")]
    flags = st.lists(st.sampled_from(["--json", "--no-progress"]), max_size=2)
    instance.run(*args, *data.draw(flags, label="flags"))


@SETTINGS
@given(data=st.data())
def test_import_takes_any_bundle(instance: Instance, data: st.DataObject) -> None:
    contents = data.draw(files_like(instance.bundle), label="bundle")
    key = data.draw(st.none() | KEYS(instance), label="key")
    args = ["import", "-" if data.draw(st.booleans(), label="stdin") else instance.file(contents)]
    if key is not None:
        args += ["--trusted-key", key]
    if data.draw(st.booleans(), label="json"):
        args.append("--json")
    instance.run(*args, stdin=contents)


@SETTINGS
@given(data=st.data())
def test_replay_takes_any_bundle_event_player_and_what_if(
    instance: Instance, data: st.DataObject
) -> None:
    bundle = data.draw(files_like(instance.bundle) | st.just(dump_bundle(instance.bundle)))
    args = ["replay", instance.file(bundle)]
    if data.draw(st.booleans(), label="at"):
        args += ["--at", data.draw(WORDS | st.integers(-5, 50).map(str), label="event")]
        if data.draw(st.booleans(), label="player"):
            args += ["--player", data.draw(WORDS, label="name")]
    if data.draw(st.booleans(), label="what-if"):
        payload = data.draw(JSON.map(lambda v: json.dumps(v, allow_nan=True)), label="payload")
        specs = st.sampled_from(["1:ana=", "0:ana=", "1:zed=", "9:ben=", "1:ana"])
        spec = data.draw(specs, label="spec")
        args += ["--what-if", spec + payload if data.draw(st.booleans()) else data.draw(WORDS)]
    if data.draw(st.booleans(), label="json"):
        args.append("--json")
    instance.run(*args)


@SETTINGS
@given(data=st.data())
def test_receipt_check_takes_any_receipt_checkpoint_and_key(
    instance: Instance, data: st.DataObject
) -> None:
    receipt = data.draw(files_like(instance.receipt), label="receipt")
    args = ["receipt", "check", instance.file(receipt)]
    if data.draw(st.booleans(), label="against"):
        later = {**instance.checkpoint, "consistency": []}
        args += ["--against", instance.file(data.draw(files_like(later), label="checkpoint"))]
    if data.draw(st.booleans(), label="key"):
        args += ["--key", data.draw(KEYS(instance), label="key")]
    instance.run(*args)


MATCH_IDS = st.sampled_from(
    ["nope", "00000000-0000-0000-0000-000000000000", "../../etc/passwd", "", "-", "x" * 3000,
     "\ud800", "--json"]
) | st.text(max_size=40)  # fmt: skip


@SETTINGS
@given(data=st.data())
def test_match_commands_take_any_match_id_and_numbers(
    instance: Instance, data: st.DataObject
) -> None:
    real = st.sampled_from([instance.match_id, instance.match_id.upper()])
    match_id = data.draw(MATCH_IDS | real, label="match id")
    command = data.draw(st.sampled_from(["timeline", "checkpoint", "export"]), label="command")
    args = [command, match_id]
    if command == "timeline" and data.draw(st.booleans()):
        args.append("--json")
    if command == "checkpoint" and data.draw(st.booleans()):
        args += ["--from", data.draw(WORDS | st.integers(-(10**20), 10**20).map(str), label="from")]
    if command == "export" and data.draw(st.booleans()):
        targets = ["-", "out.json", "/nonexistent/dir/out.json", str(instance.folder), "", "\x00"]
        target = data.draw(st.sampled_from(targets), label="output")
        args += ["-o", str(instance.folder / target) if target == "out.json" else target]
    instance.run(*args)


@SETTINGS
@given(args=st.lists(WORDS, max_size=4))
def test_every_command_takes_any_arguments(instance: Instance, args: list[str]) -> None:
    for command in (
        ["matches"],
        ["receipt"],
        ["receipt", "check"],
        ["simulate"],
        ["timeline"],
        ["checkpoint"],
        ["export"],
        ["import"],
        ["replay"],
        ["verify"],
        ["bogus"],
        [],
    ):
        instance.run(*command, *args)


@pytest.mark.parametrize("port", ["http", "-1", "65536", "99999999999999999999", "1.5", ""])
def test_serve_refuses_a_port_that_is_not_one(instance: Instance, port: str) -> None:
    result = instance.run("serve", "--port", port)
    assert result.exit_code == 2


DEEP = "[" * 5000 + "]" * 5000
HUGE_NUMBER = "9" * 5000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify", "/dev/zero"], "is not JSON text: it holds a NUL byte"),
        (["receipt", "check", "/dev/zero"], "is not JSON text: it holds a NUL byte"),
        (["simulate", "/dev/zero"], "is not JSON text: it holds a NUL byte"),
        (["replay", "BUNDLE", "--what-if", f"1:ana={DEEP}"], "more than 100 levels deep"),
        (["replay", "BUNDLE", "--what-if", '1:ana={"vote": ' + HUGE_NUMBER + "}"],
         "a number of 5,000 characters"),
        (["replay", "BUNDLE", "--what-if", f"{HUGE_NUMBER}:ana={{}}"], "STEP must be a step"),
        (["replay", "BUNDLE", "--at", HUGE_NUMBER], "EVENT is a record number"),
        (["import", "BUNDLE"], "pin the host's key with --trusted-key KEY"),
        (["checkpoint", "MATCH", "--from", "0"], "--from"),
    ],
)  # fmt: skip
def test_the_findings_of_the_attack_are_one_line_and_exit_2(
    instance: Instance, args: list[str], message: str
) -> None:
    bundle = instance.file(dump_bundle(instance.bundle))
    given = [bundle if a == "BUNDLE" else instance.match_id if a == "MATCH" else a for a in args]
    result = instance.run(*given)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert message in line and len(line) < 400, line
