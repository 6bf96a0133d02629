// Find booking: look a booking up by its confirmation code.
import { api } from "../api.js";
import { clearErrors, committedValue, showApiError, showFieldError } from "../fields.js";
import { register, screen, show } from "../router.js";
import { onSubmit } from "../submitting.js";
import { byTestid } from "../vocabulary.js";

export function initFind() {
  const form = screen("find").querySelector("form");
  onSubmit(form, find);
  register("find", () => clearErrors(form));
}

async function find(form) {
  clearErrors(form);
  const code = committedValue(form.querySelector(byTestid("find-code")));
  if (!code) return showFieldError(form, "find-code", "Confirmation code is required");
  try {
    const answer = await api.getBooking(code);
    show("booking", answer.booking);
  } catch (err) {
    if (err.status === 404) showFieldError(form, "find-code", err.message);
    else showApiError(form, "find", err);
  }
}
