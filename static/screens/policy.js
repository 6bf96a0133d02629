// The airline policy's screens (hard suite only): Policy, the airline's rules as the server words them
// (GET /api/policy), and Transfer to supervisor, which hands the scenario's call to a supervisor with a
// summary (POST /api/customer/transfer); the call ends, and the form then says so and takes no more.
// (One module for both, so that the papers' pages load the same modules as ever.)
import { api } from "../api.js";
import { apiValues, clearErrors, showApiError, showFormError } from "../fields.js";
import { renderMarkdown } from "../markdown.js";
import { register, screen } from "../router.js";
import { onSubmit } from "../submitting.js";
import { byTestid } from "../vocabulary.js";

export function initPolicy() {
  const root = screen("policy");
  if (!root) return;  // a page without the airline policy
  register("policy", () => load(root));
}

async function load(root) {
  showFormError(root, "policy", "");
  try {
    const answer = await api.policy();
    root.querySelector("[data-policy]").replaceChildren(...renderMarkdown(answer.policy));
  } catch (err) {
    showFormError(root, "policy", err.message);
  }
}

const transferRoot = () => screen("transfer");

export function initTransfer() {
  if (!transferRoot()) return;  // a page without the airline policy
  onSubmit(transferRoot().querySelector('[data-form="transfer"]'), transfer);
  register("transfer", () => clearErrors(transferRoot()));
}

async function transfer(form) {
  clearErrors(transferRoot());
  try {
    await api.transferCall(apiValues(form).summary || "");
    transferRoot().querySelector(byTestid("transfer-done")).hidden = false;
    form.querySelector("[data-transfer-input]").hidden = true;
  } catch (err) {
    showApiError(transferRoot(), "transfer", err);
  }
}
