"""Booking, finding (by code, or by last name and travel date), cancelling and changing bookings.
Each write is one transaction."""
from __future__ import annotations

import datetime as dt
import random
import re
import secrets
import string
from typing import NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session, joinedload

from ..db import card_hasher, dataset_lock, write_transaction
from ..models import Booking, Flight, Passenger, Payment, Segment
from .dates import Calendar, parse_date
from .disruptions import CANCELLED, FlightStatus, statuses
from .errors import Conflict, InvalidInput, NotFound, excerpt
from .fares import FARES, STANDARD, check_fare, fare_price_cents
from .flights import get_flight
from .kb_terms import covering_waiver
from .knowledge_base import bulletins
from .policy import Disruption, Terms, Waiver, cancel_terms, change_terms, free_rebooking, upgrade_terms
from .pricing import price_lines, total_cents
from .schedule import departure_moment
from .validation import TEXT_LIMITS, check_passenger, check_payment

CODE_ALPHABET = string.ascii_uppercase + string.digits
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"[A-Z0-9]{{{CODE_LENGTH}}}")
CODE_REQUIRED = "Confirmation code is required"
LAST_NAME_REQUIRED = "Last name is required"
MAX_MATCHES = 20


def find_booking(session: Session, dataset: str, code) -> Booking:
    text = code.strip().upper() if isinstance(code, str) else ""
    if not text:
        raise InvalidInput(CODE_REQUIRED, {"code": CODE_REQUIRED})
    booking = None
    if CODE_PATTERN.fullmatch(text):
        # With its segments, passenger and payment: one query instead of four for a booking's JSON.
        booking = session.scalars(select(Booking).where(Booking.dataset == dataset, Booking.code == text).options(
            joinedload(Booking.segments), joinedload(Booking.passengers), joinedload(Booking.payment))
        ).unique().one_or_none()
    if booking is None:
        raise NotFound(f"No booking found with confirmation code {excerpt(text)}")
    return booking


def search_bookings(session: Session, dataset: str, last_name, day) -> list[Booking]:
    """The bookings of a passenger with this last name (any case) that have a flight departing on
    `day`, in confirmation-code order, at most MAX_MATCHES: how a rep finds a booking whose code the
    caller does not have."""
    name = last_name.strip() if isinstance(last_name, str) else ""
    if not name:
        raise InvalidInput(LAST_NAME_REQUIRED, {"last_name": LAST_NAME_REQUIRED})
    if len(name) > TEXT_LIMITS["last_name"]:
        raise InvalidInput(f"Last name is at most {TEXT_LIMITS['last_name']} characters",
                           {"last_name": "Too long"})
    travel = parse_date(day, "Travel date")
    matches = (select(Booking.id).join(Booking.passengers).join(Booking.segments).join(Segment.flight)
               .where(Booking.dataset == dataset, func.lower(Passenger.last_name) == name.lower(),
                      Flight.departure_date == travel))
    return list(session.scalars(select(Booking).where(Booking.id.in_(matches)).order_by(Booking.code)
                                .limit(MAX_MATCHES).options(joinedload(Booking.segments),
                                                             joinedload(Booking.passengers))).unique())


def book(session: Session, calendar: Calendar, dataset: str, outward_id, return_id, passenger, payment,
         fare=None, code_source: str | None = None) -> Booking:
    """Create a confirmed booking from chosen flights (in a fare family, Standard by default),
    passenger details and a card. Its code is drawn from `code_source` and the dataset's count of
    bookings when given (the same codes on every replay of a scenario), else at random."""
    booking = new_booking(session, calendar, dataset, outward_id, return_id, passenger, payment, fare=fare)
    with write_transaction(session, dataset_lock(dataset)):
        booking.code = booking.code or _unused_code(session, dataset, code_source)
        session.add(booking)
    return booking


def new_booking(session: Session, calendar: Calendar, dataset: str, outward_id, return_id, passenger, payment,
                code: str | None = None, fare=None, booked_at: dt.datetime | None = None,
                notes: str | None = None) -> Booking:
    """A checked booking not yet added to the session, for callers that write it in their own
    transaction; made now on the simulated clock unless `booked_at` says when."""
    person = check_passenger(passenger, calendar.today)
    card = check_payment(payment, calendar.today)
    fare = check_fare(fare)
    outward, back = check_itinerary(session, calendar, outward_id, return_id)
    booked_at = booked_at or calendar.now
    booking = Booking(
        dataset=dataset,
        code=code,
        status="Confirmed",
        trip_type="return" if back else "oneway",
        created_on=booked_at.date(),
        fare=fare,
        booked_at=booked_at,
        notes=notes,
    )
    booking.passengers.append(Passenger(**person))
    _set_segments(booking, outward, back)
    booking.payment = Payment(expiry=card["expiry"], name_on_card=card["name_on_card"],
                              amount_cents=booking_total(booking))
    booking.payment.set_card(card["card_number"], card_hasher(session))
    return booking


