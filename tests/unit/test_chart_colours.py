"""A player's colour is the same in the picture and on the chart; every chart line is legible.

The contrast ratio is computed here from the WCAG 2 definition (relative luminance of sRGB),
not taken from :mod:`web.svg`: a line or mark is legible at 3:1 against what it is drawn on
(WCAG 2.1, 1.4.11 non-text contrast).
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from replay.bundle import load_bundle
from replay.state import MatchReplay
from web import svg
from web.chart import Series, draw
from web.games.grid_adaptation.picture import SEQUENCE_COLOURS
from web.pictures import chart, picture

BUNDLES = Path(__file__).resolve().parents[2] / "fixtures" / "bundles"
EVERY_BUNDLE = sorted(p.name.removesuffix(".bundle.json") for p in BUNDLES.glob("*.bundle.json"))
SVG = "{http://www.w3.org/2000/svg}"
GRAPHICS = 3.0  # WCAG 2.1 1.4.11: a graphic's contrast against its neighbour


def luminance(colour: str) -> float:
    code = colour.removeprefix("#")
    channels = [int(code[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_ratio_here_is_the_wcag_one() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#f2eedf", "#ffffff") < GRAPHICS  # sequence 111: cream


@functools.cache
def _records(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(load_bundle((BUNDLES / f"{name}.bundle.json").read_bytes())["records"])


def parse(markup: Any) -> ET.Element:
    return ET.fromstring(str(markup))  # noqa: S314 - the SVG our own code just drew


def classed(root: ET.Element, css: str) -> list[ET.Element]:
    return [e for e in root.iter() if css in (e.get("class") or "").split()]


def chart_colours(root: ET.Element) -> dict[str, str]:
    """Each series' name and the colour its line is drawn in."""
    found = {}
    for group in classed(root, "series"):
        [line] = classed(group, "line")
        found[group.get("data-name") or ""] = line.get("stroke") or ""
    return found


def picture_colours(root: ET.Element) -> dict[str, set[str]]:
    """Each player and the colours the picture marks them with (name dots, sides, arrows)."""
    found: dict[str, set[str]] = {}
    for mark in classed(root, "swatch"):
        colour = mark.get("fill") if mark.get("fill") not in (None, "none") else mark.get("stroke")
        found.setdefault(mark.get("data-player") or "", set()).add(colour or "")
    return found


def moments(recs: tuple[dict[str, Any], ...]) -> list[int]:
    """Every resolved step, every decision asked, and the last record."""
    kinds = ("StepResolved", "DecisionRequested", "SubmissionRevealed")
    return [r["seq"] for r in recs if r["type"] in kinds] + [len(recs) - 1]


# ---------------------------------------------------------------------------
# One colour per player
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", EVERY_BUNDLE)
def test_a_player_has_the_same_colour_in_every_picture_and_on_the_chart(name: str) -> None:
    recs = list(_records(name))
    players = recs[0]["data"]["players"]
    colours = svg.colours(players)
    drawn = str(chart(recs))  # a vote has no chart: the picture's bars say it all
    lines = chart_colours(parse(drawn)) if drawn else {}
    for who, colour in lines.items():
        if who in colours:
            assert colour == colours[who], (who, "chart")
    marked: set[str] = set()
    board = MatchReplay(recs)
    for seq in moments(_records(name)):
        views = [picture(recs, seq, board=board)]
        if seq == len(recs) - 1:  # and from a seat, for the games drawn so in the room
            views += [picture(recs, seq, board=board, seat=p) for p in players]
        for root in map(parse, views):
            for who, shown in picture_colours(root).items():
                assert who in colours, who
                assert shown == {colours[who]}, (seq, who, shown)
                marked.add(who)
    # Every player on the chart is marked in their colour in the pictures somewhere.
    assert {n for n in lines if n in colours} <= marked


def test_apocalypse_draws_each_side_in_its_player_s_chart_colour() -> None:
    recs = list(_records("apocalypse-bot-match"))
    lines = chart_colours(parse(chart(recs)))
    sides = recs[2]["data"]["view"]["colors"]  # {"white": "ana", "black": "ben"}
    arrows = 0
    for seq in moments(_records("apocalypse-bot-match")):
        root = parse(picture(recs, seq))
        for move in classed(root, "move"):
            side = "white" if "white" in move.get("class", "") else "black"
            line = move.find(f".//{SVG}line")
            if line.get("stroke") != "#c0392b":  # red: an illegal move
                assert line.get("stroke") == lines[sides[side]], (seq, side)
                arrows += 1
        for card in classed(root, "side"):
            stripe = classed(card, "swatch")[0]
            assert stripe.get("fill") == lines[card.get("data-player")]
    assert arrows > 20
    assert lines["ana"] != lines["ben"]


