// Passenger details in the booking flow: Save asks the server to check them, then Payment.
import { api } from "../api.js";
import { apiValues, clearErrors, showApiError } from "../fields.js";
import { register, screen, show } from "../router.js";
import { flow } from "../state.js";
import { onSubmit } from "../submitting.js";

export function initPassenger() {
  const form = screen("passenger").querySelector("form");
  onSubmit(form, save);
  register("passenger", () => {
    clearErrors(form);
    if (!flow.outward) show("search");
  });
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
