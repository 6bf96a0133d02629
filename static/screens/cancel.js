// The cancel dialog: the agent re-enters the confirmation code; the server checks it. In the hard
// suite it also says what the policy gives back; it does not stop a cancellation the policy refuses
// (a rep can break the policy, and is graded on it).
import { api } from "../api.js";
import { clearErrors, committedValue, showApiError } from "../fields.js";
import { money } from "../flightlist.js";
import { onSubmit } from "../submitting.js";
import { byTestid } from "../vocabulary.js";

const dialog = () => document.querySelector(byTestid("cancel-dialog"));
let target = null;   // { booking, onCancelled }

export function initCancelDialog() {
  const form = dialog().querySelector("form");
  onSubmit(form, confirm);
  dialog().querySelector(byTestid("cancel-close")).addEventListener("click", () => dialog().close());
}

export function openCancelDialog(booking, onCancelled) {
  target = { booking, onCancelled };
  const form = dialog().querySelector("form");
  form.reset();
  clearErrors(form);
  showTerms(booking.cancellation);
  dialog().showModal();
}

function showTerms(terms) {
  const line = dialog().querySelector(byTestid("cancel-terms"));
  if (!line) return;
  line.hidden = !terms;
  line.textContent = terms ? termsText(terms) : "";
}

function termsText({ outcome, amount, rule }) {
  if (outcome === "refused") return `Policy: not allowed — ${rule}`;
  const what = outcome === "refund" ? "refund" : "travel credit";
  return `Policy: ${what} of ${money(amount)} (${rule})`;
}

async function confirm(form) {
  clearErrors(form);
  const typed = committedValue(form.querySelector(byTestid("cancel-code")));
  try {
    const answer = await api.cancelBooking(target.booking.code, typed);
    dialog().close();
    target.onCancelled(answer.booking);
  } catch (err) {
    showApiError(form, "cancel", err);
  }
}
