// Event recorder. Only when the page is bound to a scenario: each fill (committed field value)
// and click (named button or link) becomes an event posted to /api/events, one at a time and
// in order, so the server numbers them as they happened. An API call waits until the events
// before it are delivered (eventsDelivered), so the server also orders calls among events.
// window.crm.whenIdle() lets a driver wait until every event (and every API call the page
// started) has been answered; window.crm.recordedEvents() is how many the server took.
import { fieldName, committedValue, snapshot } from "./fields.js";
import { randomId } from "./ids.js";
import { semantic } from "./vocabulary.js";

let pageId = randomId();
const queue = [];          // events not yet acknowledged; queue[0] is the one in flight
let seq = 0;
let sending = false;
let enabled = false;
let scenario = "";
let requestsInFlight = 0;
let recorded = 0;          // events the server took
const idleWaiters = [];
const deliveryWaiters = [];

export function enableRecording(scenarioId) {
  scenario = scenarioId;
  enabled = Boolean(scenarioId);
}

export function disableRecording() {
  enabled = false;
  queue.length = 0;
  settle();
}

function record(event) {
  if (!enabled) return;
  queue.push({ page: pageId, seq: ++seq, ...event });
  pump();
}

async function pump() {
  if (sending) return;
  sending = true;
  while (queue.length) {
    if (await deliver(queue[0])) recorded++;
    queue.shift();
  }
  sending = false;
  while (deliveryWaiters.length) deliveryWaiters.shift()();
  settle();
}

// Resolves once every event recorded so far has been answered.
export function eventsDelivered() {
  if (!queue.length && !sending) return Promise.resolve();
  return new Promise((resolve) => deliveryWaiters.push(resolve));
}

// Retries network and 5xx failures (the server ignores a repeated page+seq); a 4xx means the
// event itself is refused, so it is dropped rather than blocking the queue.
async function deliver(event) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      const response = await fetch("/api/events", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Scenario-Id": scenario },
        body: JSON.stringify(event),
        keepalive: true,
      });
      if (response.ok) return true;
      if (response.status < 500) {
        console.warn("event refused", response.status, event);
        return false;
      }
    } catch (err) {
      // network error: retry below
    }
    await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
  }
  console.warn("event dropped after retries", event);
  return false;
}

// API calls count as activity too, so that after whenIdle() the state they change is saved.
export function trackRequest(promise) {
  requestsInFlight++;
  const done = () => {
    requestsInFlight--;
    settle();
  };
  promise.then(done, done);
  return promise;
}

function isIdle() {
  return queue.length === 0 && !sending && requestsInFlight === 0;
}

// Checked after a tick so that a request started from another one's answer keeps us busy.
function settle() {
  setTimeout(() => {
    if (!isIdle()) return;
    while (idleWaiters.length) idleWaiters.shift()();
  }, 0);
}

function whenIdle() {
  return new Promise((resolve) => {
    idleWaiters.push(resolve);
    settle();
  });
}

function pendingEvents() {
  return queue.length;
}

// ---- DOM listeners ----

function isRecordable(el) {
  return el && fieldName(el) && !el.closest("[data-no-record]");
}

function recordFill(el) {
  record({ action: "fill", target: fieldName(el), value: committedValue(el) });
}

function onChange(event) {
  const el = event.target;
  if (!isRecordable(el) || el.dataset.commit === "widget") return;
  if (el.type === "radio" && !el.checked) return;
  recordFill(el);
}

// Autocomplete and datepicker announce their committed value with a "crm-commit" event.
function onWidgetCommit(event) {
  if (isRecordable(event.target)) recordFill(event.target);
}

function onClick(event) {
  const el = event.target.closest?.("button[data-testid], a[data-testid]");
  if (!el || el.disabled || el.closest("[data-no-record]")) return;
  record({
    action: "click",
    target: semantic(el.dataset.testid),
    fields: snapshot(el.closest("[data-form]")),
  });
}

// A new scenario in the same document (app.js switchScenario) is recorded as a new page would be.
export function restartRecording() {
  pageId = randomId();
  seq = 0;
  recorded = 0;
  window.crm.pageId = pageId;
}

export function installRecorder() {
  // Capture phase: the snapshot is taken before any handler changes the page.
  document.addEventListener("change", onChange, true);
  document.addEventListener("crm-commit", onWidgetCommit, true);
  document.addEventListener("click", onClick, true);
  window.crm = Object.assign(window.crm || {}, {
    ready: false, whenIdle, pendingEvents, pageId, recordedEvents: () => recorded,
  });
}
