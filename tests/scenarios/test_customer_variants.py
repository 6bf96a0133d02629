"""Each customer variant's way of speaking (issue 45), on lines written for these tests: the plain
caller's decisions, said tersely, vaguely, at length, without the code at hand, or impatiently."""
import datetime as dt

from scenarios.customer.llm_customer import LLMCustomer, persona
from scenarios.customer.simulator import reply
from scenarios.customer.variants import VARIANTS, customer_variant, history

FACTS = {"confirmation_code": "KT4M8Z", "date_of_birth": dt.date(1979, 11, 3), "email": "ines.moreno@example.com",
         "first_name": "Ines", "last_name": "Moreno", "travel_date": dt.date(2026, 8, 14), "departure_time": "6:45pm",
         "request": "Hi, I'd like to push my flight back a few days.", "booked_on": dt.date(2026, 8, 2)}
BOTH = "Before we start, may I have your booking reference and your date of birth?"
TERSE, VAGUE, TALKATIVE, UNPREPARED, IMPATIENT = (customer_variant(number) for number in range(1, 6))


def call(variant, *lines: str) -> list[str]:
    """The customer's replies to the rep's `lines`, said one after another."""
    transcript, replies = [{"role": "customer", "text": FACTS["request"]}], []
    for line in lines:
        transcript.append({"role": "agent", "text": line})
        replies.append(reply(FACTS, transcript, variant))
        transcript.append({"role": "customer", "text": replies[-1]})
    return replies


def test_the_registry_is_in_number_order_and_variant_0_is_the_plain_caller():
    assert [variant.name for variant in VARIANTS] == ["plain", "terse", "vague", "talkative", "unprepared", "impatient"]
    assert call(VARIANTS[0], BOTH) == call(None, BOTH) == ["My confirmation code is KT4M8Z. My date of birth is "
                                                           "November 3, 1979."]


def test_the_terse_caller_gives_one_fact_and_the_next_when_asked_again():
    first, second = call(TERSE, BOTH, BOTH)
    assert (first, second) == ("KT4M8Z.", "November 3, 1979.")
    assert call(TERSE, "Great, thanks for holding. The new flight is $52.10 more; would you like me to proceed?") \
        == ["Yes, go ahead."]


def test_the_vague_caller_says_the_day_loosely_and_exactly_when_asked_for_it_exactly():
    loose, exact = call(VAGUE, "Which day would you like to leave, and around what time?",
                        "What is the exact date, with the month and year, and the exact departure time?")
    assert "14th" in loose and "August" not in loose and "in the evening" in loose
    assert exact == "I'd like to travel on August 14, 2026. I'd like to leave at 6:45pm."
    assert call(VAGUE, BOTH)[0].endswith("My birthday's the third of November, 1979.")


def test_the_vague_caller_confirms_a_read_back_of_the_right_day():
    assert call(VAGUE, "Which day would you like to leave?", "Just to check: Friday, August 14, 2026, correct?")[1] \
        == "Yes, that's right."


def test_the_talkative_caller_mentions_a_code_that_is_not_its_own_before_its_own():
    said = call(TALKATIVE, BOTH)[0]
    own = said.index("My confirmation code is KT4M8Z.")
    assert "my sister" in said[:own] and "that's" in said[:own]
    assert said.endswith("My date of birth is November 3, 1979.") and "My son" in said


def test_the_unprepared_caller_has_no_code_at_first_then_finds_it_when_asked_again():
    first, second = call(UNPREPARED, BOTH, "Could you have another look for that confirmation code?")
    assert "KT4M8Z" not in first and "in front of me" in first
    assert "Ines Moreno" in first and "November 3, 1979" in first and "August 2, 2026" in first
    assert second.endswith("My confirmation code is KT4M8Z.")


def test_the_impatient_caller_objects_to_a_repeat_and_hangs_up_on_the_third_ask():
    first, second, third = call(IMPATIENT, BOTH, "Sorry, what was your booking reference again?",
                                "Could you tell me your booking reference one more time?")
    assert first.startswith("My confirmation code is KT4M8Z.") and "How long" in first
    assert second.startswith("I already told you that.") and "KT4M8Z" in second
    assert IMPATIENT.ends_call(third) and not IMPATIENT.ends_call(second)


def test_every_variant_is_a_pure_function_of_the_facts_and_the_transcript():
    lines = (BOTH, "Which day would you like to leave, and around what time?", "Shall I go ahead with the change?")
    for variant in VARIANTS:
        assert call(variant, *lines) == call(variant, *lines), variant.name


def test_the_llm_customer_is_told_how_its_variant_speaks_and_the_plain_caller_nothing_more():
    plain = LLMCustomer("some-model").speaking(VARIANTS[0], None)
    terse = LLMCustomer("some-model").speaking(TERSE, None)
    assert persona(FACTS, plain.manner) == persona(FACTS)
    assert persona(FACTS, terse.manner).endswith(f"- How you speak: {TERSE.manner}\n")


OPEN_FLIGHT_QUESTIONS = {  # a question about the flight that names none: what the caller wants
    "Which flight would you like on your new date?": "I'd like to leave at 6:45pm.",
    "And which departure suits you best?": "I'd like to travel on August 14, 2026. I'd like to leave at 6:45pm.",
    "What flight should I put you on instead?": "I'd like to travel on August 14, 2026. I'd like to leave at 6:45pm.",
    "Is there a specific flight you're hoping for?":
        "I'd like to travel on August 14, 2026. I'd like to leave at 6:45pm.",
    "Do you already have a flight in mind for that day?": "I'd like to leave at 6:45pm.",
}
NAMED_OPTIONS = "Would you prefer the early departure or the late one?"  # options named, none the caller knows


def test_every_caller_answers_an_open_which_flight_question_with_the_flight_it_wants():
    for variant in VARIANTS:
        for question, wanted in OPEN_FLIGHT_QUESTIONS.items():
            said = call(variant, question)[0]  # the impatient caller adds how long this will take
            assert said.startswith(wanted) and "Either" not in said, (variant.name, question, said)
        assert call(variant, NAMED_OPTIONS)[0].startswith("Either is fine with me."), variant.name


def twenty_lines() -> list[str]:
    """A 20-line call of the rep's, each line its own (asking the code, the day, the time in turn)."""
    asks = ("your booking reference", "the day you'd like to fly", "what time you'd like to leave")
    return [f"Thanks. For step {number}, could you tell me {asks[number % 3]}?" for number in range(20)]


def test_the_callers_history_reads_each_rep_line_once_per_call(monkeypatch):
    """Before issue 53 the impatient caller read every earlier line again for each reply (253 reads
    for these 22 lines), the vague one for each loose fact of each reply; now each line once (the
    vague caller reads only when it says a day or a time loosely)."""
    read_now, texts = history.read, []
    monkeypatch.setattr(history, "read", lambda text, known: texts.append(text) or read_now(text, known))
    lines = twenty_lines()
    for variant in (IMPATIENT, VAGUE):
        history._READ.clear()
        texts.clear()
        call(variant, *lines[:2], lines[0], lines[0], *lines[2:])  # the first line again: read before
        assert len(texts) == len(set(texts)), variant.name  # none read twice
        assert variant is VAGUE or sorted(texts) == sorted(lines)  # the impatient caller reads every one
