// Reading and prefilling the six passenger fields ("passenger-*" or "modify-passenger-*").
import { committedValue } from "./fields.js";
import { presetDate } from "./datepicker.js";

const KEYS = {
  title: "title", firstname: "first_name", lastname: "last_name",
  email: "email", gender: "gender", dob: "date_of_birth",
};

function input(prefix, suffix) {
  return document.querySelector(`[data-testid="${prefix}-${suffix}"]`);
}

export function readPassenger(prefix) {
  const passenger = {};
  for (const [suffix, key] of Object.entries(KEYS)) passenger[key] = committedValue(input(prefix, suffix));
  return passenger;
}

export function fillPassenger(prefix, passenger) {
  for (const [suffix, key] of Object.entries(KEYS)) {
    const el = input(prefix, suffix);
    if (suffix === "dob") presetDate(el, passenger[key] || "");
    else el.value = passenger[key] || "";
  }
}

export function describePassenger(p) {
  return `${p.title} ${p.first_name} ${p.last_name}`.trim();
}
