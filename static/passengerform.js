// Prefilling and describing the six passenger fields ("passenger-*" or "modify-passenger-*").
// Each field's data-api names its passenger key; apiValues() (fields.js) reads them.
import { presetDate } from "./datepicker.js";

export function fillPassenger(form, passenger) {
  for (const el of form.querySelectorAll("[data-api]")) {
    const value = passenger[el.dataset.api] || "";
    if (el.dataset.kind === "date") presetDate(el, value);
    else el.value = value;
  }
}

export function describePassenger(p) {
  return `${p.title} ${p.first_name} ${p.last_name}`.trim();
}
