"""The simulated customer of the `hard` suite understands the ways a rep really asks: more than 100
agent lines (synonyms, several facts in one question, read-backs right and wrong, questions it has no
answer to, small talk), each with what the customer must answer and nothing more. Every failure of
an episode must be the agent's, never the customer's."""
import datetime as dt

import pytest

from scenarios.customer.simulator import reply

FACTS = {"confirmation_code": "QX7R2A", "date_of_birth": dt.date(1980, 4, 5), "email": "ada.lovelace@example.com",
         "first_name": "Ada", "last_name": "Lovelace", "travel_date": dt.date(2026, 7, 14),
         "departure_time": "5:05pm", "card_number": "4111111111111111", "card_expiry": "04/29",
         "request": "I need to change my flight to a later date."}
SAID = {"confirmation_code": "QX7R2A", "date_of_birth": "April 5, 1980", "email": "ada.lovelace@example.com",
        "first_name": "Ada", "last_name": "Lovelace", "full_name": "Ada Lovelace", "travel_date": "July 14, 2026",
        "departure_time": "5:05pm", "card_number": "4111111111111111", "card_expiry": "04/29",
        "request": "change my flight to a later date"}
CONFIRMED, CLOSING, ACK, REPAIR, NO_PREFERENCE = "confirmed", "closing", "ack", "repair", "no preference"

ASKED = [  # (the rep's line, the facts the customer gives, in order)
    ("What's your confirmation code?", ["confirmation_code"]),
    ("Can I have your booking reference, please?", ["confirmation_code"]),
    ("Could you read me the record locator?", ["confirmation_code"]),
    ("What is the PNR on the reservation?", ["confirmation_code"]),
    ("Please give me your reservation number.", ["confirmation_code"]),
    ("May I have the six-character code from your confirmation email?", ["confirmation_code"]),
    ("I'll need the booking code to pull that up.", ["confirmation_code"]),
    ("Do you have your confirmation number handy?", ["confirmation_code"]),
    ("What's the booking ref?", ["confirmation_code"]),
    ("Can you tell me your code?", ["confirmation_code"]),
    ("What is your date of birth?", ["date_of_birth"]),
    ("Could you confirm your DOB for me?", ["date_of_birth"]),
    ("And your birthday, please?", ["date_of_birth"]),
    ("When were you born?", ["date_of_birth"]),
    ("For security, please provide the passenger's birth date.", ["date_of_birth"]),
    ("What's your birthdate?", ["date_of_birth"]),
    ("What email address is on the booking?", ["email"]),
    ("Can I get the e-mail you booked with?", ["email"]),
    ("Please tell me your email.", ["email"]),
    ("Which mail address should the receipt go to?", ["email"]),
    ("What is your first name?", ["first_name"]),
    ("Could I have your given name?", ["first_name"]),
    ("And the passenger's surname?", ["last_name"]),
    ("What's your last name?", ["last_name"]),
    ("Can you spell your family name for me?", ["last_name"]),
    ("May I have your full name?", ["full_name"]),
    ("Who am I speaking with?", ["full_name"]),
    ("What's the name on the reservation?", ["full_name"]),
    ("Who is travelling?", ["full_name"]),
    ("Can I have the first and last name on the booking?", ["full_name"]),
    ("What is the passenger's name?", ["full_name"]),
    ("Which date would you like to fly instead?", ["travel_date"]),
    ("What new date works for you?", ["travel_date"]),
    ("When would you like to travel?", ["travel_date"]),
    ("When do you want to leave?", ["travel_date"]),
    ("What day should I move it to?", ["travel_date"]),
    ("What time would you like to depart?", ["departure_time"]),
    ("Do you prefer morning or afternoon? What time works?", ["departure_time"]),
    ("Is there a preferred time?", ["departure_time"]),
    ("What's your card number?", ["card_number"]),
    ("Which credit card would you like to pay with?", ["card_number"]),
    ("Please read me the long number on the card.", ["card_number"]),
    ("Can you give me your payment details?", ["card_number"]),
    ("What's the expiration date on the card?", ["card_expiry"]),
    ("When does it expire?", ["card_expiry"]),
    ("How can I help you today?", ["request"]),
    ("Thanks for calling AirlineCRM, how may I assist you?", ["request"]),
    ("What can I do for you?", ["request"]),
    ("What's the reason for your call?", ["request"]),
    ("Why are you calling today?", ["request"]),
    ("Can I have your confirmation code and date of birth?", ["confirmation_code", "date_of_birth"]),
    ("Please give me your date of birth and your booking reference.", ["date_of_birth", "confirmation_code"]),
    ("To verify, I need the record locator and the email on file.", ["confirmation_code", "email"]),
    ("May I have your full name and email address?", ["full_name", "email"]),
    ("What's your first name, last name and date of birth?", ["first_name", "last_name", "date_of_birth"]),
    ("Could you give me the card number and the expiry date?", ["card_number", "card_expiry"]),
    ("Which date and what time would you like?", ["travel_date", "departure_time"]),
    ("What is your surname and your PNR?", ["last_name", "confirmation_code"]),
    ("I need your DOB, email and confirmation number, please.", ["date_of_birth", "email", "confirmation_code"]),
    ("Who am I speaking with, and what is the booking code?", ["full_name", "confirmation_code"]),
    ("how can i help? also, whats your confirmation code", ["request", "confirmation_code"]),
    ("CAN I HAVE YOUR EMAIL PLEASE", ["email"]),
    ("what's ur date of birth?", ["date_of_birth"]),
    ("Before I can change anything, could you verify your birthday and the booking reference?",
     ["date_of_birth", "confirmation_code"]),
    ("Great. Now, when do you wish to fly, and which time of day suits you?", ["travel_date", "departure_time"]),
    ("Sure! First, may I have the name of the passenger?", ["full_name"]),
]

