// Policy (hard suite only): the airline's rules for changes and cancellations, as the server words
// them (GET /api/policy).
import { api } from "../api.js";
import { showFormError } from "../fields.js";
import { renderMarkdown } from "../markdown.js";
import { register, screen } from "../router.js";

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
