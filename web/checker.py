"""The standalone checker page: commitments, receipts and bundles checked in the browser."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("checker", __name__)


@bp.get("/check")
def check() -> str:
    """Check a commitment, a receipt file or a bundle file, computed in the browser."""
    return render_template("checker.html")
