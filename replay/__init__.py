"""Replay: state at any event, bundles, receipts, the offline verifier and what-if replay.

Everything here is pure: it imports only ``domain`` and the standard library, so a bundle
can be checked without the database, the service, the web or a network.

* :mod:`replay.bundle`: the bundle file (public records, signed checkpoints, receipts).
* :mod:`replay.receipt`: a player's receipt for a submission, and its verification.
* :mod:`replay.verify`: the offline verifier, a visitor returning a :class:`Verdict`.
* :mod:`replay.state`: :class:`MatchReplay`, the match as a board to step through.
* :mod:`replay.whatif`: re-running a match with one pick changed.
"""

from __future__ import annotations

from replay.bundle import (
    BundleError,
    build_bundle,
    dump_bundle,
    export_bundle,
    load_bundle,
    play_scenario,
    play_scenario_records,
    sign_checkpoints,
)
from replay.receipt import ReceiptError, extend_receipt, make_receipt, verify_receipt
from replay.state import MatchReplay, ReplayError, diff_values
from replay.verify import BundleVerifier, Check, Verdict, Visitor, verify_bundle, walk
from replay.whatif import WhatIf, WhatIfError, what_if

__all__ = [
    "BundleError",
    "BundleVerifier",
    "Check",
    "MatchReplay",
    "ReceiptError",
    "ReplayError",
    "Verdict",
    "Visitor",
    "WhatIf",
    "WhatIfError",
    "build_bundle",
    "diff_values",
    "dump_bundle",
    "export_bundle",
    "extend_receipt",
    "load_bundle",
    "make_receipt",
    "play_scenario",
    "play_scenario_records",
    "sign_checkpoints",
    "verify_bundle",
    "verify_receipt",
    "walk",
    "what_if",
]
