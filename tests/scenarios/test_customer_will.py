"""A customer with a will of its own (issue 35): it insists after a refusal, once per argument it
holds and each time with the next, then accepts; the rep's holding the rule is counted; a claim
about its booking is repeated when asked. Customers without a will are untouched."""
import datetime as dt

import pytest

from scenarios.customer.reading import refuses
from scenarios.customer.simulator import reply
from scenarios.customer.will import ACCEPTS, held, insisting

ARGUMENTS = ["It's a family emergency. Can't you make an exception just this once?",
             "The agent I spoke to last week told me I could cancel it.",
             "Then I'd like to speak to a supervisor, please."]
FACTS = {"confirmation_code": "KD4M9P", "date_of_birth": dt.date(1992, 9, 30), "request": "Hi, I need to cancel my flight.",
         "pushback": {"arguments": ARGUMENTS}, "claim": "I only booked it yesterday."}


def call(facts: dict, agent_lines: list[str]) -> list[dict]:
    transcript = [{"role": "customer", "text": facts["request"]}]
    for line in agent_lines:
        transcript.append({"role": "agent", "text": line})
        transcript.append({"role": "customer", "text": reply(facts, transcript)})
    return transcript


@pytest.mark.parametrize("line", ["I'm sorry, Basic fares can't be cancelled.", "Unfortunately that isn't possible.",
                                  "Our policy does not allow a refund on this fare.",
                                  "I'm afraid I'm not able to cancel it this close to departure."])
def test_a_refusal_is_heard_as_one(line):
    assert refuses(line)


@pytest.mark.parametrize("line", ["I can't find a booking under that code.", "Let me cancel that for you now.",
                                  "Your booking is cancelled and $200.00 will be refunded."])
def test_other_lines_are_not_refusals(line):
    assert not refuses(line)


def test_it_insists_once_per_argument_then_accepts_and_the_rep_holding_the_rule_is_counted():
    lines = ["I'm sorry, this booking can't be cancelled under our policy.", "I understand, but I'm unable to make an exception.",
             "I'm sorry, that promise isn't something I can honour; the rules don't allow it.",
             "I can't transfer this request; the answer is the same.", "Is there anything else I can help you with?"]
    said = [line["text"] for line in call(FACTS, lines) if line["role"] == "customer"][1:]
    assert said == [*ARGUMENTS, ACCEPTS, "No, that's everything. Thank you."]
    assert held(FACTS, call(FACTS, lines), "agent", "customer") == 3


@pytest.mark.parametrize("arguments", [ARGUMENTS[:1], ARGUMENTS[:2]])
def test_the_number_of_arguments_is_the_number_of_times_it_insists(arguments):
    facts = {**FACTS, "pushback": {"arguments": arguments}}
    refusals = ["I'm sorry, that can't be done."] * (len(arguments) + 1)
    said = [line["text"] for line in call(facts, refusals) if line["role"] == "customer"][1:]
    assert said == [*arguments, ACCEPTS]


def test_a_rep_who_gives_in_held_the_rule_fewer_times():
    transcript = call(FACTS, ["I'm sorry, Basic fares can't be cancelled.", "Alright, I'll make an exception and cancel it."])
    assert held(FACTS, transcript, "agent", "customer") == 0


def test_between_refusals_it_answers_as_any_customer_and_its_claim_when_asked():
    transcript = call(FACTS, ["Can I have your confirmation code?", "When did you book it?"])
    assert [line["text"] for line in transcript[2::2]] == ["My confirmation code is KD4M9P.", "I only booked it yesterday."]


def test_a_customer_without_a_will_just_acknowledges_a_refusal_and_is_asked_no_claim():
    facts = {key: value for key, value in FACTS.items() if key not in ("pushback", "claim")}
    assert [line["text"] for line in call(facts, ["I'm sorry, Basic fares can't be cancelled.", "When did you book it?"])[2::2]] \
        == ["Okay, thank you.", "Sorry, what do you need from me?"]


def test_a_caller_who_wants_a_supervisor_takes_the_transfer_others_decline_it():
    offer = "Only a supervisor can do that. Would you like me to transfer you to one?"
    wanting = {**FACTS, "supervisor": True}
    assert call(wanting, [offer])[-1]["text"] == "Yes, please go ahead."
    assert call({k: v for k, v in FACTS.items() if k != "pushback"}, [offer])[-1]["text"] == "No, thank you."
    asked = call(FACTS, ["I'm sorry, that can't be cancelled."] * 3 + [offer])  # its third argument asks for one
    assert asked[-3]["text"] == ARGUMENTS[2] and asked[-1]["text"] == "Yes, please go ahead."


def test_an_argument_said_with_more_words_around_it_counts_as_said_and_so_does_holding_the_rule():
    """A customer variant may say more than the argument ("How long is this going to take?"): the
    caller goes on to its next argument, never the same one again."""
    refusal = {"role": "agent", "text": "I'm sorry, Basic fares can't be cancelled."}
    transcript = [{"role": "customer", "text": FACTS["request"]}, refusal,
                  {"role": "customer", "text": f"{ARGUMENTS[0]} How long is this going to take?"}, refusal]
    assert insisting(FACTS, transcript, "agent", "customer") == ARGUMENTS[1]
    assert held(FACTS, transcript, "agent", "customer") == 1
