// Modify booking: change passenger fields (Save) or change flights (search, select, Save flights).
import { api } from "../api.js";
import { presetAirport } from "../autocomplete.js";
import { presetDate } from "../datepicker.js";
import { apiValues, clearErrors, showApiError, showFormError } from "../fields.js";
import { chosenFlights, itinerary, renderFlightLists } from "../flightlist.js";
import { setTripType } from "../flightsearch.js";
import { fillPassenger } from "../passengerform.js";
import { register, screen, show } from "../router.js";

const state = { booking: null, results: null };
const root = () => screen("modify");
const part = (selector) => root().querySelector(selector);

export function initModify() {
  part('[data-form="modify-passenger"]').addEventListener("submit", (e) => {
    e.preventDefault();
    savePassenger();
  });
  part('[data-testid="change-flights"]').addEventListener("click", openChangePanel);
  part("[data-change-search]").addEventListener("submit", (e) => {
    e.preventDefault();
    searchFlights();
  });
  part('[data-testid="save-flights"]').addEventListener("click", saveFlights);
  part('[data-testid="modify-back"]').addEventListener("click", () => show("booking", state.booking));
  register("modify", (booking) => {
    Object.assign(state, { booking, results: null });
    clearErrors(root());
    for (const el of root().querySelectorAll('[role="status"]')) el.textContent = "";
    part("[data-modify-code]").textContent = booking.code;
    fillPassenger(part('[data-form="modify-passenger"]'), booking.passenger);
    renderFlights();
  });
}

function renderFlights() {
  itinerary(part("[data-itinerary]"), state.booking.flights);
  part("[data-change-panel]").hidden = true;
  part('[data-testid="change-flights"]').hidden = false;
}

// Only the fields that differ from the booking are sent.
async function savePassenger() {
  const form = part('[data-form="modify-passenger"]');
  clearErrors(form);
  part('[data-testid="modify-passenger-status"]').textContent = "";
  const typed = apiValues(form);
  const changes = Object.fromEntries(
    Object.entries(typed).filter(([key, value]) => value !== (state.booking.passenger[key] || "")));
  try {
    const answer = await api.updatePassenger(state.booking.code, changes);
    state.booking = answer.booking;
    fillPassenger(form, answer.booking.passenger);
    part('[data-testid="modify-passenger-status"]').textContent = "Passenger details saved.";
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
  const panel = part("[data-change-panel]");
  presetAirport(part('[data-testid="change-from"]'), outward.from);
  presetAirport(part('[data-testid="change-to"]'), outward.to);
  presetDate(part('[data-testid="change-depart"]'), outward.date);
  presetDate(part('[data-testid="change-return"]'), back ? back.date : "");
  setTripType(panel, state.booking.trip_type);
  for (const list of panel.querySelectorAll("[data-results]")) list.replaceChildren();
  clearErrors(panel);
  part('[data-testid="change-flights-status"]').textContent = "";
  panel.hidden = false;
  part('[data-testid="change-flights"]').hidden = true;
  part('[data-testid="change-depart"]').focus();
}

async function searchFlights() {
  const panel = part("[data-change-panel]");
  clearErrors(panel);
  try {
    state.results = await api.searchFlights(apiValues(part("[data-change-search]")));
    renderFlightLists(panel, state.results, state.booking.trip_type, "change-");
  } catch (err) {
    showApiError(panel, "change-flights", err);
  }
}

async function saveFlights() {
  const panel = part("[data-change-panel]");
  clearErrors(panel);
  if (!state.results) return showFormError(panel, "change-flights", "Search for flights first.");
  const chosen = chosenFlights(panel, state.results, state.booking.trip_type, "change-");
  if (chosen.missing) return showFormError(panel, "change-flights", chosen.missing);
  try {
    const answer = await api.changeFlights(state.booking.code, {
      outward_flight_id: chosen.outward.id,
      return_flight_id: chosen.return ? chosen.return.id : null,
    });
    state.booking = answer.booking;
    renderFlights();
    part('[data-testid="change-flights-status"]').textContent = "Flights changed.";
  } catch (err) {
    showApiError(panel, "change-flights", err);
  }
}
