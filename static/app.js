// Boot: load the configuration (and check the scenario), wire the widgets and screens, show
// the first screen, then set window.crm.ready. window.crm.switchScenario(id, url) starts the
// page over on another scenario of the same look, as if it had been loaded at `url`.
import { api, scenarioGiven, scenarioId, useScenario } from "./api.js";
import { initCall } from "./call.js";
import { initAirportField, preloadAirports } from "./autocomplete.js";
import { configureDates, initDateField, initDatepicker, installDatepicker } from "./datepicker.js";
import { disableRecording, enableRecording, installRecorder, restartRecording } from "./events.js";
import { clearErrorOnEdit } from "./fields.js";
import { installRouter, startRouter } from "./router.js";
import { initBooking } from "./screens/booking.js";
import { initBookingSearch } from "./screens/bookingsearch.js";
import { initCancelDialog } from "./screens/cancel.js";
import { initConfirmation } from "./screens/confirmation.js";
import { initFind } from "./screens/find.js";
import { initKnowledgeBase } from "./screens/kb.js";
import { initModify } from "./screens/modify.js";
import { initPassenger } from "./screens/passenger.js";
import { initPayment } from "./screens/payment.js";
import { initPolicy, initTransfer, initUpgrade } from "./screens/policy.js";
import { initResults } from "./screens/results.js";
import { initSearch } from "./screens/search.js";
import { restartFlow } from "./state.js";
import { byTestid } from "./vocabulary.js";

const pristine = document.body.cloneNode(true);  // the body as served, before any script changed it

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
  initKnowledgeBase();
  initTransfer();
  initUpgrade();
}

// Everything a page does for its scenario, on the body as served.
async function start() {
  enableRecording(scenarioId);
  const airports = preloadAirports(); // in parallel with the config check
  const config = await loadConfig();
  configureDates(config);
  document.querySelector(byTestid("today")).textContent = config.today || "";
  initWidgets();
  initScreens();
  await Promise.all([airports, initCall()]);  // the call panel's transcript is on the page once it is ready
  startRouter();
  window.crm.ready = true;
}

// The same page on scenario `id` (a driver's warm reset): once the last scenario's events are
// delivered, the body as served, every module's state as at load, and the start run again.
async function switchScenario(id, url) {
  window.crm.ready = false;
  await window.crm.whenIdle();
  disableRecording();
  history.replaceState(null, "", url);
  useScenario(id);
  restartRecording();
  restartFlow();  // the airports the page fetched stay: they are the same for every scenario
  const body = pristine.cloneNode(true);
  body.dataset.scenario = id;
  document.body.replaceWith(body);
  await start();
}

// Once per page load: the document's listeners (they outlive a switch), then the start.
async function boot() {
  installRecorder();
  installDatepicker();
  installRouter();
  window.crm.switchScenario = switchScenario;
  await start();
}

boot();