READ_BACK = [  # (the rep's line, "confirmed" or the facts the customer corrects)
    ("So your code is QX7R2A, correct?", CONFIRMED),
    ("Just to confirm, that's QX7R2A?", CONFIRMED),
    ("Let me read that back: Q X 7 R 2 A... I have QX7R2A, is that right?", CONFIRMED),
    ("So your code is QX7R2B, correct?", ["confirmation_code"]),
    ("I have your booking as QZ7R2A, is that right?", ["confirmation_code"]),
    ("Your date of birth is April 5, 1980, correct?", CONFIRMED),
    ("Just to double-check, you were born on 04/05/1980?", CONFIRMED),
    ("So your birthday is 1980-04-05, right?", CONFIRMED),
    ("And you were born on the 5th of April 1980, is that correct?", CONFIRMED),
    ("Your date of birth is May 4, 1980, correct?", ["date_of_birth"]),
    ("So the DOB is 04/15/1980, right?", ["date_of_birth"]),
    ("Your email is ada.lovelace@example.com, correct?", CONFIRMED),
    ("I have Ada.Lovelace@Example.com on file, is that right?", CONFIRMED),
    ("Your email is ada.lovelace@example.org, correct?", ["email"]),
    ("So that's code QX7R2A and date of birth April 5, 1980, correct?", CONFIRMED),
    ("So that's code QX7R2A and date of birth April 6, 1980, correct?", ["date_of_birth"]),
    ("Confirming: booking QX7R2B, email ada.lovelace@example.com, is that right?", ["confirmation_code"]),
    ("Just to confirm: QX7R2X and born 1981-04-05?", ["confirmation_code", "date_of_birth"]),
    ("You'd like to fly on July 14, 2026, correct?", CONFIRMED),
    ("So the new date is 07/15/2026, right?", ["travel_date"]),
    ("Your card number is 4111 1111 1111 1111, correct?", CONFIRMED),
    ("I have the card as 4111-1111-1111-1112, is that right?", ["card_number"]),
    ("And it expires 04/29, correct?", CONFIRMED),
    ("And the expiry is 05/29, right?", ["card_expiry"]),
    ("So you'd like to leave at 5:05pm, correct?", CONFIRMED),
    ("Just to confirm, the departure time is 5:50pm?", ["departure_time"]),
    ("Your code is QX7R2A, correct? And what's your email?", [CONFIRMED, "email"]),
    ("Is your date of birth April 5, 1980? And can I have the booking reference?", [CONFIRMED, "confirmation_code"]),
    ("Did I get that right: QX7R2A?", CONFIRMED),
    ("So that is QX7R2A and April 6, 1980, correct?", ["date_of_birth"]),  # a bare date: the nearest fact
    ("Is that July 15, 2026?", ["travel_date"]),
    ("Just to confirm: July 14, 2026 and April 5, 1980?", CONFIRMED),
    ("so ur code is qx7r2a right", CONFIRMED),  # a code is spoken: its case does not matter
]

