"""Signed notes and checkpoints against every published vector, plus the protocol's worked example.

Vectors live in the shared ``vectors/`` folder (``DEALERROOM_VECTORS`` overrides the path); a
missing folder fails these tests, it never skips them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.canonical import canonical_json
from domain.merkle import (
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    root,
    verify_consistency,
    verify_inclusion,
)
from domain.signed_note import (
    Checkpoint,
    NoteError,
    Signer,
    Verifier,
    key_id,
    open_checkpoint,
    open_note,
    sign,
    sign_checkpoint,
    sign_with,
    skey,
    vkey,
)

VECTORS = Path(
    os.environ.get("DEALERROOM_VECTORS")
    or Path(__file__).resolve().parents[3] / "shared" / "vectors"
)
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol-tamper-evidence.md"


def load(name: str) -> Any:
    path = VECTORS / name
    assert path.is_file(), f"test vector {path} is missing; set DEALERROOM_VECTORS"
    return json.loads(path.read_text())


V = load("signed_note_vectors.json")
PETER = next(k for k in V["verifier_keys"] if k["vkey"].startswith("PeterNeumann+"))
ENOCH = next(k for k in V["verifier_keys"] if k["vkey"].startswith("EnochRoot+"))
SUMDB = next(k for k in V["verifier_keys"] if k["vkey"].startswith("sum.golang.org+"))
TEXT = (
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
)


# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("entry", V["verifier_keys"], ids=lambda k: k["vkey"].split("+")[0])
def test_verifier_keys_parse_and_their_key_ids_recompute(entry: dict[str, str]) -> None:
    name, id_hex, key64 = entry["vkey"].split("+", 2)
    typed = base64.b64decode(key64)
    assert typed[0] == 0x01
    recomputed = hashlib.sha256(name.encode() + b"\n" + typed).digest()[:4].hex()
    assert recomputed == id_hex
    assert f"{key_id(name, typed[1:]):08x}" == id_hex
    v = Verifier.from_vkey(entry["vkey"])
    assert (v.name, f"{v.key_id:08x}", v.public_key) == (name, id_hex, typed[1:])
    assert v.vkey() == entry["vkey"]
    assert vkey(name, typed[1:]) == entry["vkey"]


def test_the_peter_neumann_signer_key_matches_its_verifier_key() -> None:
    signer = Signer.from_skey(PETER["skey"])
    assert signer.verifier().vkey() == PETER["vkey"]
    assert signer.skey() == PETER["skey"]
    assert "AYEKFALV" not in repr(signer)


@pytest.mark.parametrize("entry", V["bad_verifier_keys"], ids=lambda k: k["why"])
def test_bad_verifier_keys_are_rejected(entry: dict[str, str]) -> None:
    with pytest.raises(NoteError):
        Verifier.from_vkey(entry["vkey"])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "PeterNeumann",
        "PeterNeumann+c74f20a3",
        "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  # wrong key ID
        "PeterNeumann+0xc74f20+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  # not 8 hex digits
        "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10T",  # bad base64
        "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  # space in name
    ],
)
def test_malformed_verifier_keys_are_rejected(text: str) -> None:
    with pytest.raises(NoteError):
        Verifier.from_vkey(text)


TEST_VKEY = "dealerroom.example+debe4652+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (TEST_VKEY + "=", "not canonical standard base64"),  # Go's x/mod refuses it too
        (TEST_VKEY + "==", "not canonical standard base64"),
        (TEST_VKEY.replace("debe4652", "DEBE4652"), "canonical form"),
        (TEST_VKEY[:-1] + "5", "does not match"),  # another key, same ID: refused as before
    ],
)
def test_only_the_canonical_text_of_a_verifier_key_is_accepted(text: str, reason: str) -> None:
    assert Verifier.from_vkey(TEST_VKEY).vkey() == TEST_VKEY
    with pytest.raises(NoteError, match=reason):
        Verifier.from_vkey(text)


def test_only_the_canonical_text_of_a_signer_key_is_accepted() -> None:
    skey = PETER["skey"]
    assert Signer.from_skey(skey).skey() == skey
    for text in (skey + "=", skey.replace("c74f20a3", "C74F20A3")):
        with pytest.raises(NoteError):
            Signer.from_skey(text)


def test_a_signature_line_with_a_stray_pad_is_malformed() -> None:
    signer = Signer("example.test", bytes(range(32)))
    note = sign_with("hello\n", signer)
    with pytest.raises(NoteError, match="not canonical standard base64"):
        open_note(note[:-1] + "=\n", [signer.verifier()])


@pytest.mark.parametrize(
    "text",
    [
        PETER["skey"].replace("PRIVATE+KEY+", "PRIVATE+KEYS+"),
        PETER["skey"].replace("c74f20a3", "c74f20a4"),
        PETER["skey"].replace("+AYEK", "+AoEK"),  # algorithm byte 0x02
        PETER["skey"][:-4],
    ],
)
def test_malformed_signer_keys_are_rejected(text: str) -> None:
    with pytest.raises(NoteError):
        Signer.from_skey(text)


# ---------------------------------------------------------------------------
# Notes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("entry", V["valid_notes"], ids=lambda n: n["source"].split(" ")[-1])
def test_valid_notes_open(entry: dict[str, Any]) -> None:
    text, sigs = open_note(entry["note"], entry["verify_with"])
    assert entry["note"].startswith(text + "\n\u2014 ")
    if "text" in entry:
        assert text == entry["text"]
    names = [s.name for s in sigs]
    for name in entry.get("expect_verified", [Verifier.from_vkey(entry["verify_with"][0]).name]):
        assert name in names
    for name in entry.get("expect_unverified", []):
        assert name not in names
    # The note's own bytes open too.
    assert open_note(entry["note"].encode(), entry["verify_with"]).text == text


def test_signing_with_the_peter_neumann_key_reproduces_the_published_note() -> None:
    entry = next(n for n in V["valid_notes"] if n.get("deterministic_resign_with_skey_must_equal"))
    assert sign_with(entry["text"], Signer.from_skey(PETER["skey"])) == entry["note"]
    seed = base64.b64decode(PETER["skey"].split("+", 4)[4])[1:]
    assert sign(entry["text"], "PeterNeumann", seed) == entry["note"]


def expected_error(entry: dict[str, Any]) -> str:
    return str(entry["expect"]).removeprefix("error: ").split(" (")[0]


@pytest.mark.parametrize(
    "entry", V["invalid_notes"], ids=lambda n: n["source"].split(" ", 1)[-1].replace(" ", "_")
)
def test_invalid_notes_are_rejected(entry: dict[str, Any]) -> None:
    with pytest.raises(NoteError) as caught:
        open_note(entry["note"], entry["verify_with"])
    if entry["note"].startswith("\u00ff"):
        # Go's vector starts with the byte 0xFF (invalid UTF-8); the JSON copy carries U+00FF,
        # which is valid UTF-8, so here it fails on the signature instead. The byte version is
        # checked in test_a_note_that_is_not_utf8_is_malformed.
        assert str(caught.value).startswith("invalid signature for key PeterNeumann+c74f20a3")
    else:
        assert str(caught.value).startswith(expected_error(entry))


def test_a_note_that_is_not_utf8_is_malformed() -> None:
    note = b"\xff" + (TEXT + "\n").encode() + V["valid_notes"][1]["note"].encode()[len(TEXT) + 1 :]
    with pytest.raises(NoteError, match=r"^malformed note: it is not valid UTF-8"):
        open_note(note, [PETER["vkey"]])


def test_the_go_malformed_table_has_the_expected_size() -> None:
    assert len(V["invalid_notes"]) == 10
    assert len(V["valid_notes"]) == 4


def peter_note() -> str:
    return str(V["valid_notes"][1]["note"])


def test_sixteen_signatures_are_accepted_and_unknown_keys_ignored() -> None:
    others = [Signer(f"witness{i}.example", bytes([i]) * 32) for i in range(15)]
    note = sign_with(TEXT, Signer.from_skey(PETER["skey"]), *others)
    assert note.count("\n\u2014 ") == 16
    assert [s.name for s in open_note(note, [PETER["vkey"]]).signatures] == ["PeterNeumann"]
    assert len(open_note(note, [PETER["vkey"], *(o.verifier() for o in others)]).signatures) == 16


def test_a_repeated_signature_from_one_key_counts_once() -> None:
    line = peter_note()[len(TEXT) + 1 :]
    assert len(open_note(peter_note() + line, [PETER["vkey"]]).signatures) == 1


def test_a_key_with_the_same_name_but_another_id_is_ignored() -> None:
    impostor = Signer("PeterNeumann", bytes(32))
    note = sign_with(TEXT, impostor, Signer.from_skey(PETER["skey"]))
    assert [s.key_id for s in open_note(note, [PETER["vkey"]]).signatures] == [0xC74F20A3]


def test_a_bad_signature_from_a_known_key_rejects_the_whole_note() -> None:
    good = sign_with(TEXT, Signer.from_skey(PETER["skey"]), Signer.from_skey(PETER["skey"]))
    tampered = good.replace("If you", "If we", 1)
    with pytest.raises(NoteError, match="invalid signature"):
        open_note(tampered, [PETER["vkey"]])


def test_two_verifiers_with_the_same_name_and_id_are_ambiguous() -> None:
    with pytest.raises(NoteError, match="ambiguous"):
        open_note(peter_note(), [PETER["vkey"], Verifier.from_vkey(PETER["vkey"])])


@pytest.mark.parametrize(
    ("note", "reason"),
    [
        ("", "no blank line"),
        ("\n\n", "signature lines must follow"),
        (TEXT + "\n\u2014 PeterNeumann \n", "signature line must be"),
        (TEXT + "\n\u2014 PeterNeumann AAAA\n", "too short"),
        (TEXT + "\n\u2014 PeterNeumann AAAA!AAA\n", "not canonical standard base64"),
        (TEXT + "\n- PeterNeumann AAAAAAAA\n", "em dash"),
        (TEXT + "\n\u2014 Peter\tNeumann AAAAAAAA\n", "control character"),
        (TEXT.replace("\n", "\r\n") + "\n\u2014 PeterNeumann AAAAAAAA\n", "control character"),
    ],
)
def test_malformed_notes_say_why(note: str, reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        open_note(note, [PETER["vkey"]])


@pytest.mark.parametrize(
    "text",
    ["", "no final newline", "tab\there\n", "bell\x07\n"],
    ids=["empty", "no-newline", "tab", "bell"],
)
def test_sign_refuses_a_text_that_could_not_be_opened(text: str) -> None:
    with pytest.raises(NoteError):
        sign(text, "example.test", bytes(32))


@pytest.mark.parametrize("name", ["", "a b", "a+b", "a\u00a0b"])
def test_sign_refuses_an_invalid_key_name(name: str) -> None:
    with pytest.raises(NoteError):
        sign("text\n", name, bytes(32))
    with pytest.raises(NoteError):
        skey(name, bytes(32))


SAFE_TEXT = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], min_codepoint=0x20) | st.just("\n"),
    max_size=80,
).map(lambda s: s + "\n")


@settings(max_examples=30, deadline=None)
@given(SAFE_TEXT, st.binary(min_size=32, max_size=32), st.integers(min_value=0, max_value=10**6))
def test_any_text_round_trips_and_any_flipped_signature_bit_fails(
    text: str, seed: bytes, position: int
) -> None:
    signer = Signer("prop.example", seed)
    note = sign_with(text, signer)
    assert open_note(note, [signer.verifier()]).text == text
    head, _, line = note.rpartition("\u2014 prop.example ")
    raw = bytearray(base64.b64decode(line))
    raw[4 + position % 64] ^= 1 << (position % 8)
    forged = head + "\u2014 prop.example " + base64.b64encode(bytes(raw)).decode() + "\n"
    with pytest.raises(NoteError, match="invalid signature"):
        open_note(forged, [signer.verifier()])


# ---------------------------------------------------------------------------
# Checkpoints
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("entry", V["checkpoints"], ids=lambda c: str(c["size"]))
def test_sum_golang_org_checkpoints_verify_against_the_pinned_key(entry: dict[str, Any]) -> None:
    assert entry["verify_with"] == [SUMDB["vkey"]]
    checkpoint = open_checkpoint(entry["note"], entry["verify_with"], origin=entry["origin"])
    assert checkpoint.origin == entry["origin"]
    assert checkpoint.size == entry["size"]
    assert len(checkpoint.root_hash) == 32
    assert checkpoint.extensions == ()
    assert entry["note"].startswith(checkpoint.format() + "\n")
    with pytest.raises(NoteError, match="origin"):
        open_checkpoint(entry["note"], entry["verify_with"], origin="example.com/other")


def test_the_c2sp_checkpoint_example_parses_but_has_no_published_key() -> None:
    entry = V["checkpoint_body_examples_unverifiable"][0]
    body = entry["note"].split("\n\n")[0] + "\n"
    checkpoint = Checkpoint.parse(body)
    assert (checkpoint.origin, checkpoint.size) == ("example.com/behind-the-sofa", 20852163)
    assert checkpoint.format() == body
    with pytest.raises(NoteError, match="no verifiable signatures"):
        open_note(entry["note"], [])


def test_the_go_tree_note_body_formats_exactly() -> None:
    entry = V["checkpoint_body_examples_unverifiable"][1]
    checkpoint = Checkpoint("go.sum database tree", 123456789012, leaf_hash(b"hello world"))
    assert checkpoint.format() == entry["body"]
    assert Checkpoint.parse(entry["body"]) == checkpoint


def test_extension_lines_round_trip() -> None:
    checkpoint = Checkpoint("example.com/log", 0, bytes(32), ("ext one", "ext two"))
    assert checkpoint.format().endswith("=\next one\next two\n")
    assert Checkpoint.parse(checkpoint.format()) == checkpoint


ROOT64 = base64.b64encode(bytes(range(32))).decode()


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (f"origin\n1\n{ROOT64}", "end with a newline"),
        ("origin\n1\n", "at least three lines"),
        (f"\n1\n{ROOT64}\n", "no empty lines"),
        (f"origin\n1\n{ROOT64}\n\n", "no empty lines"),
        (f"origin\n01\n{ROOT64}\n", "leading zeros"),
        (f"origin\n+1\n{ROOT64}\n", "leading zeros"),
        (f"origin\n-1\n{ROOT64}\n", "leading zeros"),
        (f"origin\n 1\n{ROOT64}\n", "leading zeros"),
        (f"origin\n1_000\n{ROOT64}\n", "leading zeros"),
        (f"origin\n\u0661\n{ROOT64}\n", "leading zeros"),
        (f"origin\n{2**64}\n{ROOT64}\n", "tree size must be between"),
        (f"origin\n{2**63}\n{ROOT64}\n", "tree size must be between"),  # int64, as Go's tlog
        (f"origin\n1\n{ROOT64[:-1]}\n", "base64"),
        (f"origin\n1\n{base64.b64encode(bytes(31)).decode()}\n", "base64 of 32 bytes"),
        (f"origin\n1\n{ROOT64[:-2]}9=\n", "base64 of 32 bytes"),  # non-canonical trailing bits
        (f"origin\n1\n{bytes(range(32)).hex()}\n", "base64"),
    ],
)
def test_malformed_checkpoints_are_rejected(body: str, reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        Checkpoint.parse(body)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("", 1, bytes(32)), "origin"),
        (("a\nb", 1, bytes(32)), "origin"),
        (("o", -1, bytes(32)), "tree size"),
        (("o", 2**63, bytes(32)), "tree size"),
        (("o", True, bytes(32)), "tree size"),
        (("o", 1, bytes(31)), "32 bytes"),
        (("o", 1, bytes(32), ("",)), "extension"),
    ],
)
def test_invalid_checkpoint_fields_are_rejected(args: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        Checkpoint(*args)


# ---------------------------------------------------------------------------
# The worked example of docs/protocol-tamper-evidence.md
# ---------------------------------------------------------------------------

TEST_SEED = bytes(range(32))  # TEST KEY, published in the protocol document
KEY_NAME = "dealerroom.example"
ORIGIN = "dealerroom.example/match/6b3f2a2e-1c4d-4e5f-9a8b-7c6d5e4f3a2b"
RECORDS = [
    {
        "seq": 0,
        "type": "MatchCreated",
        "at": "2025-01-01T12:00:00Z",
        "data": {"game": "vote", "players": ["ann", "ben"]},
    },
    {
        "seq": 1,
        "type": "SeedCommitted",
        "at": "2025-01-01T12:00:00Z",
        "data": {"seed_hash": "61c50c93dd74a853cd89586676e6c9968fd7fe0866072a610c7633ff5b7fdf75"},
    },
    {"seq": 2, "type": "StepOpened", "at": "2025-01-01T12:00:05Z", "data": {"step": 1}},
]
EXPECTED = {
    "public_key": "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
    "key_id": "debe4652",
    "vkey": "dealerroom.example+debe4652+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4",
    "skey": "PRIVATE+KEY+dealerroom.example+debe4652+AQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f",
    "h0": "781e92ce581c5927a0d0895652be28c6b671bdcdf9e21feb54957ff5306a04c2",
    "h1": "a26260d0ef3ae6b010c6d4a4d32e00712bb27d93bb6e26ad0df23c7f217c232c",
    "h2": "7c1f9d2d83cb003fba9854d95dcdacd2fdc67e72bc65a84b8102ef5edc9d61c1",
    "root2": "bbd220e7e71f434e6d5f0ccbe2e2fc88ee11cb863f34edadc518acc747ed75b7",
    "root3": "39841ba0c8c632c42bd6a237649e52b2385071b9f11ac25bc53ddab9c60d2fce",
    "root3_b64": "OYQboMjGMsQr1qI3ZJ5SsjhQcbnxGsJbxT3aucYNL84=",
    "signature_line": (
        "\u2014 dealerroom.example 3r5GUkYft6UVWipX6DjvtJ6nq4ga76sCt+XowyEyD6FT0+MfcApVaH1UtbcRjnI5"
        "/fHTN9dlDAHu8O5FixM12SgYGwI="
    ),
}


def test_the_worked_example_in_the_protocol_document_recomputes() -> None:
    doc = DOC.read_text()
    # Check the key.
    signer = Signer(KEY_NAME, TEST_SEED)
    verifier = signer.verifier()
    assert verifier.public_key.hex() == EXPECTED["public_key"]
    assert f"{verifier.key_id:08x}" == EXPECTED["key_id"]
    assert verifier.vkey() == EXPECTED["vkey"]
    assert signer.skey() == EXPECTED["skey"]
    # Check the leaves, their hashes and the roots.
    leaves = [canonical_json(r) for r in RECORDS]
    for i, leaf in enumerate(leaves):
        assert f"leaf {i}  {leaf.decode()}" in doc
    hashes = [leaf_hash(leaf) for leaf in leaves]
    assert [x.hex() for x in hashes] == [EXPECTED["h0"], EXPECTED["h1"], EXPECTED["h2"]]
    assert node_hash(hashes[0], hashes[1]).hex() == root(hashes[:2]).hex() == EXPECTED["root2"]
    assert node_hash(root(hashes[:2]), hashes[2]).hex() == root(hashes).hex() == EXPECTED["root3"]
    # Check the proofs.
    assert inclusion_proof(hashes, 1) == [hashes[0], hashes[2]]
    verify_inclusion(hashes[1], 1, 3, [hashes[0], hashes[2]], root(hashes))
    assert consistency_proof(hashes, 2) == [hashes[2]]
    verify_consistency(2, 3, root(hashes[:2]), root(hashes), [hashes[2]])
    # Check the signed checkpoint, line by line as the document shows it.
    note = sign_checkpoint(Checkpoint(ORIGIN, 3, root(hashes)), signer)
    assert note == f"{ORIGIN}\n3\n{EXPECTED['root3_b64']}\n\n{EXPECTED['signature_line']}\n"
    shown = "\n".join(f"    {line}" if line else "" for line in note.splitlines())
    assert shown in doc
    assert open_checkpoint(note, [EXPECTED["vkey"]], origin=ORIGIN).root_hash == root(hashes)
    # Every number above is printed in the document.
    for value in EXPECTED.values():
        assert value in doc
