// The cancel dialog: the agent re-enters the confirmation code; the server checks it.
import { api } from "../api.js";
import { clearErrors, committedValue, showApiError } from "../fields.js";
import { onSubmit } from "../submitting.js";

const dialog = () => document.querySelector('[data-testid="cancel-dialog"]');
let target = null;   // { booking, onCancelled }

export function initCancelDialog() {
  const form = dialog().querySelector("form");
  onSubmit(form, confirm);
  dialog().querySelector('[data-testid="cancel-close"]').addEventListener("click", () => dialog().close());
}

export function openCancelDialog(booking, onCancelled) {
  target = { booking, onCancelled };
  const form = dialog().querySelector("form");
  form.reset();
  clearErrors(form);
  dialog().showModal();
}

async function confirm(form) {
  clearErrors(form);
  const typed = committedValue(form.querySelector('[data-testid="cancel-code"]'));
  try {
    const answer = await api.cancelBooking(target.booking.code, typed);
    dialog().close();
    target.onCancelled(answer.booking);
  } catch (err) {
    showApiError(form, "cancel", err);
  }
}
