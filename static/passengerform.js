// Prefilling and describing the six passenger fields ("passenger-*" or "modify-passenger-*");
// Title and Gender are a <select> or a group of radio buttons, as the page was rendered.
// Each field's data-api names its passenger key; apiValues() (fields.js) reads them.
import { presetDate } from "./datepicker.js";

export function fillPassenger(form, passenger) {
  for (const el of form.querySelectorAll("[data-api]")) {
    const value = passenger[el.dataset.api] || "";
    if (el.dataset.kind === "date") presetDate(el, value);
    else if (el.type === "radio") el.checked = el.value.toLowerCase() === value.toLowerCase();
    else el.value = value;
  }
}

export function describePassenger(p) {
  return `${p.title} ${p.first_name} ${p.last_name}`.trim();
}
