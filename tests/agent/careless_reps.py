"""Scripted reps of the API environment (the Policy contract, agent/episode/policy.py) that work a
change of flight (TASK_POLICY_CHANGE) as a careless real agent would: each reads the caller's
replies and acts on what it heard, and each has one habit that the plain caller forgives and one
customer variant does not (scenarios/customer/variants/):

- OneLineRep asks for everything in one line and acts on whatever came back (the terse caller
  gives one fact only);
- FirstDateRep takes the first date it hears (the talkative caller first names a cousin's flight);
- GivesUpRep transfers the call when the caller has no confirmation code (the unprepared caller);
- RepeatingRep asks for the code and date of birth three times, to be sure (the impatient caller
  hangs up on the third).

A rep is a generator of actions (`work`) that is sent each observation; the careful steps between
the habits are shared (CarelessRep)."""
from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Generator

from agent.episode.policy import Policy
from agent.policies import register

TASK = "TASK_POLICY_CHANGE"  # the hard task they apply to: every branch (a refusal told with its rule)
SEED = 0  # a Standard fare: the change is allowed, for a fee the rep must tell
SEEDS = 10  # scenarios per variant of a run of them: every branch twice
IDENTITY = "Could you give me your confirmation code and the passenger's date of birth, please?"
NEW_DAY = "On what date would you like to fly instead, and at what time?"
CODE = re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b")
DAY = re.compile(r"\b(January|February|March|April|May|June|July|August|September|October|November|December) "
                 r"(\d{1,2}), (\d{4})\b")
CLOCK = re.compile(r"\b\d{1,2}:\d{2}[ap]m\b")
OWN_DAY = re.compile(r"(?:travel|fly|go) on ([A-Z]\w+ \d{1,2}, \d{4})")  # the caller's own day, not another's

Work = Generator[str, object, None]  # yields actions, is sent the observation each one brought


def tool(name: str, **arguments) -> str:
    return f"{name} {json.dumps(arguments)}"


def say(text: str) -> str:
    return tool("message_customer", text=text)


def reply(observation) -> str:
    """The caller's reply in a message_customer observation ("" when the call refused the line)."""
    try:
        return json.loads(observation.text).get("reply") or ""
    except ValueError:
        return ""


def answer(observation) -> dict:
    try:
        return json.loads(observation.text)
    except ValueError:
        return {}


def iso_day(text: str) -> str | None:
    found = DAY.search(text)
    return dt.datetime.strptime(found.group(0), "%B %d, %Y").date().isoformat() if found else None


class CarelessRep(Policy):
    """The steps a careful rep takes; each subclass overrides the one it is careless in."""

    environment = "api"  # agent/policies/__init__.py: where the runner plays it
    name = "careless"

    def __init__(self, **options):
        pass  # the run's options (model, ...) are not a script's concern

    def reset(self, scenario: dict) -> None:
        self.heard: list[str] = []  # what the caller said, in order
        self._work = self.work()
        self._first = True

    def act(self, observation) -> tuple[str, str]:
        try:
            action = next(self._work) if self._first else self._work.send(observation)
        except StopIteration:
            action = "STOP [done]"
        self._first = False
        return type(self).__name__, action

    def ask(self, text: str) -> Work:
        """Say `text`; what the caller replied (also kept in `heard`)."""
        heard = reply((yield say(text)))
        self.heard.append(heard)
        return heard

    def work(self) -> Work:
        code = yield from self.identify()
        if code is None:
            return
        day, clock = yield from self.new_day()
        booking = answer((yield tool("get_booking", code=code))).get("booking") or {}
        route = (booking.get("flights") or [{}])[0]
        found = answer((yield tool("search_flights", **{"from": route.get("from", ""), "to": route.get("to", ""),
                                                          "date": day or ""})))
        flight = self.choose(found.get("flights") or [], clock)
        if flight is None:
            return
        terms = answer((yield tool("quote_flight_change", code=code, outward=str(flight["id"])))).get("policy") or {}
        if terms.get("outcome") == "refused":  # the policy's rule, and nothing changed
            yield from self.ask(f"I'm sorry, this booking can't be changed. Our policy: {terms.get('rule')}.")
            return
        consent = yield from self.ask(f"The change costs ${terms.get('amount')} ({terms.get('rule')}). "
                                      "Shall I go ahead?")
        if "yes" in consent.lower():
            yield tool("change_flights", code=code, outward_flight_id=flight["id"])
            yield from self.ask(f"Done: booking {code} now flies on flight {flight['number']}.")

    def identify(self) -> Work:
        """The caller's confirmation code (None: the call goes no further)."""
        heard = yield from self.ask(IDENTITY)
        return self.code_in(heard)

    def code_in(self, heard: str) -> str | None:
        """The caller's own code: the one after "my confirmation code is", else the only one said."""
        own = re.search(r"confirmation code is (\w{6})", heard)
        return own.group(1) if own else next(iter(CODE.findall(heard)), None)

    def new_day(self) -> Work:
        heard = yield from self.ask(NEW_DAY)
        return self.day_in(heard), next(iter(CLOCK.findall(heard)[-1:]), None)

    def day_in(self, heard: str) -> str | None:
        own = OWN_DAY.search(heard)
        return iso_day(own.group(1)) if own else None

    def choose(self, flights: list[dict], clock: str | None) -> dict | None:
        """The flight at the time asked for; whatever came back first when no time was heard."""
        return next((f for f in flights if f["departure_time"] == clock), None if clock else next(iter(flights), None))


class OneLineRep(CarelessRep):
    """Asks for the code, the date of birth, the day and the time in one line, and never again."""

    name = "careless-one-line"
    EVERYTHING = ("Could you give me your confirmation code, the passenger's date of birth, and the date and time "
                  "you would like to fly instead, please?")

    def identify(self) -> Work:
        self.everything = yield from self.ask(self.EVERYTHING)
        return self.code_in(self.everything)

    def new_day(self) -> Work:
        yield from ()  # asked in the first line, never again
        return self.day_in(self.everything), next(iter(CLOCK.findall(self.everything)[-1:]), None)


class FirstDateRep(CarelessRep):
    """Takes the first date it hears in the answer to the new day."""

    name = "careless-first-date"

    def day_in(self, heard: str) -> str | None:
        return iso_day(heard)


class GivesUpRep(CarelessRep):
    """Transfers the call to a supervisor when the caller gives no confirmation code."""

    name = "careless-gives-up"

    def identify(self) -> Work:
        heard = yield from self.ask(IDENTITY)
        code = self.code_in(heard)
        if code is None:
            yield tool("transfer_to_supervisor", summary="The caller has no confirmation code: no booking to find.")
        return code


class RepeatingRep(CarelessRep):
    """Asks for the code and the date of birth three times, to be sure."""

    name = "careless-repeating"

    def identify(self) -> Work:
        answers = []
        for _ in range(3):
            answers.append((yield from self.ask(IDENTITY)))
        return self.code_in(answers[0])


REPS = (OneLineRep, FirstDateRep, GivesUpRep, RepeatingRep)


def register_reps() -> None:
    """Make the reps methods of `python -m agent run` (--method careless-one-line, ...)."""
    for rep in REPS:
        register(rep.name, rep)
