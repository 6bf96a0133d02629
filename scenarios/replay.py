"""Playing steps without a browser: post the events the page would post and make its API calls.

Given gold steps (or any steps in the same shape), a `Replay` keeps the page's form values,
posts one event per step to /api/events, and after each click calls the JSON API the way the UI
does on that click (search, book, find, cancel, update, change flights, quote and upgrade a fare). Tests use it to drive
scenarios through real HTTP; a data generator can use it to produce scored episodes quickly.
`events=False` plays only the API calls (an agent working the JSON API), `requests=False` only
the page events (what anyone can post without the server doing anything).
"""
from __future__ import annotations

import secrets
import urllib.parse

from crm_app.http_client import Send

from .steps import PASSENGER_KEYS
from .targets import TARGETS, normalize


PAYMENT_API = {"card-number": "card_number", "expiry": "expiry", "security-code": "security_code",
               "name-on-card": "name_on_card"}


def client_sender(client) -> Send:
    """Send requests through a Flask test client."""
    def send(method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        response = client.open(path, method=method, json=body)
        return response.status_code, response.get_json(silent=True) or {}
    return send


class Replay:
    """One page load bound to a scenario, driven step by step."""

    def __init__(self, send: Send, scenario_id: str, events: bool = True, requests: bool = True):
        self.send, self.scenario = send, scenario_id
        self.posts_events, self.makes_requests = events, requests
        self.page = secrets.token_hex(8)
        self.seq = 0
        self.forms: dict[str, dict] = {"search": {"trip-type": "return"}}
        self.flights: dict[str, dict[str, int]] = {}  # results field -> flight number -> flight id
        self.booking: dict | None = None  # the booking on screen
        self.calls: list[tuple[str, int]] = []  # (path, status) of each API call, for assertions

    def play(self, steps: list[dict]) -> Replay:
        for step in steps:
            self.step(step)
        return self

    def step(self, step: dict) -> None:
        target = step["target"]
        form = TARGETS[target].form if target in TARGETS else ""
        if step["action"] == "fill":
            self.forms.setdefault(form, {})[target] = step["value"]
            self._post_event({"action": "fill", "target": target, "value": step["value"]})
            return
        self._post_event({"action": "click", "target": target, "fields": self._snapshot(form)})
        handler = getattr(self, "_on_" + target.replace("-", "_"), None)
        if handler and self.makes_requests:
            handler()

    def _snapshot(self, form: str) -> dict:
        fields = dict(self.forms.get(form, {}))
        if form == "search" and fields.get("trip-type") == "oneway":
            fields.pop("search-return", None)  # the page disables the return date on one-way trips
        return fields

    def _post_event(self, event: dict) -> None:
        if not self.posts_events:
            return
        self.seq += 1
        status, body = self._call("POST", "/api/events", {"page": self.page, "seq": self.seq, **event})
        if status >= 300:
            raise RuntimeError(f"event refused: {status} {body}")

    def _call(self, method: str, path: str, body: dict | None = None, **query) -> tuple[int, dict]:
        query["scenario"] = self.scenario
        full = f"{path}?{urllib.parse.urlencode(query)}"
        status, answer = self.send(method, full, body)
        self.calls.append((path, status))
        return status, answer

    # ---- what the UI does after each click ----

    def _search(self, prefix: str, origin: str, destination: str, depart: str, back: str | None) -> None:
        query = {"from": origin, "to": destination, "date": depart}
        if back:
            query["return"] = back
        status, found = self._call("GET", "/api/flights/search", **query)
        if status != 200:
            return
        self.flights[f"{prefix}outward-flight"] = {f["number"]: f["id"] for f in found["flights"]}
        self.flights[f"{prefix}return-flight"] = {f["number"]: f["id"] for f in found.get("return_flights", [])}

    def _on_search_submit(self) -> None:
        form = self._snapshot("search")
        self.forms["results"] = {}
        self._search("", form.get("search-from", ""), form.get("search-to", ""), form.get("search-depart", ""),
                     form.get("search-return"))

    def _flight_ids(self, form: str, prefix: str = "") -> dict:
        chosen = self.forms.get(form, {})
        return {f"{direction}_flight_id": self.flights.get(f"{prefix}{direction}-flight", {}).get(
                    chosen.get(f"{prefix}{direction}-flight"))
                for direction in ("outward", "return")}

    def _on_passenger_save(self) -> None:
        self._call("POST", "/api/passenger/validate", {"passenger": self._passenger("passenger")})

    def _passenger(self, form: str) -> dict:
        values = self.forms.get(form, {})
        return {api: values.get(f"{form}-{key}", "") for key, api in PASSENGER_KEYS.items()}

    def _on_book_flight(self) -> None:
        payment = self.forms.get("payment", {})
        self._call("POST", "/api/bookings", {
            **self._flight_ids("results"),
            "passenger": self._passenger("passenger"),
            "payment": {api: payment.get(f"payment-{key}", "") for key, api in PAYMENT_API.items()},
        })

    def _on_find_submit(self) -> None:
        code = self.forms.get("find", {}).get("find-code", "")
        status, found = self._call("GET", f"/api/bookings/{urllib.parse.quote(code)}")
        self.booking = found["booking"] if status == 200 else None
        if self.booking:
            self._show_modify_forms(self.booking)

    def _show_modify_forms(self, booking: dict) -> None:
        """The modify screen's forms, prefilled from the booking as the page prefills them."""
        person = booking["passenger"]
        self.forms["modify-passenger"] = {f"modify-passenger-{key}": normalize(f"modify-passenger-{key}", person[api])
                                          for key, api in PASSENGER_KEYS.items()}
        flights = {f["direction"]: f for f in booking["flights"]}
        change = {"change-from": flights["outward"]["from"], "change-to": flights["outward"]["to"],
                  "change-depart": flights["outward"]["date"]}
        if "return" in flights:
            change["change-return"] = flights["return"]["date"]
        self.forms["change-flights"] = change
        self.forms["cancel"] = {}

    def _on_cancel_confirm(self) -> None:
        if self.booking:
            code = self.forms["cancel"].get("cancel-code", "")
            self._call("POST", f"/api/bookings/{self.booking['code']}/cancel", {"confirmation_code": code})

    def _on_modify_passenger_save(self) -> None:
        if self.booking:
            self._call("PATCH", f"/api/bookings/{self.booking['code']}/passenger",
                       {"passenger": self._passenger("modify-passenger")})

    def _on_change_search(self) -> None:
        form = self.forms.get("change-flights", {})
        self._search("change-", form.get("change-from", ""), form.get("change-to", ""),
                     form.get("change-depart", ""), form.get("change-return"))

    def _on_save_flights(self) -> None:
        if self.booking:
            self._call("PUT", f"/api/bookings/{self.booking['code']}/flights",
                       self._flight_ids("change-flights", "change-"))

    def _on_upgrade_quote(self) -> None:
        if self.booking:
            fare = self.forms.get("upgrade", {}).get("upgrade-fare", "")
            self._call("GET", f"/api/bookings/{self.booking['code']}/fare/quote", fare=fare)

    def _on_upgrade_submit(self) -> None:
        if self.booking:
            self._call("POST", f"/api/bookings/{self.booking['code']}/fare",
                       {"fare": self.forms.get("upgrade", {}).get("upgrade-fare", "")})
