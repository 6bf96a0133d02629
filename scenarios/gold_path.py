"""A scenario's gold path played over the JSON API: its gold calls as requests, and on a call with a
customer its gold lines (those that only ask first, then the calls, then the rest, as an agent
that verifies the caller before acting would; a line naming the new booking's code says the code
the booking got). Gold calls name flights by number and date; each such flight is found by id in
the answers of the searches before it.

    answers = GoldPath(http_sender(server_url), scenario).play()   # [(operation, "say" or "transfer", status), ...]

`send` is any crm_app.http_client.Send (a server over HTTP, or replay.client_sender's Flask test client).
"""
from __future__ import annotations

import urllib.parse

from crm_app.http_client import Send

from .calls import OPERATIONS, PATH_KINDS, WRITES
from .steps import CALL_STEPS
from .tasks.hard.caller import NEW_CODE

REQUESTS = {operation: (method, rule) for (method, rule), operation in OPERATIONS.items()}
FLIGHT_FIELDS = {"outward_flight": "outward_flight_id", "return_flight": "return_flight_id"}  # in a body


class GoldPath:
    def __init__(self, send: Send, scenario: dict):
        self.scenario, self.send = scenario, send
        self.flights: dict[tuple[str, str], int] = {}  # (number, date) -> id, from the searches so far
        self.new_code = ""  # the code of the booking the calls made

    def play(self) -> list[tuple[str, int]]:
        steps = [step for step in self.scenario.get("gold_actions") or [] if step["action"] in CALL_STEPS]
        calls = self.scenario.get("gold_calls") or []
        if any("request" in step for step in steps):
            return [answer for number in sorted({step["request"] for step in steps})
                    for answer in self._request([s for s in steps if s["request"] == number],
                                                [c for c in calls if c.get("request") == number])]
        asking = [step for step in steps if step.get("asks") and not step.get("tells")]
        answers = [self.say(step["text"]) for step in asking]
        answers += [self.call(call) for call in calls]
        return answers + [self.spoken(step) for step in steps if step not in asking]

    def _request(self, steps: list[dict], calls: list[dict]) -> list[tuple[str, int]]:
        """One request of a call of several (the expert suite), in turn: the lines that only ask, the
        lookups, the lines asking agreement (a quote is told before the write it agrees to), the
        writes, then the rest."""
        asking = [step for step in steps if step.get("asks") and not step.get("tells")]
        agreeing = [step for step in steps if "consent" in step.get("asks", ()) and step not in asking]
        reads = [call for call in calls if call["operation"] not in WRITES]
        return [*(self.say(step["text"]) for step in asking), *(self.call(call) for call in reads),
                *(self.say(step["text"]) for step in agreeing),
                *(self.call(call) for call in calls if call not in reads),
                *(self.spoken(step) for step in steps if step not in asking and step not in agreeing)]

    def spoken(self, step: dict) -> tuple[str, int]:
        return self.transfer(step["text"]) if step["action"] == "transfer" else self.say(step["text"])

    def transfer(self, summary: str) -> tuple[str, int]:
        status, _ = self.send("POST", self._in_scenario("/api/customer/transfer"), {"summary": summary})
        return "transfer", status

    def say(self, text: str) -> tuple[str, int]:
        text = text.replace(NEW_CODE, self.new_code) if self.new_code else text
        status, _ = self.send("POST", self._in_scenario("/api/customer/messages"), {"text": text})
        return "say", status

    def call(self, gold: dict) -> tuple[str, int]:
        operation = gold["operation"]
        method, rule = REQUESTS[operation]
        params = {key: value for key, value in gold["params"].items() if value is not None}
        path = rule
        for name in PATH_KINDS:  # a booking's code, an article's id
            path = path.replace(f"<{name}>", urllib.parse.quote(str(params.pop(name, ""))))
        if method == "GET":
            status, answer = self.send("GET", self._in_scenario(path, {k: self._flight_id(v) for k, v in params.items()}),
                                       None)
        else:
            body = {FLIGHT_FIELDS.get(key, key): self._flight_id(value) for key, value in params.items()}
            status, answer = self.send(method, self._in_scenario(path), body)
        if operation == "search_flights" and status == 200:
            self._remember(answer)
        if operation == "create_booking" and status == 201:
            self.new_code = answer["booking"]["code"]
        return operation, status

    def _in_scenario(self, path: str, query: dict | None = None) -> str:
        return f"{path}?{urllib.parse.urlencode({**(query or {}), 'scenario': self.scenario['id']})}"

    def _remember(self, found: dict) -> None:
        for flight in [*found.get("flights", []), *found.get("return_flights", [])]:
            self.flights[(flight["number"], flight["date"])] = flight["id"]

    def _flight_id(self, value):
        """A flight named by number and date as its id (the value itself when it is no flight)."""
        if isinstance(value, dict) and set(value) == {"number", "date"}:
            return self.flights.get((value["number"], value["date"]), 0)
        return value
