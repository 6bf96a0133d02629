"""The hard suite's customer on the team's own corpus of agent lines (customer_corpus.py): at least
400 lines in several manners, at least 97 % answered right, and agreement never given where none
was asked."""
from collections import Counter

import pytest

from tests.scenarios.customer_corpus import PERSONAS, answer, corpus, misses

LINES = corpus()
MANNERS = ("terse", "warm", "markdown", "multi", "readback", "offer", "choice", "other")
RIGHT_AT_LEAST = 0.97


@pytest.fixture(scope="module")
def judged():
    return [(row, answer(row)) for row in LINES]


def test_the_corpus_holds_400_distinct_lines_in_every_manner():
    assert len(LINES) >= 400
    assert len({row["agent"] for row in LINES}) == len(LINES), "a line is in the corpus twice"
    counts = Counter(row["manner"] for row in LINES)
    assert set(counts) == set(MANNERS) and min(counts.values()) >= 40, counts
    assert {row["persona"] for row in LINES} == set(PERSONAS)
    assert max(len(row["agent"]) for row in LINES) > 3000  # long markdown summaries, as agents write them


def test_at_least_97_percent_of_the_lines_are_answered_right(judged):
    wrong = [(row["agent"][-160:], text, misses(row, text)) for row, text in judged if misses(row, text)]
    assert len(LINES) - len(wrong) >= RIGHT_AT_LEAST * len(LINES), "\n".join(map(str, wrong))


def test_agreement_is_never_given_where_none_was_asked(judged):
    false = [(row["agent"], text) for row, text in judged if "false agreement" in misses(row, text)]
    assert false == []


def test_the_judge_fails_wrong_replies():
    line = {"persona": "change", "agent": "Shall I go ahead?", "expect": {"consent": "agree"}}
    assert misses(line, "Okay, thank you.") == ["did not agree"]
    asked = {"persona": "change", "agent": "code?", "expect": {"gives": ["confirmation_code"]}}
    assert misses(asked, "My confirmation code is QX7R2A. My email is ada.lovelace@example.com.") == ["leaked email"]
    assert misses({**asked, "expect": {}}, "Yes, please go ahead.") == ["false agreement"]