CHOICES = [  # (the rep's line offering options, the customer's pick: from the time it wants, else any)
    ("Which flight do you want, the 7:05am or the 5:05pm?", "The 5:05pm one, please."),
    ("Which flight do you want, the 7:05am or the 9:40am?", "None of those, I'm afraid. I'd like to leave at 5:05pm."),
    ("I have CR1011 at 7:05am and CR8334 at 5:05pm. Which works best?", "I'll take CR8334, the one leaving at 5:05pm."),
    ("Which one would you like?", "Either is fine with me."),
    ("Would you prefer the first or the second?", "Either is fine with me."),
    ("Do you prefer one of these two?", "Either is fine with me."),
]

CANCELLING = {**FACTS, "request": "Hello, I need to cancel my flight, please."}

ACTION_PICKS = [  # (the customer's facts, a pick between actions asked as a yes/no question, its pick: never agreement)
    (FACTS, "Do you want me to bill the $95 to the card ending 1111, or would you rather I check other flights first?",
     "Please bill the $95 to the card ending 1111."),
    (FACTS, "Should I leave your booking as it is or move it to July 14?", "Please move it to July 14."),
    (FACTS, "Would you like me to hold your current seat, or shall I rebook you on the 5:05pm?",
     "Please rebook me on the 5:05pm."),
    (FACTS, "Shall I add a checked bag or seat selection to the new flight?", "Neither, thank you."),
    (CANCELLING, "Should I keep the reservation active or cancel it for you?", "Please cancel it for me."),
    (CANCELLING, "Would you like me to cancel the whole trip, or would you rather I change the date?",
     "Please cancel the whole trip."),
    (CANCELLING, "Do you want me to refund the fare to your card — or keep the booking and move it?",
     "Please refund the fare to my card."),
    (CANCELLING, "Shall I keep the booking or move it to a later day?",
     "Neither, thank you. I need to cancel my flight, please."),
]

OFFERS_IN_PASSING = [  # (facts asked with an offer in the same line and a promise to confirm later, the answer)
    ("Before I rebook you I need your booking reference and date of birth, and would you like travel insurance on "
     "the new flight for $19? I will confirm the final price afterwards.",
     "My confirmation code is QX7R2A. My date of birth is April 5, 1980. No, thank you."),
    ("Please tell me the email on the reservation plus your last name; also, would you be interested in a seat "
     "upgrade for $45? Once that's done I'll read the new itinerary back to you.",
     "My email is ada.lovelace@example.com. My last name is Lovelace. No, thank you."),
    ("I'll need your confirmation code and date of birth — and do you want me to sign you up for fare alerts? "
     "I'll go over the new flight with you once I've checked them.",
     "My confirmation code is QX7R2A. My date of birth is April 5, 1980. No, thank you."),
    ("I'll need your full name and the PNR, and should I add priority boarding or a lounge pass? I'll confirm it "
     "all at the end.", "It's Ada Lovelace. My confirmation code is QX7R2A. Neither, thank you."),
]

GOING_AHEAD_AND_ASKING = [  # (agreement to go ahead asked with a fact or a way to object in one sentence, the answer)
    ("Please confirm you'd like to proceed with the new flight, and let me know which card you'd like to use for the $95.",
     "My card number is 4111111111111111. Yes, please go ahead."),
    ("Shall I go ahead with the change, and what card number should I charge the $95 to?",
     "My card number is 4111111111111111. Yes, please go ahead."),
    ('Before I finalize it, please reply "yes" to confirm the new flight, or let me know if anything should be changed.',
     "Yes, please go ahead."),
    ("Type yes to confirm the new July 14 flight or tell me if you need any adjustments.", "Yes, please go ahead."),
]

TIMES_IN_ONE_SENTENCE = [  # (flights offered within one sentence, the pick of callers leaving at 5:05pm, 6:50am, 11:30pm)
    "I can offer a 6:50am departure and another at 5:05pm; which would you prefer?",
    "There's one at 6:50am that lands at 9:35am, while the other leaves at 5:05pm and gets in at 7:40pm. Which one?",
    "We have flights leaving at 6:50am, at 12:15pm and at 5:05pm on July 14 - which works?",
]

