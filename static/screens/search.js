// Home: the flight search form. A successful search moves on to the results.
import { api } from "../api.js";
import { apiValues, clearErrors, showApiError } from "../fields.js";
import { setTripType } from "../flightsearch.js";
import { register, screen, show } from "../router.js";
import { flow, resetFlow } from "../state.js";
import { onSubmit } from "../submitting.js";
import { tid } from "../vocabulary.js";

export function initSearch() {
  const form = screen("search").querySelector("form");
  form.addEventListener("change", (e) => {
    if (e.target.dataset.field === tid("trip-type")) setTripType(form, e.target.value);
  });
  onSubmit(form, submit);
  register("search", () => setTripType(form, tripType(form)));
}

function tripType(form) {
  return form.querySelector(`[data-field="${tid("trip-type")}"]:checked`).value;
}

async function submit(form) {
  clearErrors(form);
  const type = tripType(form);
  try {
    const results = await api.searchFlights(apiValues(form));
    resetFlow();
    Object.assign(flow, { tripType: type, results });
    show("results");
  } catch (err) {
    showApiError(form, "search", err);
  }
}
