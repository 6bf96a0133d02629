"""Models as the JSON shapes of docs/ui-contract.md."""
from __future__ import annotations

import datetime as dt

from ..models import Airport, Booking, Flight, Passenger
from ..services.bookings import BookingDisruption, booking_lines, cancellation_terms, change_terms_of
from ..services.disruptions import ON_TIME_STATUS, FlightStatus
from ..services.fares import FARES, fare_price_cents
from ..services.policy import Waiver
from ..services.pricing import money, signed_money, total_cents
from ..services.schedule import clock_time
from ..services.validation import PASSENGER_FIELDS


def airport_json(airport: Airport) -> dict:
    return {"code": airport.code, "name": airport.name, "city": airport.city,
            "region": airport.region, "label": airport.label}


def flight_json(flight: Flight) -> dict:
    hours, minutes = divmod(flight.duration_minutes, 60)
    return {
        "id": flight.id,
        "number": flight.number,
        "from": flight.origin,
        "to": flight.destination,
        "date": flight.departure_date.isoformat(),
        "departure_time": clock_time(flight.departure_minute),
        "arrival_time": clock_time(flight.arrival_minute),
        "arrival_date": flight.arrival_date.isoformat(),
        "duration": f"{hours}h {minutes:02d}m",
        "price": money(flight.price_cents),
        "price_cents": flight.price_cents,
    }


def fares_json(flight: Flight) -> dict:
    """The flight's price in each fare family (the hard suite's CRM)."""
    return {"fares": {fare: money(fare_price_cents(flight.price_cents, fare)) for fare in FARES}}


def flight_status_json(flight_id: int, found: dict[int, FlightStatus]) -> dict:
    """A flight's `status` and `delay_minutes` among the disrupted flights `found` (the hard suite's CRM)."""
    return found.get(flight_id, ON_TIME_STATUS).answer()


def booking_policy_json(booking: Booking, now: dt.datetime, disruption: BookingDisruption | None = None,
                        waiver: Waiver | None = None) -> dict:
    """The booking's fare family, when it was made and what was paid, and what the policy says of
    cancelling it now and of changing it (the fee, before any fare difference; for a booking the
    airline disrupted, a move within the rebooking window), and that `disruption` (its flight's
    direction and status, or None), and the weather `waiver` bulletin covering it where one does
    (the expert suite's; an answer without one has no `waiver`): the hard suite's CRM."""
    return {"fare": booking.fare, "booked_at": booking.made_at.isoformat(timespec="minutes"),
            "paid": money(booking.payment.amount_cents),
            "cancellation": cancellation_terms(booking, now, disruption).answer(),
            "change": change_terms_of(booking, now, disruption=disruption, waiver=waiver).answer(),
            "disruption": disruption and {"direction": disruption.direction, **disruption.status.answer()},
            **({"waiver": {"bulletin": waiver.bulletin}} if waiver else {}),
            **({"notes": booking.notes} if booking.notes else {})}


def passenger_json(passenger: Passenger | dict) -> dict:
    """A stored passenger, or the checked fields of one, in the API's field order."""
    get = passenger.get if isinstance(passenger, dict) else lambda name: getattr(passenger, name)
    fields = {name: get(name) for name in PASSENGER_FIELDS}
    return {**fields, "date_of_birth": fields["date_of_birth"].isoformat()}


def lines_json(lines: list[dict]) -> dict:
    return {
        "price_lines": [{"label": line["label"], "amount": money(line["amount_cents"])} for line in lines],
        "total": money(total_cents(lines)),
    }


def change_quote_json(quote: dict) -> dict:
    """A services.bookings.change_quote: the new price lines and total, the total paid now and
    the difference."""
    return {**lines_json(quote["lines"]), "current_total": money(quote["current_total_cents"]),
            "difference": signed_money(quote["difference_cents"])}


def booking_match_json(booking: Booking) -> dict:
    """A booking as a search lists it: enough to tell two matches apart and ask the caller which."""
    first = booking.segments[0].flight
    return {"code": booking.code, "status": booking.status, "first_name": booking.passenger.first_name,
            "last_name": booking.passenger.last_name, "from": first.origin, "to": first.destination,
            "dates": [segment.flight.departure_date.isoformat() for segment in booking.segments]}


def booking_json(booking: Booking) -> dict:
    payment = booking.payment
    return {
        "code": booking.code,
        "status": booking.status,
        "trip_type": booking.trip_type,
        "flights": [
            {**flight_json(segment.flight), "direction": segment.direction, "fare": money(segment.fare_cents)}
            for segment in booking.segments
        ],
        "passenger": passenger_json(booking.passenger),
        "payment": {"card_last4": payment.card_last4, "expiry": payment.expiry,
                    "name_on_card": payment.name_on_card},
        **lines_json(booking_lines(booking)),
    }
