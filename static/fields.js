// Field values and messages: the one place that knows how a named field's committed value is
// read, normalized, and how server errors are put next to fields.
import { parseDate } from "./dates.js";
import { byClass, byTestid, semantic, tid } from "./vocabulary.js";

// A radio of a named field (a flight row, a booking match, a search result) whose choice is
// recorded as the field's fill, with `value`.
export function fieldRadio(field, value) {
  const radio = document.createElement("input");
  radio.type = "radio";
  radio.name = tid(field);
  radio.value = value;
  radio.dataset.field = tid(field);
  radio.dataset.testid = `${tid(field)}-${value}`;
  return radio;
}

// The semantic name of a field: data-field for radio groups and flight rows, else data-testid (each
// renamed in a UI variant other than 0: vocabulary.js reads the name back).
export function fieldName(el) {
  return semantic(el.dataset.field || el.dataset.testid || "");
}

export function normalize(el, raw) {
  const text = String(raw ?? "").trim();
  switch (el.dataset.kind) {
    case "airport": return text.toUpperCase();
    case "date": return parseDate(text) || text;
    case "card": return text.replace(/\D/g, "");
    default: return text;
  }
}

// Widgets (autocomplete, datepicker) keep their committed value in data-value.
export function committedValue(el) {
  if (el.dataset.value !== undefined) return el.dataset.value;
  return normalize(el, el.value);
}

// Set a widget's committed value (and what the field shows) without producing an event.
export function setCommitted(el, value, display) {
  el.dataset.value = value;
  el.value = display ?? value;
}

// Commit a widget's value and tell the event recorder (and anyone else listening) about it.
export function commitWidget(el, value, display) {
  const changed = el.dataset.value !== value;
  setCommitted(el, value, display);
  if (changed) el.dispatchEvent(new CustomEvent("crm-commit", { bubbles: true }));
}

// Empties a form, widgets' committed values included.
export function resetForm(form) {
  form.reset();
  for (const el of form.querySelectorAll("[data-value]")) delete el.dataset.value;
  clearErrors(form);
}

// The API body of a form: committed values of its enabled fields, keyed by their data-api
// name (a disabled field, such as the Return date of a one-way search, is left out); a radio
// group's value is its checked radio's, "" when none is.
export function apiValues(container) {
  const values = {};
  for (const el of container.querySelectorAll("[data-api]:not(:disabled)")) {
    takeValue(values, el.dataset.api, el);
  }
  return values;
}

// Put `el`'s committed value in `values[key]`; the radios of a group share the key, which holds the
// checked one's value ("" while none is).
function takeValue(values, key, el) {
  if (el.type !== "radio") values[key] = committedValue(el);
  else if (el.checked || !(key in values)) values[key] = el.checked ? el.value : "";
}

// Current committed values of every enabled named field inside a [data-form] container.
export function snapshot(container) {
  const fields = {};
  if (!container) return fields;
  for (const el of container.querySelectorAll("input, select, textarea")) {
    const name = fieldName(el);
    if (!name || el.disabled || el.closest("[data-no-record]")) continue;
    takeValue(fields, name, el);
  }
  return fields;
}

// ---- messages ----

function errorSlot(root, name) {
  return root.querySelector(byTestid(`${name}-error`));
}

export function clearErrors(root) {
  for (const slot of root.querySelectorAll(`${byClass("field-error")}, ${byClass("form-error")}`)) slot.textContent = "";
  for (const el of root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

// Editing a field that a refused submit marked invalid takes its mark and its message away, so
// the page never shows an error for a value that is no longer there; the form-level message stays
// until the next submit.
export function clearErrorOnEdit(root) {
  const clear = (event) => {
    // The marked element is the field itself, or the fieldset of a radio group.
    const el = event.target instanceof Element ? event.target.closest("[aria-invalid]") : null;
    if (!el || !root.contains(el)) return;
    el.removeAttribute("aria-invalid");
    const slot = errorSlot(root, fieldName(el));
    if (slot) slot.textContent = "";
  };
  root.addEventListener("input", clear);
  root.addEventListener("change", clear);
}

export function showFieldError(root, name, message) {
  const slot = errorSlot(root, name);
  const input = root.querySelector(byTestid(name));
  if (slot) slot.textContent = message;
  if (input) input.setAttribute("aria-invalid", "true");
  return Boolean(slot);
}

// Put an ApiError's per-field messages next to the fields whose data-api matches, and its
// main message (unless a field already shows it) plus any unplaced field message in the
// form-level slot.
export function showApiError(root, formTestid, err) {
  clearErrors(root);
  const placed = new Set();
  const orphans = [];
  for (const [key, message] of Object.entries(err.fields || {})) {
    const apiKey = key.split(".").pop();
    const input = root.querySelector(`[data-api="${apiKey}"]:not(:disabled)`);
    if (input && showFieldError(root, fieldName(input), message)) placed.add(message);
    else orphans.push(message);
  }
  const lines = placed.has(err.message) ? orphans : [err.message, ...orphans];
  showFormError(root, formTestid, [...new Set(lines)].join(" "));
}

export function showFormError(root, formTestid, message) {
  const slot = root.querySelector(byTestid(`${formTestid}-error`));
  if (slot) slot.textContent = message;
}
