"""certificate (issue 50): the travel certificate the airline owes a member of the tier the caller
names for the delay the CRM shows on their flight, as the tier's compensation article in force says
(crm_app/services/kb_terms.py). Searching for it finds the tier's superseded article first: a rep who
reads no further tells an older amount, and fails."""
from __future__ import annotations

from crm_app.services.disruptions import DELAYED
from crm_app.services.kb_terms import certificate, certificate_articles
from crm_app.services.knowledge_base import article_by_id
from crm_app.services.policy import delay_text
from crm_app.services.pricing import money

from .... import steps
from ....sampling import Draw, SetupDisruption
from ...base import Sample
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts
from ..kind import RequestKind
from ..reading import chain, read, read_calls, read_steps, wrong

# (tier, fare) and the delays drawn, in minutes: each where the article in force and the one it
# superseded give different amounts
BRANCHES = ((Branch("Gold", "Standard"), range(125, 236, 5)), (Branch("Platinum", "Flex"), range(245, 476, 5)),
            (Branch("Silver", "Basic"), range(245, 476, 5)), (Branch("Member", "Standard"), range(485, 601, 5)),
            (Branch("Gold", "Basic"), range(485, 601, 5)))


def sample(draw: Draw) -> Sample:
    branch, delays = BRANCHES[draw.seed % len(BRANCHES)]
    booking = caller_booking(draw, branch)
    delay, tier = draw.rng.choice(delays), branch.name
    found = certificate_articles(tier)
    first = next(article for article in found if article.superseded_by)  # the shorter title: the first result
    owed, old = certificate(tier, delay), certificate(tier, delay, article=first)
    details = {"confirmation-code": booking.code, "branch": f"{tier}, {delay_text(delay)}",
               "customer": customer_facts(booking), "tier": tier,
               "status": {"flight-number": booking.trip.outward.number, "delay-minutes": delay},
               "reading": read(f"{tier} delay certificate", chain(first, article_by_id())),
               "expected": {"outcome": DONE, "must_say": [money(owed.cents)]}, "forbidden": [],
               "wrong": [wrong(money(old.cents), f"the agent told the customer {old.said}, what the superseded "
                                                 f"article {old.article} says; {owed.article}, in force, says {owed.said}")]}
    return Sample(details, (booking,), (SetupDisruption(booking.trip.outward, DELAYED, delay),))


def handle(request: dict) -> list[dict]:
    status, owed = request["status"], request["expected"]["must_say"][0]
    return [*read_steps(request["reading"]),
            steps.say(f"Flight {status['flight-number']} is delayed by {delay_text(status['delay-minutes'])}: at the "
                      f"{request['tier']} tier you are owed a travel certificate of ${owed}.", tells=(owed,))]


KIND = RequestKind(
    "certificate", "the travel certificate a member of a tier is owed for the delay of their flight (knowledge base)",
    draw=sample,
    says=lambda request, booking: f"My loyalty tier is {request['tier']}, and the flight of {booking} is delayed. "
                                  "What travel certificate am I owed for the delay?",
    handle=handle, calls=lambda request: read_calls(request["reading"]))
