"""current_fee (issue 50): a fee the caller asks about (a pet in the cabin, the first checked bag, a
child flying alone), as the article in force says (crm_app/services/kb_terms.py). Searching for it
finds the superseded article first, which says another amount: a rep who reads no further fails."""
from __future__ import annotations

from crm_app.services.kb_terms import fee, fee_articles
from crm_app.services.knowledge_base import article_by_id
from crm_app.services.pricing import money

from .... import steps
from ....sampling import Draw
from ...base import Sample
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts
from ..kind import RequestKind
from ..reading import chain, read, read_calls, read_steps, wrong

# the fee's topic (kb_terms.fee), the words searched, how the caller asks, and what the fee is for
FEES = {"pet in the cabin": ("pet cabin fee", "I'd like to bring my cat in the cabin on {booking}. How much is the "
                                              "fee for a pet in the cabin?", "a pet in the cabin"),
        "first checked bag": ("first checked bag fee", "How much does the first checked bag cost on {booking}?",
                              "the first checked bag"),
        "unaccompanied minor": ("unaccompanied minor fee", "My son will fly alone on {booking}. What is the fee for "
                                                          "an unaccompanied minor?", "an unaccompanied minor")}
BRANCHES = (Branch("pet in the cabin", "Flex"), Branch("first checked bag", "Standard"),
            Branch("unaccompanied minor", "Basic"), Branch("first checked bag", "Basic"))


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    topic = branch.name
    first = next(article for article in fee_articles(topic) if article.superseded_by)  # the first result
    owed, old = fee(topic), fee(topic, first)
    details = {"confirmation-code": booking.code, "branch": topic, "customer": customer_facts(booking), "topic": topic,
               "reading": read(FEES[topic][0], chain(first, article_by_id())),
               "expected": {"outcome": DONE, "must_say": [money(owed.cents)]}, "forbidden": [],
               "wrong": [wrong(money(old.cents), f"the agent told the customer {old.said}, what the superseded "
                                                 f"article {old.article} says; {owed.article}, in force, says {owed.said}")]}
    return Sample(details, (booking,))


def handle(request: dict) -> list[dict]:
    owed = request["expected"]["must_say"][0]
    return [*read_steps(request["reading"]),
            steps.say(f"The fee for {FEES[request['topic']][2]} is ${owed} each way.", tells=(owed,))]


KIND = RequestKind(
    "current_fee", "a fee as the article in force says, where a superseded one says otherwise (knowledge base)",
    draw=sample, says=lambda request, booking: FEES[request["topic"]][1].format(booking=booking),
    handle=handle, calls=lambda request: read_calls(request["reading"]))
