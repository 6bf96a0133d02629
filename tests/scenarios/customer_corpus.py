"""The team's corpus of agent lines (data/customer_corpus*.jsonl: written for this project, several
manners, each line labelled with what a right reply holds), the customers it is said to, and the
judge of a reply. Used by tests/scenarios/test_customer_corpus.py and
benchmarks/customer_understanding.py.

customer_corpus.jsonl was written first; customer_corpus_holdout.jsonl later, by another hand that
saw neither the customer's code nor the first file (the figure it gave before the customer was
tuned on it is in docs/customer.md)."""
from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from scenarios.customer.simulator import ACKNOWLEDGED, CLOSING, CONFIRMED, DECLINED, NOT_RIGHT, REPAIR, reply
from scenarios.customer.vocabulary import FIXED_ANSWERS

DATA = Path(__file__).resolve().parent / "data"
CORPUS_FILES = ("customer_corpus.jsonl", "customer_corpus_holdout.jsonl")
PERSONAS = {
    "change": {"confirmation_code": "QX7R2A", "date_of_birth": dt.date(1980, 4, 5), "email": "ada.lovelace@example.com",
               "first_name": "Ada", "last_name": "Lovelace", "travel_date": dt.date(2026, 7, 14),
               "departure_time": "5:05pm", "request": "Hi, I'd like to move my flight to a later day."},
    "cancel": {"confirmation_code": "KD4M9P", "date_of_birth": dt.date(1992, 9, 30), "email": "sam.okafor@example.org",
               "first_name": "Sam", "last_name": "Okafor", "request": "Hello, I need to cancel my flight, please."},
    "lost": {"date_of_birth": dt.date(1986, 12, 9), "email": "grace.hopper@example.net", "first_name": "Grace",
             "last_name": "Hopper", "travel_date": dt.date(2026, 6, 20),
             "request": "Hi, I need to cancel my flight, but I don't have my confirmation code."},
    "book": {"title": "Mr", "first_name": "Omar", "last_name": "Haddad", "gender": "Male",
             "date_of_birth": dt.date(1975, 11, 23), "email": "omar.haddad@example.com",
             "card_number": "4111111111111111", "card_expiry": "04/29", "security_code": "737",
             "name_on_card": "Omar Haddad", "travel_date": dt.date(2026, 8, 3),
             "request": "Hi, I'd like to book a one-way flight from Boston (BOS) to Denver (DEN) on August 3, 2026: "
                        "the cheapest Flex fare arriving before 4:35pm."},
}
AGREEMENT = ("go ahead", "please proceed", "please do")
CHOICE_FACTS = {"departure_time", "travel_date", "confirmation_code"}  # a pick may name them


def corpus() -> list[dict]:
    """Every line of the corpus files, each with the file it came from (`file`)."""
    return [{**json.loads(line), "file": name} for name in CORPUS_FILES
            for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def answer(row: dict) -> str:
    """The persona's reply to the row's line, said as the call's first line of the agent's."""
    return reply(PERSONAS[row["persona"]], [{"role": "agent", "text": row["agent"]}])


def said(kind: str, facts: dict) -> str:
    """How a fact's value appears in a reply."""
    if kind == "full_name":
        return f"{facts['first_name']} {facts['last_name']}"
    value = facts[kind]
    return f"{value:%B} {value.day}, {value.year}" if isinstance(value, dt.date) else str(value)


def misses(row: dict, text: str) -> list[str]:
    """What the reply `text` gets wrong of the row's labels (empty: right)."""
    expect, facts, low = row["expect"], PERSONAS[row["persona"]], text.lower()
    why = [f"did not give {kind}" for kind in expect.get("gives", ()) if said(kind, facts).lower() not in low]
    why += [f"did not say it lacks {name}" for name in expect.get("lacks", ()) if "don't have" not in low]
    why += _consent(expect.get("consent"), low)
    why += _choice(expect.get("choice"), low)
    why += _read_back(expect.get("readback"), text, facts)
    for key, line in (("closing", CLOSING), ("repair", REPAIR), ("ack", ACKNOWLEDGED)):
        if expect.get(key) and text != line:
            why.append(f"not the {key} line")
    if expect.get("reason") and not any(answer in text for answer in [DECLINED, *(fixed for _, fixed in FIXED_ANSWERS)]):
        why.append("no fixed answer")
    return why + [f"leaked {kind}" for kind in _leaked(expect, text, facts)]


def _says(text: str, value: str) -> bool:
    """The value as words of its own (a name inside an email address is not said)."""
    return re.search(rf"(?<![\w.@]){re.escape(value)}(?![\w@]|\.\w)", text, re.I) is not None


def _consent(wanted: str | None, low: str) -> list[str]:
    agreed = any(words in low for words in AGREEMENT)
    if wanted == "agree":
        return [] if agreed else ["did not agree"]
    if agreed:
        return ["false agreement"]
    if wanted == "decline" and not (low.startswith("no") or " no," in low or "no, thank" in low):
        return ["did not decline"]
    return []


def _choice(wanted: str | None, low: str) -> list[str]:
    if wanted is None:
        return []
    if "don't know" in low or low == REPAIR.lower():
        return ["made no choice"]
    if wanted == "none":
        return [] if "none of" in low else ["did not say none fits"]
    return [] if wanted == "any" or wanted.lower() in low else [f"did not choose {wanted}"]


def _read_back(wanted, text: str, facts: dict) -> list[str]:
    if wanted is None:
        return []
    if wanted == "confirm":
        return [] if CONFIRMED in text and NOT_RIGHT not in text else ["did not confirm"]
    why = [] if NOT_RIGHT in text or "got that wrong" in text else ["did not say it is wrong"]
    return why + [f"did not correct {kind}" for kind in wanted if said(kind, facts).lower() not in text.lower()]


def _leaked(expect: dict, text: str, facts: dict) -> list[str]:
    """Facts whose value the reply gives though the line did not ask for them."""
    allowed = set(expect.get("gives", ())) | set(expect.get("readback") if isinstance(expect.get("readback"), list) else ())
    if "choice" in expect:
        named = [*facts, "full_name"] if "first_name" in facts else list(facts)
        allowed |= CHOICE_FACTS | {kind for kind in named if said(kind, facts).lower() == expect["choice"].lower()}
    if "full_name" in allowed or "name_on_card" in allowed or {"first_name", "last_name"} <= allowed:
        allowed |= {"first_name", "last_name", "full_name", "name_on_card"}
    kinds = [kind for kind in facts if kind != "request"] + ["full_name"] * ("first_name" in facts)
    if "full_name" in allowed:
        allowed |= {"first_name", "last_name", "name_on_card"}
    request = facts["request"].lower() if "request" in allowed else ""
    return [kind for kind in kinds if kind not in allowed and _says(text, said(kind, facts))
            and said(kind, facts).lower() not in request
            and not any(said(kind, facts).lower() in said(other, facts).lower() for other in allowed if other in facts)]
