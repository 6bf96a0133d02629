// Results: pick a departing (and a return) flight, then Checkout.
import { clearErrors, showFormError } from "../fields.js";
import { flightTable, selectedFlightId } from "../flightlist.js";
import { register, screen, show } from "../router.js";
import { flow } from "../state.js";

export function initResults() {
  const root = screen("results");
  root.querySelector('[data-testid="checkout"]').addEventListener("click", () => checkout(root));
  register("results", () => render(root));
}

export function renderFlightLists(root, results, tripType, prefix = "") {
  const route = `${results.from} → ${results.to}`;
  flightTable(root.querySelector('[data-results="outward"]'), {
    heading: "Select your departing flight", field: `${prefix}outward-flight`,
    flights: results.flights, date: results.date, route,
  });
  const back = root.querySelector('[data-results="return"]');
  if (tripType === "return") {
    flightTable(back, {
      heading: "Select your return flight", field: `${prefix}return-flight`,
      flights: results.return_flights || [], date: results.return_date,
      route: `${results.to} → ${results.from}`,
    });
  } else {
    back.replaceChildren();
  }
}

function render(root) {
  clearErrors(root);
  if (!flow.results) return show("search");
  const { from, to } = flow.results;
  const kind = flow.tripType === "return" ? "Return trip" : "One way";
  root.querySelector('[data-testid="results-summary"]').textContent = `${kind}: ${from} → ${to}`;
  renderFlightLists(root, flow.results, flow.tripType);
}

// Finds the chosen flight objects, or returns a message naming what is missing.
export function chosenFlights(root, results, tripType, prefix = "") {
  const outwardId = selectedFlightId(root, `${prefix}outward-flight`);
  const returnId = selectedFlightId(root, `${prefix}return-flight`);
  if (!outwardId) return { missing: "Select a departing flight." };
  if (tripType === "return" && !returnId) return { missing: "Select a return flight." };
  return {
    outward: results.flights.find((f) => f.id === outwardId),
    return: tripType === "return" ? results.return_flights.find((f) => f.id === returnId) : null,
  };
}

function checkout(root) {
  clearErrors(root);
  const chosen = chosenFlights(root, flow.results, flow.tripType);
  if (chosen.missing) return showFormError(root, "results", chosen.missing);
  flow.outward = chosen.outward;
  flow.return = chosen.return;
  show("passenger");
}