def cancel(session: Session, dataset: str, code, confirmation) -> Booking:
    """Cancel a booking; the caller re-enters its code to confirm."""
    booking = find_booking(session, dataset, code)
    entered = confirmation.strip().upper() if isinstance(confirmation, str) else ""
    if entered != booking.code:
        message = "The confirmation code does not match this booking" if entered else CODE_REQUIRED
        raise InvalidInput(message, {"confirmation_code": message})
    with write_transaction(session, dataset_lock(dataset)):
        booking = _locked(session, dataset, booking.code)
        booking.status = "Cancelled"
    return booking


def update_passenger(session: Session, calendar: Calendar, dataset: str, code, changes) -> Booking:
    """Change some of the passenger's fields."""
    cleaned = check_passenger(changes, calendar.today, partial=True)
    booking = find_booking(session, dataset, code)
    with write_transaction(session, dataset_lock(dataset)):
        booking = _locked(session, dataset, booking.code)
        for field, value in cleaned.items():
            setattr(booking.passenger, field, value)
    return booking


def change_flights(session: Session, calendar: Calendar, dataset: str, code, outward_id, return_id) -> Booking:
    """Move a booking to other flights on the same route; fares are repriced, except on a free
    change of a disrupted booking (policy.free_rebooking) or of one a weather waiver covers: there each new flight keeps the fare
    paid for the one it replaces, so the customer pays nothing more and gets nothing back (the
    paid total stays what it was, and so does every later refund of it)."""
    booking, outward, back = _checked_change(session, calendar, dataset, code, outward_id, return_id)
    free = _rebooking(session, booking, outward, back).free
    with write_transaction(session, dataset_lock(dataset)):
        booking = _locked(session, dataset, booking.code)
        kept = _paid_fares(booking) if free else None
        booking.segments.clear()
        session.flush()
        _set_segments(booking, outward, back, kept)
        booking.payment.amount_cents = booking_total(booking)
    return booking


def change_quote(session: Session, calendar: Calendar, dataset: str, code, outward_id, return_id) -> dict:
    """What moving a booking to other flights would cost: the new price lines, the new total, the
    total paid now, the difference (negative when the new flights are cheaper), and the policy's
    terms for the change (`terms`)."""
    booking, outward, back = _checked_change(session, calendar, dataset, code, outward_id, return_id)
    move = _rebooking(session, booking, outward, back)
    lines = itinerary_lines(outward, back, booking.fare, _paid_fares(booking) if move.free else None)
    quote = _repriced(booking, lines)
    return {**quote, "terms": change_terms_of(booking, calendar.now, quote["difference_cents"], move.disruption,
                                              move.new_departs, move.waiver)}


def fare_upgrade_quote(session: Session, calendar: Calendar, dataset: str, code, new_fare) -> dict:
    """What raising a booking's fare family to `new_fare` would cost: the new price lines and
    total, the total paid now, the difference, and the policy's terms (`terms`)."""
    booking, fare = _checked_upgrade(session, dataset, code, new_fare)
    quote = _repriced(booking, _lines_at(booking, fare))
    return {**quote, "fare": fare,
            "terms": upgrade_terms(booking.fare, fare, departs_at(booking), calendar.now, quote["difference_cents"])}


def _repriced(booking: Booking, lines: list[dict]) -> dict:
    """A quote of the booking at new price `lines`: their total, the total now, the difference."""
    new_total, current_total = total_cents(lines), booking_total(booking)
    return {"lines": lines, "total_cents": new_total, "current_total_cents": current_total,
            "difference_cents": new_total - current_total}


def upgrade_fare(session: Session, dataset: str, code, new_fare) -> Booking:
    """Raise a booking's fare family: its seats repriced in the new family, the difference paid."""
    booking, fare = _checked_upgrade(session, dataset, code, new_fare)
    with write_transaction(session, dataset_lock(dataset)):
        booking = _locked(session, dataset, booking.code)
        _checked_higher(booking, fare)  # again, under the lock: another request may have raised it meanwhile
        booking.fare = fare
        for segment in booking.segments:
            segment.fare_cents = fare_price_cents(segment.flight.price_cents, fare)
        booking.payment.amount_cents = booking_total(booking)
    return booking


