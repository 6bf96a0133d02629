// Payment: itinerary summary with the server's price lines and Total, card details, Book flight.
// A fare family chosen on the results (hard suite) prices the quote and the booking.
import { api } from "../api.js";
import { apiValues, clearErrors, resetForm, showApiError } from "../fields.js";
import { itinerary, money, priceLines } from "../flightlist.js";
import { describePassenger } from "../passengerform.js";
import { register, screen, show } from "../router.js";
import { flow, resetFlow } from "../state.js";
import { onSubmit } from "../submitting.js";
import { byTestid } from "../vocabulary.js";

export function initPayment() {
  const root = screen("payment");
  const form = root.querySelector("form");
  onSubmit(form, book);
  register("payment", () => {
    clearErrors(form);
    if (!flow.passenger) return show("search");
    renderSummary(root);
  });
}

function selectedFlights() {
  const flights = [{ ...atFare(flow.outward), direction: "outward" }];
  if (flow.return) flights.push({ ...atFare(flow.return), direction: "return" });
  return flights;
}

function atFare(flight) {
  return flow.fare && flight.fares ? { ...flight, price: flight.fares[flow.fare] } : flight;
}

function flightIds() {
  return { outward_flight_id: flow.outward.id, return_flight_id: flow.return ? flow.return.id : null };
}

function fareChoice() {
  return flow.fare ? { fare: flow.fare } : {};
}

async function renderSummary(root) {
  itinerary(root.querySelector("[data-itinerary]"), selectedFlights());
  root.querySelector("[data-passenger-summary]").textContent =
    `Passenger: ${describePassenger(flow.passenger)}`;
  const fare = root.querySelector("[data-fare-summary]");
  if (fare) fare.textContent = flow.fare ? `Fare: ${flow.fare}` : "";
  const total = root.querySelector(byTestid("payment-total"));
  const lines = root.querySelector("[data-price-lines]");
  try {
    const quote = await api.quote(flow.outward.id, flow.return?.id, flow.fare);
    priceLines(lines, quote.price_lines);
    total.textContent = money(quote.total);
  } catch (err) {
    // Without a quote the fares from the search are shown; taxes come with the booking.
    priceLines(lines, selectedFlights().map((f) => ({ label: `Fare ${f.number}`, amount: f.price })));
    total.textContent = "shown after booking";
  }
}

async function book(form) {
  clearErrors(form);
  try {
    const answer = await api.createBooking({
      ...flightIds(), ...fareChoice(), passenger: flow.passenger, payment: apiValues(form),
    });
    resetFlow();
    resetForm(form);
    resetForm(screen("passenger").querySelector("form"));
    show("confirmation", answer.booking);
  } catch (err) {
    showApiError(form, "payment", err);
  }
}
