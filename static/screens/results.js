// Results: pick a departing (and a return) flight, then Checkout.
import { clearErrors, showFormError } from "../fields.js";
import { chosenFlights, renderFlightLists } from "../flightlist.js";
import { register, screen, show } from "../router.js";
import { flow } from "../state.js";

export function initResults() {
  const root = screen("results");
  root.querySelector('[data-testid="checkout"]').addEventListener("click", () => checkout(root));
  register("results", () => render(root));
}

function render(root) {
  clearErrors(root);
  if (!flow.results) return show("search");
  const { from, to } = flow.results;
  const kind = flow.tripType === "return" ? "Return trip" : "One way";
  root.querySelector('[data-testid="results-summary"]').textContent = `${kind}: ${from} → ${to}`;
  renderFlightLists(root, flow.results, flow.tripType);
}

function checkout(root) {
  clearErrors(root);
  const chosen = chosenFlights(root, flow.results, flow.tripType);
  if (chosen.missing) return showFormError(root, "results", chosen.missing);
  flow.outward = chosen.outward;
  flow.return = chosen.return;
  show("passenger");
}
