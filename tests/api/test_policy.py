"""The airline's policy: GET /api/policy, and the terms of a change or a cancellation computed by
crm_app/services/policy.py, with exact amounts at every rule and at the 24-hour edges."""
import datetime as dt

import pytest

from crm_app.services.policy import (Disruption, cancel_terms, change_terms, delay_text, name_correction_allowed,
                                    policy_text)

NOW = dt.datetime(2026, 6, 1, 12, 0)
OLD_BOOKING = NOW - dt.timedelta(days=10)
NEXT_WEEK = NOW + dt.timedelta(days=7)


def test_the_policy_answers_as_json_with_its_numbers(client):
    answer = client.get("/api/policy")
    assert answer.status_code == 200 and answer.is_json and set(answer.json) == {"policy"}
    lines = answer.json["policy"].splitlines()
    assert "| Basic | not allowed | not allowed, no refund |" in lines
    assert "| Standard | $75.00 fee plus any fare difference | a travel credit for the amount paid |" in lines
    assert "| Flex | the fare difference only | refunded |" in lines
    assert "- No change and no cancellation within 24 hours of departure." in lines
    assert client.post("/api/policy", json={}).status_code == 405


@pytest.mark.parametrize("fare, difference, outcome, amount", [
    ("Basic", 5000, "refused", "0.00"),
    ("Standard", 5000, "allowed", "125.00"),  # $75 fee plus the $50 difference
    ("Standard", -3000, "allowed", "75.00"),  # a cheaper new fare gives nothing back
    ("Flex", 5000, "allowed", "50.00"),
    ("Flex", -3000, "allowed", "0.00"),
])
def test_a_change_costs_what_its_fare_says(fare, difference, outcome, amount):
    terms = change_terms(fare, OLD_BOOKING, NEXT_WEEK, NOW, difference).answer()
    assert (terms["outcome"], terms["amount"]) == (outcome, amount)


@pytest.mark.parametrize("fare, outcome, amount", [
    ("Basic", "refused", "0.00"), ("Standard", "credit", "412.30"), ("Flex", "refund", "412.30")])
def test_a_cancellation_gives_back_what_its_fare_says(fare, outcome, amount):
    terms = cancel_terms(fare, 41230, OLD_BOOKING, NEXT_WEEK, NOW).answer()
    assert (terms["outcome"], terms["amount"]) == (outcome, amount)


def test_a_booking_of_the_last_24_hours_is_refunded_in_full_and_changed_without_a_fee():
    just_booked = NOW - dt.timedelta(hours=23, minutes=59)
    assert cancel_terms("Basic", 41230, just_booked, NEXT_WEEK, NOW).answer()["outcome"] == "refund"
    assert change_terms("Basic", just_booked, NEXT_WEEK, NOW, 5000).answer()["amount"] == "50.00"
    a_day_ago = NOW - dt.timedelta(hours=24)
    assert cancel_terms("Basic", 41230, a_day_ago, NEXT_WEEK, NOW).outcome == "refused"


def test_nothing_changes_within_24_hours_of_departure_whatever_the_fare():
    close = NOW + dt.timedelta(hours=23, minutes=59)
    for fare in ("Basic", "Standard", "Flex"):
        assert change_terms(fare, OLD_BOOKING, close, NOW, 0).outcome == "refused"
        assert cancel_terms(fare, 41230, NOW - dt.timedelta(hours=1), close, NOW).outcome == "refused"
    a_day_ahead = NOW + dt.timedelta(hours=24)
    assert change_terms("Flex", OLD_BOOKING, a_day_ahead, NOW, 0).outcome == "allowed"


@pytest.mark.parametrize("old, new, allowed", [
    ("Jon", "John", True), ("Smith", "Smyth", True), ("Katherine", "Kathryn", False), ("Smith", "smith", False),
    ("Smith", "Jones", False), ("Li", "Lee", True), ("Ann", "Anne-Marie", False)])
def test_a_name_may_be_corrected_by_two_characters_never_replaced(old, new, allowed):
    assert name_correction_allowed(old, new) is allowed


def test_an_unknown_fare_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown fare 'Premium'; the fares: Basic, Standard, Flex"):
        change_terms("Premium", OLD_BOOKING, NEXT_WEEK, NOW, 0)


SCHEDULED = NOW + dt.timedelta(hours=5)  # a flight inside the 24-hour freeze
CANCELLED = Disruption(True, 0, SCHEDULED)


@pytest.mark.parametrize("fare", ["Basic", "Standard", "Flex"])
def test_a_flight_the_airline_cancelled_moves_free_within_7_days_or_is_refunded_in_full_whatever_the_fare(fare):
    for new in (SCHEDULED, SCHEDULED + dt.timedelta(days=7)):
        terms = change_terms(fare, OLD_BOOKING, SCHEDULED, NOW, 9000, CANCELLED, new).answer()
        assert terms == {"outcome": "allowed", "amount": "0.00",
                         "rule": "the airline cancelled the flight: a free change to a flight of the same route "
                                 "within 7 days"}
    assert cancel_terms(fare, 41230, OLD_BOOKING, SCHEDULED, NOW, CANCELLED).answer() == \
        {"outcome": "refund", "amount": "412.30", "rule": "the airline cancelled the flight: refunded in full"}


def test_a_move_past_the_7_days_is_on_the_fares_usual_terms():
    late = SCHEDULED + dt.timedelta(days=7, minutes=1)
    far = NOW + dt.timedelta(days=3)
    disrupted = Disruption(True, 0, far)
    assert change_terms("Standard", OLD_BOOKING, far, NOW, 5000, disrupted, far + dt.timedelta(days=8)).answer() == \
        {"outcome": "allowed", "amount": "125.00", "rule": "Standard: $75.00 fee plus any fare difference"}
    assert change_terms("Basic", OLD_BOOKING, SCHEDULED, NOW, 0, CANCELLED, late).outcome == "refused"


def test_a_delay_of_3_hours_frees_the_booking_and_a_shorter_one_changes_nothing():
    long_delay, short_delay = Disruption(False, 180, SCHEDULED), Disruption(False, 179, SCHEDULED)
    assert cancel_terms("Basic", 41230, OLD_BOOKING, SCHEDULED, NOW, long_delay).answer() == \
        {"outcome": "refund", "amount": "412.30", "rule": "the airline delayed the flight 3 h: refunded in full"}
    assert cancel_terms("Basic", 41230, OLD_BOOKING, SCHEDULED, NOW, short_delay).answer()["outcome"] == "refused"
    assert change_terms("Standard", OLD_BOOKING, NEXT_WEEK, NOW, 5000, Disruption(False, 179, NEXT_WEEK),
                        NEXT_WEEK + dt.timedelta(days=1)).answer()["amount"] == "125.00"
    assert [delay_text(m) for m in (220, 180, 50)] == ["3 h 40 min", "3 h", "50 min"]


def test_the_policy_text_says_the_disruption_rule():
    text = policy_text()
    assert ("- When the airline cancels a flight, or delays it 3 hours or more, the passenger may move to any "
            "flight of the same route departing within 7 days after the disrupted flight's scheduled departure, "
            "with no fee and no fare difference, or cancel with a full refund, whatever the fare and even within "
            "24 hours of departure.") in text
