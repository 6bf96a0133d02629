// Results: pick a departing (and a return) flight, then Checkout. Where the flights carry fare
// families' prices (hard suite), the booking's fare is chosen here too.
import { clearErrors, showFormError } from "../fields.js";
import { chosenFlights, renderFlightLists } from "../flightlist.js";
import { register, screen, show } from "../router.js";
import { flow } from "../state.js";
import { byTestid, tid } from "../vocabulary.js";

export function initResults() {
  const root = screen("results");
  root.querySelector(byTestid("checkout")).addEventListener("click", () => checkout(root));
  register("results", () => render(root));
}

function render(root) {
  clearErrors(root);
  if (!flow.results) return show("search");
  const { from, to } = flow.results;
  const kind = flow.tripType === "return" ? "Return trip" : "One way";
  root.querySelector(byTestid("results-summary")).textContent = `${kind}: ${from} → ${to}`;
  renderFlightLists(root, flow.results, flow.tripType);
  offerFares(root);
}

// Standard until the rep chooses another; offered only when the flights carry fare prices (a hidden
// choice is also disabled, so that Checkout's event leaves it out).
function offerFares(root) {
  const choice = root.querySelector("[data-fare-choice]");
  if (!choice) return;
  choice.hidden = !flow.results.flights.some((flight) => flight.fares);
  for (const radio of choice.querySelectorAll("input")) radio.disabled = choice.hidden;
  choice.querySelector('input[value="Standard"]').checked = true;
}

function chosenFare(root) {
  const radio = root.querySelector(`[data-fare-choice] input[data-field="${tid("fare")}"]:checked:not(:disabled)`);
  return radio ? radio.value : null;
}

function checkout(root) {
  clearErrors(root);
  const chosen = chosenFlights(root, flow.results, flow.tripType);
  if (chosen.missing) return showFormError(root, "results", chosen.missing);
  flow.outward = chosen.outward;
  flow.return = chosen.return;
  flow.fare = chosenFare(root);
  show("passenger");
}
