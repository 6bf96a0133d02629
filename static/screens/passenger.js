// Passenger details in the booking flow: Save asks the server to check them, then Payment. In some UI
// variants the form comes in two steps: Next shows the second (with Save), until the booking is made.
import { api } from "../api.js";
import { apiValues, clearErrors, showApiError } from "../fields.js";
import { register, screen, show } from "../router.js";
import { flow } from "../state.js";
import { onSubmit } from "../submitting.js";

export function initPassenger() {
  const form = screen("passenger").querySelector("form");
  onSubmit(form, save);
  form.querySelector("[data-step-next] button")?.addEventListener("click", () => showStepTwo(form, true));
  register("passenger", () => {
    clearErrors(form);
    if (!flow.outward) show("search");
    if (!flow.passenger) showStepTwo(form, false);
  });
}

function showStepTwo(form, shown) {
  const next = form.querySelector("[data-step-next]");
  if (!next) return;
  next.hidden = shown;
  form.querySelector("[data-step-two]").hidden = !shown;
  if (shown) form.querySelector("[data-step-two] input, [data-step-two] select")?.focus();
}

async function save(form) {
  clearErrors(form);
  try {
    const answer = await api.validatePassenger(apiValues(form));
    flow.passenger = answer.passenger;
    show("payment");
  } catch (err) {
    showApiError(form, "passenger", err);
  }
}