def _checked_upgrade(session: Session, dataset: str, code, new_fare) -> tuple[Booking, str]:
    fare = check_fare(new_fare if new_fare is not None else "")
    booking = find_booking(session, dataset, code)
    if booking.status == "Cancelled":
        raise Conflict(f"Booking {booking.code} is already cancelled")
    _checked_higher(booking, fare)
    return booking, fare


def _checked_higher(booking: Booking, fare: str) -> None:
    if FARES.index(fare) <= FARES.index(booking.fare):
        message = f"A fare can only be raised: booking {booking.code} is {booking.fare}"
        raise InvalidInput(message, {"fare": message})


def _lines_at(booking: Booking, fare: str) -> list[dict]:
    return price_lines([(s.direction, s.flight.number, fare_price_cents(s.flight.price_cents, fare))
                        for s in booking.segments])


def departs_at(booking: Booking) -> dt.datetime:
    """When the booking's first flight leaves (local time at its airport, as the timetable says)."""
    first = booking.segments[0].flight
    return departure_moment(first.departure_date, first.departure_minute)


class BookingDisruption:
    """The flight of a booking that the airline disrupted (its `direction` and status), and the
    policy's view of it (`policy`)."""

    def __init__(self, segment: Segment, status: FlightStatus):
        self.direction, self.status = segment.direction, status
        flight = segment.flight
        self.policy = Disruption(status.status == CANCELLED, status.delay_minutes,
                                 departure_moment(flight.departure_date, flight.departure_minute))


def disruption_of(session: Session, booking: Booking,
                  found: dict[int, FlightStatus] | None = None) -> BookingDisruption | None:
    """The booking's disrupted flight in its dataset: the first one whose disruption frees the
    booking (policy.Disruption.frees), else the first one cancelled or delayed at all; None.
    `found`: its flights' statuses when the caller has read them (disruptions.statuses)."""
    if found is None:
        found = statuses(session, booking.dataset, [segment.flight_id for segment in booking.segments])
    disrupted = [BookingDisruption(segment, found[segment.flight_id])
                 for segment in booking.segments if segment.flight_id in found]
    return next((d for d in disrupted if d.policy.frees), disrupted[0] if disrupted else None)


def waiver_of(session: Session, booking: Booking) -> Waiver | None:
    """The weather waiver among the dataset's bulletins that covers one of the booking's flights, or None."""
    notices = bulletins(session, booking.dataset)
    covering = (covering_waiver(notices, s.flight.origin, s.flight.destination, s.flight.departure_date)
                for s in booking.segments) if notices else ()
    return next((Waiver(bulletin.id) for bulletin in covering if bulletin is not None), None)


class Rebooking(NamedTuple):
    """What moving a booking to other flights meets: its disruption (or None), when the flight
    replacing the disrupted one leaves (None without a disruption), the weather waiver covering it
    (or None), and whether the move is free (policy.free_rebooking, or a waiver)."""
    disruption: BookingDisruption | None
    new_departs: dt.datetime | None
    waiver: Waiver | None
    free: bool


def _rebooking(session: Session, booking: Booking, outward: Flight, back: Flight | None) -> Rebooking:
    disruption, waiver = disruption_of(session, booking), waiver_of(session, booking)
    new = None if disruption is None else outward if disruption.direction == "outward" else back
    new_departs = None if new is None else departure_moment(new.departure_date, new.departure_minute)
    free = free_rebooking(disruption and disruption.policy, new_departs) or waiver is not None
    return Rebooking(disruption, new_departs, waiver, free)


def _paid_fares(booking: Booking) -> dict[str, int]:
    """The fare paid for each direction of the booking: what a free change keeps."""
    return {segment.direction: segment.fare_cents for segment in booking.segments}


def cancellation_terms(booking: Booking, now: dt.datetime, disruption: BookingDisruption | None = None) -> Terms:
    """What the policy says of cancelling the booking `now`: refund, credit or refused, and how much."""
    return cancel_terms(booking.fare, booking.payment.amount_cents, booking.made_at, departs_at(booking), now,
                        disruption and disruption.policy)


def change_terms_of(booking: Booking, now: dt.datetime, difference_cents: int = 0,
                    disruption: BookingDisruption | None = None, new_departs: dt.datetime | None = None,
                    waiver: Waiver | None = None) -> Terms:
    """What the policy says of changing the booking's flights `now` to ones costing
    `difference_cents` more (and, for a disrupted booking, replacing its disrupted flight by one
    leaving at `new_departs`; None: the terms of a move within the rebooking window; for one a
    weather `waiver` covers, free): allowed or refused, and what the customer pays."""
    return change_terms(booking.fare, booking.made_at, departs_at(booking), now, difference_cents,
                        disruption and disruption.policy, new_departs, waiver)