OTHER = [  # (the rep's line, what the customer answers)
    ("What is your frequent flyer number?", "I'm sorry, I don't have a frequent flyer number."),
    ("Could you tell me your passport number?", "I'm sorry, I don't have a passport number."),
    ("What's your seat preference?", NO_PREFERENCE),
    ("Can you give me your loyalty account PIN?", "I'm sorry, I don't have a frequent flyer number or a password or PIN."),
    ("What was the weather like in Boston?", REPAIR),
    ("Is there anything else I can help you with?", CLOSING),
    ("Anything else today?", CLOSING),
    ("Can I help you with something else?", CLOSING),
    ("Your booking has been cancelled.", ACK),
    ("I've changed your flight. The fee is $75.00.", ACK),
    ("Thank you for waiting.", ACK),
    ("One moment while I look that up.", ACK),
    ("Your new confirmation code is ZZ9PLZ.", ACK),
    ("I've sent the receipt to your email.", ACK),
    ("Unfortunately Basic fares cannot be changed under our policy.", ACK),
    ("A travel credit of $412.30 has been issued.", ACK),
    ("Okay.", ACK),
    ("", ACK),
]


def answer(line: str, facts: dict = FACTS) -> str:
    return reply(facts, [{"role": "customer", "text": "Hello."}, {"role": "agent", "text": line}])


def leaked(text: str, allowed: list[str]) -> list[str]:
    """Facts whose value the answer gives without being asked for them."""
    inside = set(allowed) | {part for name in allowed if name == "full_name" for part in ("first_name", "last_name")}
    return [name for name, value in SAID.items() if name not in inside and value.lower() in text.lower()
            and not any(value.lower() in SAID[other].lower() for other in inside)]


def test_there_are_more_than_100_lines():
    assert len(ASKED) + len(READ_BACK) + len(CHOICES) + len(OTHER) > 100


@pytest.mark.parametrize("line, kinds", ASKED)
def test_it_gives_what_it_is_asked_in_the_order_asked_and_nothing_else(line, kinds):
    text = answer(line)
    places = [text.lower().find(SAID[name].lower()) for name in kinds]
    assert -1 not in places and places == sorted(places), text
    assert leaked(text, kinds) == [], text


@pytest.mark.parametrize("line, expected", READ_BACK)
def test_it_confirms_a_right_read_back_and_corrects_a_wrong_one(line, expected):
    text = answer(line)
    expected = expected if isinstance(expected, list) else [expected]
    given = [name for name in expected if name != CONFIRMED]
    if CONFIRMED in expected:
        assert text.startswith("Yes, that's right."), text
    else:
        assert text.startswith("No, that's not right."), text
    assert all(SAID[name] in text for name in given) and leaked(text, given) == [], text


@pytest.mark.parametrize("line, expected", CHOICES)
def test_it_picks_among_options_from_what_it_wants(line, expected):
    assert answer(line) == expected


@pytest.mark.parametrize("facts, line, expected", ACTION_PICKS)
def test_a_pick_between_actions_asked_as_a_yes_no_question_gets_a_pick_not_agreement(facts, line, expected):
    assert answer(line, facts) == expected


@pytest.mark.parametrize("line, expected", OFFERS_IN_PASSING)
def test_facts_asked_beside_an_offer_are_given_and_the_offer_declined(line, expected):
    assert answer(line) == expected


@pytest.mark.parametrize("line, expected", GOING_AHEAD_AND_ASKING)
def test_agreement_to_go_ahead_asked_beside_a_fact_or_a_way_to_object_is_given(line, expected):
    assert answer(line) == expected


@pytest.mark.parametrize("line", TIMES_IN_ONE_SENTENCE)
@pytest.mark.parametrize("leaving, expected", [("5:05pm", "The 5:05pm one, please."), ("6:50am", "The 6:50am one, please."),
                                               ("11:30pm", "None of those, I'm afraid. I'd like to leave at 11:30pm.")])
def test_flights_offered_within_one_sentence_are_told_apart_by_their_departure(line, leaving, expected):
    assert answer(line, {**FACTS, "departure_time": leaving}) == expected


