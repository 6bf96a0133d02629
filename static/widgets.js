// Shared by the autocomplete and the datepicker: commit a widget field's value and tell the
// event recorder (and anyone else listening) about it.
import { setCommitted } from "./fields.js";

export function commitWidget(input, value, display) {
  const changed = input.dataset.value !== value;
  setCommitted(input, value, display);
  if (changed) input.dispatchEvent(new CustomEvent("crm-commit", { bubbles: true }));
}
