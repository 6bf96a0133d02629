// Modify booking: change passenger fields (Save) or change flights (search, select, see the fare
// difference, Save flights). Save flights is offered once a search has listed flights; the
// booking's current flights are marked in the lists. In the hard suite the quote also says what the
// policy charges for the change; saving is not stopped when the policy refuses it.
import { api } from "../api.js";
import { presetAirport } from "../autocomplete.js";
import { presetDate } from "../datepicker.js";
import { apiValues, clearErrors, showApiError, showFormError } from "../fields.js";
import { bookedFlights, chosenFlights, itinerary, money, renderFlightLists, signedMoney } from "../flightlist.js";
import { setTripType } from "../flightsearch.js";
import { fillPassenger } from "../passengerform.js";
import { register, screen, show } from "../router.js";
import { onSubmit, whileBusy } from "../submitting.js";
import { byTestid } from "../vocabulary.js";

const state = { booking: null, results: null, quotes: 0 };
const shownListeners = [];  // other cards of the screen that follow the booking shown
const root = () => screen("modify");
const part = (selector) => root().querySelector(selector);
const panel = () => part("[data-change-panel]");

export function initModify() {
  onSubmit(part('[data-form="modify-passenger"]'), savePassenger);
  part(byTestid("change-flights")).addEventListener("click", openChangePanel);
  onSubmit(part("[data-change-search]"), searchFlights);
  part("[data-results='outward']").addEventListener("change", showFareDifference);
  part("[data-results='return']").addEventListener("change", showFareDifference);
  const save = part(byTestid("save-flights"));
  save.addEventListener("click", () => whileBusy(save, saveFlights));
  part(byTestid("modify-back")).addEventListener("click", () => show("booking", state.booking));
  register("modify", (booking) => {
    Object.assign(state, { booking, results: null });
    clearErrors(root());
    for (const el of root().querySelectorAll('[role="status"]')) el.textContent = "";
    part("[data-modify-code]").textContent = booking.code;
    fillPassenger(part('[data-form="modify-passenger"]'), booking.passenger);
    renderFlights();
    for (const listener of shownListeners) listener(booking);
  });
}

// A card the hard look adds to the screen (the fare upgrade, screens/policy.js) is told each booking shown.
export function whenModifyShown(listener) {
  shownListeners.push(listener);
}

// The booking as another card of the screen changed it (a fare upgrade): the flights card starts
// over from it, so a change is then searched and quoted at the new fare and its terms.
export function modifiedElsewhere(booking) {
  state.booking = booking;
  renderFlights();
}

function renderFlights() {
  itinerary(part("[data-itinerary]"), bookedFlights(state.booking));
  panel().hidden = true;
  part(byTestid("change-flights")).hidden = false;
}

// Only the fields that differ from the booking are sent.
async function savePassenger(form) {
  clearErrors(form);
  part(byTestid("modify-passenger-status")).textContent = "";
  const typed = apiValues(form);
  const changes = Object.fromEntries(
    Object.entries(typed).filter(([key, value]) => value !== (state.booking.passenger[key] || "")));
  try {
    const answer = await api.updatePassenger(state.booking.code, changes);
    state.booking = answer.booking;
    fillPassenger(form, answer.booking.passenger);
    part(byTestid("modify-passenger-status")).textContent = "Passenger details saved";
  } catch (err) {
    showApiError(form, "modify-passenger", err);
  }
}

function flightOf(direction) {
  return state.booking.flights.find((f) => f.direction === direction);
}

function openChangePanel() {
  const outward = flightOf("outward");
  const back = flightOf("return");
  presetAirport(part(byTestid("change-from")), outward.from);
  presetAirport(part(byTestid("change-to")), outward.to);
  presetDate(part(byTestid("change-depart")), outward.date);
  presetDate(part(byTestid("change-return")), back ? back.date : "");
  setTripType(panel(), state.booking.trip_type);
  showResults(null);
  part(byTestid("change-flights-status")).textContent = "";
  panel().hidden = false;
  part(byTestid("change-flights")).hidden = true;
  part(byTestid("change-depart")).focus();
}

// The search answer's flight lists with Save flights under them, or (null) neither.
function showResults(results) {
  state.results = results;
  clearErrors(panel());
  showQuote("", null);
  part("[data-change-save]").hidden = !results;
  if (!results) {
    for (const list of panel().querySelectorAll("[data-results]")) list.replaceChildren();
    return;
  }
  const current = new Set(state.booking.flights.map((f) => f.id));
  renderFlightLists(panel(), results, state.booking.trip_type, "change-", current, state.booking.fare);
}

async function searchFlights(form) {
  clearErrors(panel());
  try {
    showResults(await api.searchFlights(apiValues(form)));
  } catch (err) {
    showResults(null);
    showApiError(panel(), "change-flights", err);
  }
}

// Once every flight the booking needs is selected: what the change costs, before saving it.
async function showFareDifference() {
  showQuote("", null);
  const chosen = chosenFlights(panel(), state.results, state.booking.trip_type, "change-");
  if (chosen.missing) return;
  const asked = ++state.quotes;
  try {
    const quote = await api.quoteFlightChange(state.booking.code, chosen.outward.id, chosen.return?.id);
    if (asked !== state.quotes) return;  // a newer selection was made meanwhile
    showQuote(`Fare difference: ${signedMoney(quote.difference)} ` +
      `(new total ${money(quote.total)}, now ${money(quote.current_total)})`, quote.policy);
  } catch (err) {
    if (asked === state.quotes) showApiError(panel(), "change-flights", err);
  }
}

// The quote line, and under it the policy's terms for the change when the quote has them.
function showQuote(text, terms) {
  part(byTestid("change-flights-quote")).textContent = text;
  const line = part(byTestid("change-terms"));
  if (line) line.textContent = terms ? changeTerms(terms) : "";
}

function changeTerms({ outcome, amount, rule }) {
  if (outcome !== "allowed") return `Policy: not allowed — ${rule}`;
  return `Change fee and difference due: ${money(amount)} (${rule})`;
}

async function saveFlights() {
  clearErrors(panel());
  if (!state.results) return showFormError(panel(), "change-flights", "Search for flights first");
  const chosen = chosenFlights(panel(), state.results, state.booking.trip_type, "change-");
  if (chosen.missing) return showFormError(panel(), "change-flights", chosen.missing);
  try {
    const answer = await api.changeFlights(state.booking.code, {
      outward_flight_id: chosen.outward.id,
      return_flight_id: chosen.return ? chosen.return.id : null,
    });
    state.booking = answer.booking;
    renderFlights();
    part(byTestid("change-flights-status")).textContent = "Flights changed";
  } catch (err) {
    showApiError(panel(), "change-flights", err);
  }
}
