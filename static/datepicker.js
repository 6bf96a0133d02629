// Month-grid datepicker shared by every date field. Opened by the calendar button next to a
// field, which moves focus into it; a picked day or a typed MM/DD/YYYY or YYYY-MM-DD date is
// committed as ISO. It closes on Escape (wherever focus is), on a click outside, when its form is
// submitted and when the screen changes, so it never lingers over the next screen.
import { MONTHS, daysInMonth, formatUs, isoOf, parseDate, splitIso, weekdayOf } from "./dates.js";
import { commitWidget, normalize, setCommitted } from "./fields.js";
import { SCREEN_CHANGE } from "./router.js";
import { byClass, byTestid, tid } from "./vocabulary.js";

const ranges = { sellable: ["", ""], birth: ["", ""] };
let today = "";
const popup = () => document.querySelector(byTestid("datepicker"));
const view = { input: null, year: 0, month: 0 };

export function configureDates(config) {
  today = config.today;
  ranges.sellable = [config.first_date, config.last_date];
  ranges.birth = [config.earliest_birth_date, config.today];
}

// What a date field shows for a committed value: MM/DD/YYYY (or YYYY-MM-DD where the field says that
// is its format), or the text as typed when it is not a date.
function shown(input, value) {
  if (!parseDate(value)) return value;
  return input.dataset.format === "iso" ? parseDate(value) : formatUs(value);
}

// Set a prefilled value without producing an event.
export function presetDate(input, iso) {
  if (isParts(input)) return presetParts(input, iso || "");
  setCommitted(input, iso || "", shown(input, iso || ""));
}

// A field with a calendar button opens the month grid; a typed-only field (some UI variants) has none.
export function initDateField(input) {
  if (isParts(input)) return initParts(input);
  const opener = openerOf(input);
  opener?.addEventListener("click", () => (view.input === input ? close() : open(input)));
  input.addEventListener("input", () => view.input === input && close());
  input.addEventListener("change", () => commitTyped(input));
}

// The month grid's buttons, on the body as served (again after a switch to another scenario).
export function initDatepicker() {
  const el = popup();
  view.input = null;
  el.querySelector(byTestid("datepicker-prev")).addEventListener("click", () => shift(-1));
  el.querySelector(byTestid("datepicker-next")).addEventListener("click", () => shift(1));
  el.querySelector(byTestid("datepicker-close")).addEventListener("click", () => close(true));
  el.querySelector(byClass("dp-grid")).addEventListener("click", onDayClick);
  el.querySelector(byClass("dp-jump")).addEventListener("change", onJump);
}

// What closes the grid from anywhere: the document's listeners, installed once per page load.
export function installDatepicker() {
  document.addEventListener("keydown", onEscape);
  document.addEventListener("mousedown", onOutside, true);
  document.addEventListener("submit", () => close(), true);
  document.addEventListener(SCREEN_CHANGE, () => close());
  window.addEventListener("resize", () => view.input && place());
}

// ---- a date as three selects (month, day, year; some UI variants) ----
// The semantic field is a hidden input beside them that holds the committed ISO date.

function isParts(input) {
  return input.type === "hidden";
}

function partsOf(input) {
  return Object.fromEntries([...input.parentElement.querySelectorAll("select[data-part]")]
    .map((select) => [select.dataset.part, select]));
}

function initParts(input) {
  for (const select of Object.values(partsOf(input))) select.addEventListener("change", () => commitParts(input));
}

function commitParts(input) {
  const { year, month, day } = partsOf(input);
  const iso = year.value && month.value && day.value ? isoOf(year.value, Number(month.value), Number(day.value)) : "";
  commitWidget(input, iso, "");
}

function presetParts(input, iso) {
  const [year, month, day] = iso ? iso.split("-") : ["", "", ""];
  const parts = partsOf(input);
  parts.year.value = year;
  parts.month.value = month ? String(Number(month)) : "";
  parts.day.value = day ? String(Number(day)) : "";
  setCommitted(input, iso, "");
}

function openerOf(input) {
  return document.querySelector(`[data-calendar-for="${input.id}"]`);
}

function onEscape(e) {
  if (e.key !== "Escape" || !view.input) return;
  e.preventDefault();
  close(true);
}

function commitTyped(input) {
  const value = normalize(input, input.value);
  commitWidget(input, value, shown(input, value));
}

function rangeOf(input) {
  return ranges[input.dataset.range] || ranges.sellable;
}

function open(input) {
  const iso = parseDate(input.dataset.value || input.value);
  const start = iso || defaultMonth(input);
  Object.assign(view, { input, ...splitIso(start) });
  popup().hidden = false;
  popup().querySelector(byClass("dp-jump")).hidden = input.dataset.range !== "birth";
  render();
  place();
  focusInside();
}

// The chosen day, else today, else the first day that can be picked, else the popup's controls.
function focusInside() {
  const grid = popup().querySelector(byClass("dp-grid"));
  const target = grid.querySelector("button[aria-pressed=true]:not(:disabled)")
    || grid.querySelector("button[aria-current=date]:not(:disabled)")
    || grid.querySelector("button:not(:disabled)")
    || popup().querySelector("button:not(:disabled)");
  target.focus();
}

