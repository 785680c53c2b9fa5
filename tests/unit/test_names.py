"""Player names: PRECIS-enforced, bounded, reachable by their links, unique and not look-alikes.

One case per finding of issue 14 (point 10): every refused list used to be accepted.
"""

from __future__ import annotations

import pytest

from service.names import MAX_LENGTH, PlayerNameError, check_player_names, skeleton


@pytest.mark.parametrize(
    ("names", "recorded"),
    [
        (["ana", "ben"], ["ana", "ben"]),
        (["ｊｏｓé", "ben"], ["josé", "ben"]),  # full-width letters become the usual ones
        (["jose\u0301"], ["josé"]),  # NFD is recorded as NFC
        (["ana b", "Cai Dee"], ["ana b", "Cai Dee"]),  # single inner spaces: nicknames
        (["a.b", "x_y", "Zoë-3"], ["a.b", "x_y", "Zoë-3"]),
        (["ΑΝΑ", "ben"], ["ΑΝΑ", "ben"]),  # Greek on its own is fine
        (["a" * MAX_LENGTH], ["a" * MAX_LENGTH]),
    ],
)
def test_good_names_are_recorded_in_their_enforced_form(
    names: list[str], recorded: list[str]
) -> None:
    assert check_player_names(names) == recorded


@pytest.mark.parametrize(
    ("names", "why"),
    [
        (["ana", "Ana"], 'differ in more than upper and lower case: "Ana" and "ana"'),
        (["ana", "ANA"], '"ANA" and "ana" are the same name'),
        (["josé", "jose\u0301"], '"josé" appears twice'),  # NFC and NFD twins
        (["ana", "\u0430na"], 'must not look alike: "\u0430na" can be mistaken for "ana"'),
        (["ANA", "ΑΝΑ"], "must not look alike"),  # Latin and Greek capitals
        (["l1", "ll"], "must not look alike"),
        ([" ana"], "begins or ends with a space"),
        (["ana "], "begins or ends with a space"),
        (["ana  b"], "two spaces in a row"),
        (["\u200bana"], '"\\u200bana" contains an invisible character'),
        (["ana\u202e"], '"ana\\u202e" contains an invisible character'),
        (["ana\u200d"], "invisible character"),  # zero-width joiner
        (["a\x00"], '"a\\u0000" contains a control character'),
        (["x" * 60_000], f"at most {MAX_LENGTH} characters, not 60,000"),
        (["x" * (MAX_LENGTH + 1)], f"at most {MAX_LENGTH} characters"),
        ([""], "cannot be empty"),
        (["a/b"], "contains '/'"),
        (["a\\b"], "contains '\\'"),
        (["a?b"], "contains '?'"),
        (["a#b"], "contains '#'"),
        (["100%"], "contains '%'"),
        (["."], 'cannot be "."'),
        ([".."], 'cannot be ".."'),
        (["host"], '"host" is reserved'),
        (["Host"], "reserved"),
        (["SYSTEM"], "reserved"),
        (["🎲"], "symbol or emoji"),
        (["𝐚na"], "styled variant"),
        (["ana", 3], "players is a list of names"),
        ("ana", "players is a list of names"),
    ],
)
def test_a_refused_name_says_which_and_why(names: list[str], why: str) -> None:
    with pytest.raises(PlayerNameError, match=None) as caught:
        check_player_names(names)
    assert why in str(caught.value)
    assert isinstance(caught.value, ValueError)  # a user error: the web answers 400


def test_refusing_a_huge_name_costs_nothing() -> None:
    import time

    started = time.perf_counter()
    for _ in range(100):
        with pytest.raises(PlayerNameError):
            check_player_names(["\u200b" * 60_000])
    assert time.perf_counter() - started < 0.5


def test_skeletons_follow_uts_39() -> None:
    assert skeleton("\u0430") == skeleton("a")  # Cyrillic a
    assert skeleton("rn") == skeleton("m")
    assert skeleton("0") == skeleton("O")
    assert skeleton("paypal") == skeleton("p\u0430yp\u0430l")
    assert skeleton("ana") != skeleton("ama")
