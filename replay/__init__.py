"""Replay: state at any event, bundles, receipts, the offline verifier and what-if replay.

Everything here is pure: it imports only ``domain`` and the standard library, so a bundle
can be checked without the database, the service, the web or a network.

* :mod:`replay.bundle`: the bundle file (public records, signed checkpoints, receipts).
* :mod:`replay.receipt`: a player's receipt for a submission, and its verification.
* :mod:`replay.verify`: the offline verifier, composed visitors (one per check) returning a
  :class:`Verdict`.
* :mod:`replay.state`: :class:`MatchReplay`, the match as a board to step through.
* :mod:`replay.whatif`: re-running a match with one pick changed.
"""

from __future__ import annotations

import importlib
from typing import Any

# Names are imported on first use, so that importing ``replay`` stays light.
_EXPORTS = {
    "BundleError": "replay.bundle",
    "build_bundle": "replay.bundle",
    "dump_bundle": "replay.bundle",
    "export_bundle": "replay.bundle",
    "load_bundle": "replay.bundle",
    "play_scenario": "replay.bundle",
    "play_scenario_records": "replay.bundle",
    "sign_checkpoints": "replay.bundle",
    "ReceiptError": "replay.receipt",
    "extend_receipt": "replay.receipt",
    "make_receipt": "replay.receipt",
    "verify_receipt": "replay.receipt",
    "MatchReplay": "replay.state",
    "ReplayError": "replay.state",
    "diff_values": "replay.state",
    "BundleVerifier": "replay.verify",
    "Check": "replay.verify",
    "Verdict": "replay.verify",
    "Visitor": "replay.verify",
    "verify_bundle": "replay.verify",
    "walk": "replay.verify",
    "WhatIf": "replay.whatif",
    "WhatIfError": "replay.whatif",
    "what_if": "replay.whatif",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        msg = f"module 'replay' has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(importlib.import_module(module), name)


__all__ = sorted(_EXPORTS)  # noqa: PLE0605 - the lazy exports above, one list of them
