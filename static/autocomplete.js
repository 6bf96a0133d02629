// Airport fields. The autocomplete's input shows the label ("New York, NY (JFK)"); the committed
// value is the IATA code. Options come from /api/airports?q=; an exact code typed and left commits.
// Some UI variants have a plain field for the typed code instead (no list): it shows the code.
import { api } from "./api.js";
import { commitWidget, normalize, setCommitted } from "./fields.js";
import { tid } from "./vocabulary.js";

const known = new Map();   // code -> airport, filled from every answer
let loadAll = null;

export function preloadAirports() {
  loadAll = loadAll || api.airports("").then(remember).catch(() => []);
  return loadAll;
}

function remember(data) {
  for (const airport of data.airports || []) known.set(airport.code, airport);
  return data.airports || [];
}

function airportLabel(code) {
  return known.get(code)?.label || code;
}

// Set a prefilled value without producing an event.
export function presetAirport(input, code) {
  setCommitted(input, code, isAutocomplete(input) ? airportLabel(code) : code);
}

function isAutocomplete(input) {
  return input.getAttribute("role") === "combobox";
}

export function initAirportField(input) {
  if (isAutocomplete(input)) initAutocomplete(input);
  else input.addEventListener("change", () => commitWidget(input, normalize(input, input.value)));
}

function initAutocomplete(input) {
  const list = document.getElementById(input.getAttribute("aria-controls"));
  const state = { input, list, options: [], active: -1, token: 0 };
  input.addEventListener("input", () => lookup(state));
  input.addEventListener("keydown", (e) => onKey(state, e));
  input.addEventListener("change", () => commitTyped(state));
  input.addEventListener("blur", () => close(state));
  // The list's mouse listeners sit on the field's unnamed wrapper: a page reader that lists every
  // element with click listeners and an aria-label (the papers') would show the named list as
  // one button. mousedown would blur the input before the click lands on the option.
  const wrapper = list.parentElement;
  wrapper.addEventListener("mousedown", (e) => list.contains(e.target) && e.preventDefault());
  wrapper.addEventListener("click", (e) => {
    const li = list.contains(e.target) ? e.target.closest("[role=option]") : null;
    if (li) pick(state, state.options[Number(li.dataset.index)]);
  });
}

async function lookup(state) {
  const q = state.input.value.trim();
  const token = ++state.token;
  if (!q) return close(state);
  let airports;
  try {
    airports = remember(await api.airports(q));
  } catch (err) {
    return close(state);
  }
  if (token !== state.token || document.activeElement !== state.input) return;
  render(state, airports);
}

function render(state, airports) {
  const { list, input } = state;
  state.options = airports;
  state.active = airports.length ? 0 : -1;
  list.replaceChildren(...airports.map((airport, index) => option(input, airport, index)));
  list.hidden = airports.length === 0;
  input.setAttribute("aria-expanded", String(!list.hidden));
  highlight(state);
}

function option(input, airport, index) {
  const li = document.createElement("li");
  li.setAttribute("role", "option");
  li.id = `${input.id}-option-${airport.code}`;
  li.dataset.testid = `${tid("airport-option")}-${airport.code}`;
  li.dataset.index = String(index);
  li.textContent = airport.label;
  return li;
}

function highlight(state) {
  const items = state.list.children;
  for (let i = 0; i < items.length; i++) {
    items[i].setAttribute("aria-selected", String(i === state.active));
  }
  const current = items[state.active];
  if (current) {
    state.input.setAttribute("aria-activedescendant", current.id);
    current.scrollIntoView({ block: "nearest" });
  } else {
    state.input.removeAttribute("aria-activedescendant");
  }
}

function close(state) {
  state.token++;
  state.list.hidden = true;
  state.list.replaceChildren();
  state.options = [];
  state.active = -1;
  state.input.setAttribute("aria-expanded", "false");
  state.input.removeAttribute("aria-activedescendant");
}

function onKey(state, e) {
  const open = !state.list.hidden;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    if (!open) return lookup(state);
    e.preventDefault();
    const step = e.key === "ArrowDown" ? 1 : -1;
    const count = state.options.length;
    state.active = (state.active + step + count) % count;
    highlight(state);
  } else if (e.key === "Enter" && open && state.active >= 0) {
    e.preventDefault();   // pick the entry instead of submitting the form
    pick(state, state.options[state.active]);
  } else if (e.key === "Escape" && open) {
    e.preventDefault();
    close(state);
  }
}

function pick(state, airport) {
  close(state);
  commitWidget(state.input, airport.code, airport.label);
}

// The user typed and left the field: an exact code or label commits that airport; anything
// else is committed as typed (upper-cased) and the server says what is wrong with it.
function commitTyped(state) {
  const text = state.input.value.trim();
  const byLabel = [...known.values()].find((a) => a.label.toLowerCase() === text.toLowerCase());
  const code = byLabel ? byLabel.code : normalize(state.input, text);
  const display = known.has(code) ? airportLabel(code) : text;
  commitWidget(state.input, code, display);
}
