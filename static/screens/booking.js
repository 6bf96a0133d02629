// Booking view: code, status (with a notice when cancelled), itinerary, passenger, payment,
// price lines, Total.
import { formatLong } from "../dates.js";
import { clearErrors } from "../fields.js";
import { itinerary, money, priceLines } from "../flightlist.js";
import { describePassenger } from "../passengerform.js";
import { register, screen, show } from "../router.js";
import { openCancelDialog } from "./cancel.js";

let current = null;

export function initBooking() {
  const root = screen("booking");
  root.querySelector('[data-testid="modify-booking"]').addEventListener("click", () => show("modify", current));
  root.querySelector('[data-testid="cancel-booking"]').addEventListener("click", () =>
    openCancelDialog(current, (updated) => show("booking", updated)));
  register("booking", (booking) => {
    current = booking;
    render(root, booking);
  });
}

function text(root, testid, value) {
  root.querySelector(`[data-testid="${testid}"]`).textContent = value;
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
  root.querySelector('[data-testid="booking-status"]').classList.toggle("cancelled", cancelled);
  root.querySelector("[data-trip-type]").textContent =
    booking.trip_type === "return" ? "Return trip" : "One way";
  itinerary(root.querySelector("[data-itinerary]"), booking.flights);
  details(root.querySelector("[data-passenger]"), [
    ["Name", describePassenger(p)], ["Email address", p.email], ["Gender", p.gender],
    ["Date of birth", formatLong(p.date_of_birth)],
  ]);
  details(root.querySelector("[data-payment]"), [
    ["Card", `ending ${booking.payment.card_last4}`], ["Expiry", booking.payment.expiry],
    ["Name on card", booking.payment.name_on_card],
  ]);
  priceLines(root.querySelector("[data-price-lines]"), booking.price_lines);
  root.querySelector('[data-testid="booking-cancelled"]').hidden = !cancelled;
  root.querySelector('[data-testid="modify-booking"]').disabled = cancelled;
  root.querySelector('[data-testid="cancel-booking"]').disabled = cancelled;
}