def _checked_change(session: Session, calendar: Calendar, dataset: str, code, outward_id, return_id):
    """The booking and the flights it may move to: sellable, on its route, its trip type."""
    booking = find_booking(session, dataset, code)
    if booking.status == "Cancelled":
        raise Conflict(f"Booking {booking.code} is already cancelled")
    outward, back = check_itinerary(session, calendar, outward_id, return_id)
    current = booking.segments[0].flight
    if (outward.origin, outward.destination) != (current.origin, current.destination):
        raise InvalidInput(f"The new flights must keep the route {current.origin} to {current.destination}")
    if (back is None) != (booking.trip_type == "oneway"):
        wanted = "a return flight" if booking.trip_type == "return" else "no return flight"
        raise InvalidInput(f"This booking needs {wanted}", {"return_flight_id": f"This booking needs {wanted}"})
    return booking, outward, back


def itinerary_lines(outward: Flight, back: Flight | None, fare: str = STANDARD,
                    kept: dict[str, int] | None = None) -> list[dict]:
    """Price lines of chosen flights (anything with a `number` and a listed `price_cents`) at today's
    prices of a fare family, or at the fare `kept` for each direction (a free change)."""
    return price_lines([(direction, flight.number, _fare_cents(direction, flight, fare, kept))
                        for direction, flight in (("outward", outward), ("return", back)) if flight])


def _fare_cents(direction: str, flight: Flight, fare: str, kept: dict[str, int] | None) -> int:
    return kept[direction] if kept else fare_price_cents(flight.price_cents, fare)


def booking_lines(booking: Booking) -> list[dict]:
    return price_lines([(s.direction, s.flight.number, s.fare_cents) for s in booking.segments])


def booking_total(booking: Booking) -> int:
    return total_cents(booking_lines(booking))


def _locked(session: Session, dataset: str, code: str) -> Booking:
    """The booking re-read inside the write transaction (under the dataset's lock), refusing it
    once cancelled, or gone because its scenario was reset meanwhile."""
    booking = session.scalar(select(Booking).where(Booking.dataset == dataset, Booking.code == code)
                             .execution_options(populate_existing=True))
    if booking is None:
        raise NotFound(f"No booking found with confirmation code {code}")
    if booking.status == "Cancelled":
        raise Conflict(f"Booking {code} is already cancelled")
    return booking


def check_itinerary(session: Session, calendar: Calendar, outward_id, return_id) -> tuple[Flight, Flight | None]:
    outward = get_flight(session, outward_id, "outward")
    back = None if return_id is None else get_flight(session, return_id, "return")
    for flight in filter(None, (outward, back)):
        calendar.check_sellable(flight.departure_date, f"Flight {flight.number}")
    if back is not None:
        if (back.origin, back.destination) != (outward.destination, outward.origin):
            raise InvalidInput("The return flight must fly the outward route backwards",
                               {"return_flight_id": "Choose a flight on the way back"})
        if back.departure_date < outward.departure_date:
            message = "Return date must not be before the departure date"
            raise InvalidInput(message, {"return_flight_id": message})
    return outward, back


def _set_segments(booking: Booking, outward: Flight, back: Flight | None, kept: dict[str, int] | None = None) -> None:
    """The booking's flights, each at today's price in its fare family, or at the fare `kept` for its direction."""
    for position, (direction, flight) in enumerate((("outward", outward), ("return", back))):
        if flight is not None:
            booking.segments.append(Segment(position=position, direction=direction, flight=flight,
                                            fare_cents=_fare_cents(direction, flight, booking.fare, kept)))


def _unused_code(session: Session, dataset: str, source: str | None = None) -> str:
    """A code no booking of the dataset has: drawn from `source` and the dataset's count of bookings
    (called inside the dataset's write lock, so the count is the one this booking follows), or at random."""
    if source is None:
        draw = secrets.SystemRandom()
    else:
        made = session.scalar(select(func.count(Booking.id)).where(Booking.dataset == dataset))
        draw = random.Random(f"booking-code:{source}:{made}")
    while True:
        code = new_code(draw)
        taken = session.scalar(select(Booking.id).where(Booking.dataset == dataset, Booking.code == code))
        if taken is None:
            return code


def new_code(rng) -> str:
    """A confirmation code drawn from a seeded random generator (for reproducible data)."""
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
