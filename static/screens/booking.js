// Booking view: code, status (with a notice when cancelled), itinerary, passenger, payment,
// price lines, Total; in the hard suite also its fare family and what the policy says of cancelling
// or changing it now.
import { formatLong, formatUs } from "../dates.js";
import { clearErrors } from "../fields.js";
import { bookedFlights, itinerary, money, priceLines } from "../flightlist.js";
import { describePassenger } from "../passengerform.js";
import { register, screen, show } from "../router.js";
import { byTestid, cls } from "../vocabulary.js";
import { openCancelDialog } from "./cancel.js";

let current = null;

export function initBooking() {
  const root = screen("booking");
  root.querySelector(byTestid("modify-booking")).addEventListener("click", () => show("modify", current));
  root.querySelector(byTestid("cancel-booking")).addEventListener("click", () =>
    openCancelDialog(current, (updated) => show("booking", updated)));
  register("booking", (booking) => {
    current = booking;
    render(root, booking);
  });
}

function text(root, testid, value) {
  root.querySelector(byTestid(testid)).textContent = value;
}

function details(dl, pairs) {
  dl.replaceChildren(...pairs.flatMap(([term, value]) => {
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = value;
    return [dt, dd];
  }));
}

function render(root, booking) {
  clearErrors(root);
  const p = booking.passenger;
  const cancelled = booking.status === "Cancelled";
  text(root, "booking-code", booking.code);
  text(root, "booking-status", booking.status);
  text(root, "booking-total", money(booking.total));
  root.querySelector(byTestid("booking-status")).classList.toggle(cls("cancelled"), cancelled);
  root.querySelector("[data-trip-type]").textContent =
    booking.trip_type === "return" ? "Return trip" : "One way";
  itinerary(root.querySelector("[data-itinerary]"), bookedFlights(booking));
  details(root.querySelector("[data-passenger]"), [
    ["Name", describePassenger(p)], ["Email address", p.email], ["Gender", p.gender],
    ["Date of birth", formatLong(p.date_of_birth)],
  ]);
  details(root.querySelector("[data-payment]"), [
    ["Card", `ending ${booking.payment.card_last4}`], ["Expiry", booking.payment.expiry],
    ["Name on card", booking.payment.name_on_card],
  ]);
  priceLines(root.querySelector("[data-price-lines]"), booking.price_lines);
  root.querySelector(byTestid("booking-cancelled")).hidden = !cancelled;
  root.querySelector(byTestid("modify-booking")).disabled = cancelled;
  root.querySelector(byTestid("cancel-booking")).disabled = cancelled;
  renderTerms(root, booking);
}

// A cancelled booking keeps its fare, booking time and payment; the terms of a change or a
// cancellation no longer apply to it.
function renderTerms(root, booking) {
  const box = root.querySelector("[data-fare-terms]");
  if (!box) return;
  box.hidden = !booking.fare;
  if (!booking.fare) return;
  const pairs = [["Fare", booking.fare], ["Booked", bookedAt(booking.booked_at)], ["Paid", money(booking.paid)]];
  if (booking.notes) pairs.push(["Special requests", booking.notes]);  // shown as text (textContent)
  if (booking.status !== "Cancelled") {
    pairs.push(["If cancelled now", cancellationTerms(booking.cancellation)],
      ["Change fee", changeFee(booking.change, booking.disruption || booking.waiver)]);
  }
  details(box.querySelector("dl"), pairs);
}

// "2026-06-01T09:00" as "06/01/2026 09:00".
function bookedAt(stamp) {
  const [day, time] = stamp.split("T");
  return `${formatUs(day)} ${time}`;
}

function cancellationTerms({ outcome, amount, rule }) {
  if (outcome === "refund") return `Refund ${money(amount)}`;
  if (outcome === "credit") return `Travel credit ${money(amount)}`;
  return `Not allowed: ${rule}`;
}

// The fee alone: the fare difference of particular new flights is known only when changing them.
// A booking the airline disrupted, or one a weather waiver covers, says the rule that decides (a free
// move, or the fare's usual terms).
function changeFee({ outcome, amount, rule }, special) {
  if (outcome !== "allowed") return `Not allowed: ${rule}`;
  if (special) return `${money(amount)} (${rule})`;
  if (Number(amount) === 0) return "No fee, fare difference only";
  return `${money(amount)} plus any fare difference`;
}