def test_the_virtual_player_is_the_same_grey_in_the_picture_and_on_the_chart() -> None:
    recs = list(_records("six-nimmt-seeded"))
    lines = chart_colours(parse(chart(recs)))
    shown = picture_colours(parse(picture(recs, len(recs) - 1)))
    assert lines["virtual"] == svg.VIRTUAL_COLOUR
    assert shown["virtual"] == {svg.VIRTUAL_COLOUR}
    [line] = [
        classed(g, "line")[0]
        for g in classed(parse(chart(recs)), "series")
        if g.get("data-name") == "virtual"
    ]
    assert line.get("stroke-dasharray")  # and dashed: it is nobody's seat


# ---------------------------------------------------------------------------
# Legible lines in every palette
# ---------------------------------------------------------------------------


def assert_every_line_is_legible(root: ET.Element) -> int:
    """Each series' line, or the darker outline under it, stands out 3:1 on the plot's white.

    The key's stroke, drawn on the paper beside the plot, too; and the plot's zero line and
    the rounds' ends. Returns how many series were checked.
    """
    [plot] = classed(root, "plot")
    white = plot.get("fill") or ""
    paper = root.find(f"{SVG}rect").get("fill") or ""
    groups = classed(root, "series")
    for group in groups:
        for css, ground in (("line", white), ("key", paper)):
            [line] = classed(group, css)
            best = contrast(line.get("stroke") or "", ground)
            width = float(line.get("stroke-width") or 1)
            for outline in classed(group, "outline"):
                if len(outline.get("d", "").split("L")) == len(line.get("points", "").split()):
                    assert float(outline.get("stroke-width") or 1) > width + 1  # it shows
                    best = max(best, contrast(outline.get("stroke") or "", ground))
            assert best >= GRAPHICS, (group.get("data-name"), css, line.get("stroke"), best)
        for dot in group.iter(f"{SVG}circle"):
            best = max(contrast(dot.get(a) or "#ffffff", white) for a in ("fill", "stroke"))
            assert best >= GRAPHICS, (group.get("data-name"), dot.get("fill"))
    for mark in classed(root, "round-end"):
        assert contrast(mark.get("stroke") or "", white) >= GRAPHICS
    return len(groups)


@pytest.mark.parametrize("name", EVERY_BUNDLE)
def test_every_chart_line_of_every_bundle_is_legible(name: str) -> None:
    recs = list(_records(name))
    drawn = chart(recs)
    if str(drawn):
        assert assert_every_line_is_legible(parse(drawn)) >= 2


def test_grid_adaptation_sequence_lines_are_legible_cream_and_amber_too() -> None:
    recs = list(_records("grid-adaptation-ec-vote"))
    opened = next(r["seq"] for r in recs if r["type"] == "StepOpened" and r["data"]["step"] == 5)
    root = parse(chart(recs[:opened]))
    assert set(chart_colours(root)) == set(SEQUENCE_COLOURS)
    assert chart_colours(root)["111"] == SEQUENCE_COLOURS["111"]  # cream, with an outline
    assert assert_every_line_is_legible(root) == len(SEQUENCE_COLOURS)


def test_every_palette_entry_draws_a_legible_line() -> None:
    players = [f"p{i}" for i in range(len(svg.PLAYER_COLOURS))]
    names = [*players, "virtual"]
    points = [(step, {n: float(step * (i + 1)) for i, n in enumerate(names)}) for step in range(4)]
    root = parse(draw(Series("points", names, points), players))
    assert chart_colours(root) == svg.colours(players)
    assert assert_every_line_is_legible(root) == len(names)
    bits = list(SEQUENCE_COLOURS)
    points = [(step, {b: float(step * (i + 1)) for i, b in enumerate(bits)}) for step in range(4)]
    root = parse(draw(Series("score", bits, points, colours=SEQUENCE_COLOURS), players))
    assert chart_colours(root) == SEQUENCE_COLOURS
    assert assert_every_line_is_legible(root) == len(bits)