@pytest.mark.parametrize("line, expected", OTHER)
def test_it_says_what_it_does_not_have_closes_acknowledges_or_asks_again(line, expected):
    text = answer(line)
    assert text == {CLOSING: "No, that's everything. Thank you.", ACK: "Okay, thank you.",
                    REPAIR: "Sorry, what do you need from me?",
                    NO_PREFERENCE: "No preference, thank you."}.get(expected, expected)


def test_a_fact_it_does_not_have_is_one_it_says_it_does_not_have():
    facts = {**FACTS, "email": None}
    assert answer("What's your email?", facts) == "I'm sorry, I don't have my email."
    assert answer("Can I have your code and your email?", facts) == \
        "My confirmation code is QX7R2A. I'm sorry, I don't have my email."


def test_the_same_transcript_gets_the_same_answer():
    lines = [line for line, _ in ASKED + READ_BACK + CHOICES + OTHER]
    assert [answer(line) for line in lines] == [answer(line) for line in lines]


@pytest.mark.parametrize("read_back", ["So that's July 12th?", "Saturday, July 12?", "July 12, 2026, leaving at 5:05pm, correct?",
                                       "Shall I move you to the 12th of July?"])
def test_a_caller_who_said_the_wrong_day_corrects_it_when_it_is_read_back_with_or_without_its_year(read_back):
    facts = {**FACTS, "travel_date": dt.date(2026, 7, 12), "corrections": {"travel_date": dt.date(2026, 7, 14)}}
    call = [{"role": "agent", "text": "Which date would you like to fly instead?"}]
    call.append({"role": "customer", "text": reply(facts, call)})
    assert call[-1]["text"] == "I'd like to travel on July 12, 2026."
    call.append({"role": "agent", "text": read_back})
    assert reply(facts, call) == "Sorry, I got that wrong. I'd like to travel on July 14, 2026."
    call += [{"role": "customer", "text": reply(facts, call)}, {"role": "agent", "text": "So that's July 14th?"}]
    assert reply(facts, call) == "Yes, that's right."


REQUEST = "I need to change my flight to a later date."
GO_AHEAD = "Yes, please go ahead."
# Issue 53, on the team's own phrasings of the kinds of line the real agents' lines missed on.
LOOSE_ENDS = [
    # a condition on going ahead beside an open question leaves the next step to the caller: its request
    ("I could move you to the evening departure instead, if you'd like to proceed with that. Otherwise, just "
     "tell me how you'd like to proceed.", REQUEST),
    ("If you wish to proceed with a refund instead, or have another question, let me know how you would like to "
     "proceed.", REQUEST),
    # ... but a condition that asks for something in its sentence asks agreement (to the caller's own change)
    ("If you'd like to proceed with the change, please give me the card number to charge. Let me know how you'd "
     "like to proceed.", f"My card number is 4111111111111111. {REQUEST} {GO_AHEAD}"),
    # typeset apostrophes read as plain ones
    ("Could you confirm if you’d like me to go ahead with the date change?", GO_AHEAD),
    # "or need further help" closes the question, it offers no alternative
    ("Let me know if you'd like me to go ahead with the change or need any further help.", GO_AHEAD),
    # a yes/no question, and after it "if there are any changes you'd like": both answered
    ("Please confirm whether you'd like to keep the seat upgrade, and if there are any other changes to the trip "
     "you would like to make.", f"{REQUEST} No, thank you."),
    # something it lacks asked with something it has: both said
    ("To look this up I'll need your user ID along with the booking code, please.",
     "My confirmation code is QX7R2A. I'm sorry, I don't have a user ID."),
    ("Could you share the customer number on your profile and your reservation number?",
     "My confirmation code is QX7R2A. I'm sorry, I don't have a user ID."),
    # a long line that ends by proposing to go ahead with what the caller wants
    ("I've checked everything: the new flight leaves at 5:05pm on July 14, the change fee is $75.00, your seat "
     "stays the same and the receipt goes to your email. I'm glad to go ahead with the change now, shall I?", GO_AHEAD),
]


@pytest.mark.parametrize("line, expected", LOOSE_ENDS)
def test_conditions_open_steps_and_what_it_lacks_beside_what_it_has_are_heard(line, expected):
    assert answer(line) == expected
