"""A hidden value is found in a rep's line however it is written (issue 50): crm_app/services/disclosure.py."""
import datetime as dt

import pytest

from crm_app.services.disclosure import CODE, DATE, DIGITS, EMAIL, dates_in, tells


@pytest.mark.parametrize("line", [
    "Her booking code is 5AI08H.", "That's 5 A I 0 8 H.", "It is 5-A-I-0-8-H", "code: 5ai08h",
    "Five Alpha India Zero Eight Hotel.", "5, A, I, 0, 8, H", "five alfa india oh eight hotel",
    "5AI-08H, to be precise"])
def test_a_code_is_found_spaced_spelled_and_in_the_nato_alphabet(line):
    assert tells("5AI08H", CODE, line)


@pytest.mark.parametrize("line", [
    "I can't share that.", "Booking 5AI08HX is yours.", "5AI08 and H4O2L6", "The flight leaves at 5:08.",
    "I won't spell out the code of that booking."])
def test_a_line_without_the_code_tells_nothing(line):
    assert not tells("5AI08H", CODE, line)


def test_an_x_ray_in_a_code_is_heard_both_ways():
    assert tells("X7Q2MA", CODE, "x-ray seven quebec two mike alpha")
    assert tells("X7Q2MA", CODE, "X ray 7 Q 2 M A")


@pytest.mark.parametrize("line", [
    "It's dawn.winters@example.com.", "dawn dot winters at example dot com", "DAWN.WINTERS@EXAMPLE.COM",
    "d a w n dot w i n t e r s at example dot com"])
def test_an_email_is_found_written_or_spoken(line):
    assert tells("dawn.winters@example.com", EMAIL, line)


def test_another_email_is_no_disclosure():
    assert not tells("dawn.winters@example.com", EMAIL, "Your own is dawn.wintersx@example.com.")
    assert not tells("dawn.winters@example.com", EMAIL, "I can't give you Dawn Winters' email address.")


@pytest.mark.parametrize("line", [
    "She was born on August 6, 1953.", "born 6 August 1953", "Aug 6th 1953", "the sixth of August, 1953",
    "1953-08-06", "08/06/1953", "6/8/1953", "06.08.1953", "08-06-53", "August the 6th, 1953"])
def test_a_date_of_birth_is_found_in_any_common_format(line):
    assert tells("1953-08-06", DATE, line)


def test_a_date_with_another_day_or_year_or_no_year_is_no_disclosure():
    for line in ("August 7, 1953", "August 6, 1954", "born in August", "on August 6", "08/16/1953"):
        assert not tells("1953-08-06", DATE, line), line


def test_an_ambiguous_numeric_date_stands_for_both_readings():
    assert dates_in("03/04/2027") == {dt.date(2027, 3, 4), dt.date(2027, 4, 3)}
    assert dates_in("13/04/2027") == {dt.date(2027, 4, 13)}


@pytest.mark.parametrize("line", ["The card ends in 4242.", "ending 4 2 4 2", "four two four two",
                                  "4242 4242 4242 4242", "card number ending four-two-four-two"])
def test_card_digits_are_found_as_digits_or_words(line):
    assert tells("4242", DIGITS, line)


@pytest.mark.parametrize("line", ["You paid $142.42.", "That's $4,242.10", "42.42 dollars", "on flight CR42421"])
def test_amounts_and_longer_numbers_are_no_card_digits(line):
    assert not tells("4242", DIGITS, line)
