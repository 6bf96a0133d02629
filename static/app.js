// Boot: load the configuration (and check the scenario), wire the widgets and screens, show
// the first screen, then set window.crm.ready.
import { api, scenarioGiven, scenarioId } from "./api.js";
import { initAirportField, preloadAirports } from "./autocomplete.js";
import { configureDates, initDateField, initDatepicker } from "./datepicker.js";
import { disableRecording, enableRecording, installRecorder } from "./events.js";
import { clearErrorOnEdit } from "./fields.js";
import { startRouter } from "./router.js";
import { initBooking } from "./screens/booking.js";
import { initBookingSearch } from "./screens/bookingsearch.js";
import { initCancelDialog } from "./screens/cancel.js";
import { initConfirmation } from "./screens/confirmation.js";
import { initFind } from "./screens/find.js";
import { initModify } from "./screens/modify.js";
import { initPassenger } from "./screens/passenger.js";
import { initPayment } from "./screens/payment.js";
import { initPolicy } from "./screens/policy.js";
import { initResults } from "./screens/results.js";
import { initSearch } from "./screens/search.js";
import { byTestid } from "./vocabulary.js";

function showBanner(message) {
  const banner = document.querySelector(byTestid("scenario-banner"));
  banner.textContent = message;
  banner.hidden = false;
}

// The page is rendered with the configuration; /api/config confirms the scenario exists.
async function loadConfig() {
  const body = document.body.dataset;
  const fallback = { today: body.today, first_date: body.firstDate, last_date: body.lastDate,
    earliest_birth_date: body.earliestBirthDate };
  try {
    const config = await api.config();
    if (scenarioGiven && config.scenario !== scenarioId) throw new Error();
    return config;
  } catch (err) {
    if (scenarioGiven) {
      disableRecording();
      const reason = err.message || `Unknown scenario: ${scenarioId}`;
      showBanner(`${reason}; actions on this page are not recorded ` +
        "(ask /generate-random-scenario for a new scenario link)");
    }
    return fallback;
  }
}

function initWidgets() {
  clearErrorOnEdit(document);
  initDatepicker();
  for (const input of document.querySelectorAll('[data-kind="airport"]')) initAirportField(input);
  for (const input of document.querySelectorAll('[data-kind="date"]')) initDateField(input);
}

function initScreens() {
  initSearch();
  initResults();
  initPassenger();
  initPayment();
  initConfirmation();
  initFind();
  initBooking();
  initCancelDialog();
  initModify();
  initBookingSearch();
  initPolicy();
}

async function boot() {
  installRecorder();
  enableRecording(scenarioId);
  const airports = preloadAirports(); // in parallel with the config check
  const config = await loadConfig();
  configureDates(config);
  document.querySelector(byTestid("today")).textContent = config.today || "";
  initWidgets();
  initScreens();
  await airports;
  startRouter();
  window.crm.ready = true;
}

boot();