// A return date opens at the departure month; a birth date some thirty years back.
function defaultMonth(input) {
  const [min] = rangeOf(input);
  const partner = input.dataset.opensAt && document.getElementById(input.dataset.opensAt);
  const partnerIso = partner && parseDate(partner.dataset.value || "");
  if (partnerIso) return partnerIso;
  if (input.dataset.range === "birth") return isoOf(splitIso(today).year - 30, 1, 1);
  return min > today ? min : today;
}

// With `refocus` (Escape, Close calendar), focus goes back to the calendar button that opened it.
function close(refocus = false) {
  const input = view.input;
  if (!input) return;
  view.input = null;
  popup().hidden = true;
  if (refocus) openerOf(input).focus();
}

function onOutside(e) {
  if (!view.input) return;
  if (popup().contains(e.target) || openerOf(view.input).contains(e.target) || e.target === view.input) return;
  close();
}

// Beside the field when there is room (so it never covers the fields below), else under it.
function place() {
  const el = popup();
  const box = view.input.closest(byClass("date-row")).getBoundingClientRect();
  const width = el.offsetWidth;
  const right = box.right + 8;
  const fitsRight = right + width <= document.documentElement.clientWidth;
  el.style.left = `${(fitsRight ? right : box.left) + window.scrollX}px`;
  el.style.top = `${(fitsRight ? box.top : box.bottom + 4) + window.scrollY}px`;
}

function shift(step) {
  const index = view.year * 12 + (view.month - 1) + step;
  view.year = Math.floor(index / 12);
  view.month = (index % 12) + 1;
  render();
}

function onJump(e) {
  const value = Number(e.target.value);
  if (e.target.dataset.testid === tid("datepicker-year")) view.year = value;
  else view.month = value;
  render();
}

function onDayClick(e) {
  const button = e.target.closest("button[data-iso]");
  if (!button || button.disabled) return;
  const input = view.input;
  close();
  commitWidget(input, button.dataset.iso, shown(input, button.dataset.iso));
  input.focus();
}

// ---- rendering ----

function render() {
  const el = popup();
  const [min, max] = rangeOf(view.input);
  const first = isoOf(view.year, view.month, 1);
  const last = isoOf(view.year, view.month, daysInMonth(view.year, view.month));
  el.querySelector(byClass("dp-title")).textContent = `${MONTHS[view.month - 1]} ${view.year}`;
  el.querySelector(byTestid("datepicker-prev")).disabled = Boolean(min) && first <= min;
  el.querySelector(byTestid("datepicker-next")).disabled = Boolean(max) && last >= max;
  renderJump(el, min, max);
  el.querySelector(byClass("dp-grid")).replaceChildren(header(), ...weeks(min, max));
}

function renderJump(el, min, max) {
  if (view.input.dataset.range !== "birth") return;
  const years = [];
  const top = Number((max || today).slice(0, 4));
  for (let y = top; y >= Number(min.slice(0, 4)); y--) years.push(y);
  fillSelect(el.querySelector(byTestid("datepicker-year")), years.map((y) => [y, y]), view.year);
  fillSelect(el.querySelector(byTestid("datepicker-month")),
    MONTHS.map((name, i) => [i + 1, name]), view.month);
}

function fillSelect(select, pairs, current) {
  select.replaceChildren(...pairs.map(([value, text]) => new Option(text, value)));
  select.value = String(current);
}

function header() {
  const row = document.createElement("tr");
  for (const name of ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]) {
    const th = document.createElement("th");
    th.textContent = name;
    th.scope = "col";
    row.append(th);
  }
  return row;
}

function weeks(min, max) {
  const rows = [];
  let row = document.createElement("tr");
  const lead = weekdayOf(view.year, view.month, 1);
  for (let i = 0; i < lead; i++) row.append(document.createElement("td"));
  for (let day = 1; day <= daysInMonth(view.year, view.month); day++) {
    if (row.children.length === 7) {
      rows.push(row);
      row = document.createElement("tr");
    }
    row.append(dayCell(isoOf(view.year, view.month, day), min, max));
  }
  rows.push(row);
  return rows;
}

function dayCell(iso, min, max) {
  const td = document.createElement("td");
  const button = document.createElement("button");
  const { year, month, day } = splitIso(iso);
  button.type = "button";
  button.textContent = String(day);
  button.dataset.iso = iso;
  button.dataset.testid = `${tid("datepicker-day")}-${iso}`;
  button.setAttribute("aria-label", `${MONTHS[month - 1]} ${day}, ${year}`);
  button.disabled = Boolean((min && iso < min) || (max && iso > max));
  if (iso === today) button.setAttribute("aria-current", "date");
  if (iso === view.input.dataset.value) button.setAttribute("aria-pressed", "true");
  td.append(button);
  return td;
}
