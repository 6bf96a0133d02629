// JSON API client: adds the scenario id to every call and turns 4xx/5xx answers into ApiError.
// Each call of a write (book, cancel, change passenger, change flights) is one submit and
// carries its own Idempotency-Key, so the server makes it happen once.
import { eventsDelivered, trackRequest } from "./events.js";
import { randomId } from "./ids.js";

const params = new URLSearchParams(location.search);
// A ?scenario= given but empty is passed on as it is: the server refuses it rather than
// silently working on the sandbox.
export let scenarioId = params.get("scenario") || "";
export let scenarioGiven = params.has("scenario");

// How many rows the scenario's call has stored (its lines and an end mark), as the last answer of
// the call's routes said; null until one has answered. A driver reads it after each step
// (window.crm.callLines()) as a timeline mark's second number (GET /evaluate?timeline=).
let callLines = null;
window.crm = Object.assign(window.crm || {}, { callLines: () => callLines });

// The page now works on scenario `id` (a warm switch, app.js switchScenario).
export function useScenario(id) {
  scenarioId = id;
  scenarioGiven = true;
  callLines = null;
}

class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `Request failed (${status})`);
    this.status = status;
    this.fields = body.fields || {};
  }
}

async function request(method, path, body, idempotent = false) {
  const headers = { Accept: "application/json" };
  if (scenarioGiven) headers["X-Scenario-Id"] = scenarioId;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotent) headers["Idempotency-Key"] = randomId(24);
  const init = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  return trackRequest(eventsDelivered().then(() => send(path, init)));
}

async function send(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { error: "The server cannot be reached; try again" });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data);
  if (path.startsWith("/api/customer/") && Number.isInteger(data.lines)) callLines = data.lines;
  return data;
}

function query(params) {
  const usp = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) usp.set(key, value);
  }
  return usp.toString();
}

export const api = {
  config: () => request("GET", "/api/config"),
  airports: (q) => request("GET", `/api/airports?${query({ q })}`),
  searchFlights: (params) => request("GET", `/api/flights/search?${query(params)}`),
  // fare: a fare family (the hard suite); left out, the server quotes Standard
  quote: (outward, back, fare) => request("GET", `/api/quote?${query({ outward, return: back, fare })}`),
  validatePassenger: (passenger) => request("POST", "/api/passenger/validate", { passenger }),
  createBooking: (payload) => request("POST", "/api/bookings", payload, true),
  getBooking: (code) => request("GET", bookingPath(code)),
  searchBookings: (params) => request("GET", `/api/bookings?${query(params)}`),
  policy: () => request("GET", "/api/policy"),
  // the expert suite's knowledge base: ranked search results, one article with its body
  searchKnowledgeBase: (q) => request("GET", `/api/kb/search?${query({ q })}`),
  readArticle: (id) => request("GET", `/api/kb/articles/${encodeURIComponent(id)}`),
  transferCall: (summary) => request("POST", "/api/customer/transfer", { summary }, true),
  // the call panel: the call so far, a line said to the customer (its reply), the call ended by the rep
  callMessages: () => request("GET", "/api/customer/messages"),
  sayToCustomer: (text) => request("POST", "/api/customer/messages", { text }, true),
  endCall: () => request("POST", "/api/customer/end", undefined, true),
  cancelBooking: (code, typed) =>
    request("POST", `${bookingPath(code)}/cancel`, { confirmation_code: typed }, true),
  updatePassenger: (code, fields) => request("PATCH", `${bookingPath(code)}/passenger`, fields, true),
  changeFlights: (code, ids) => request("PUT", `${bookingPath(code)}/flights`, ids, true),
  quoteFlightChange: (code, outward, back) =>
    request("GET", `${bookingPath(code)}/flights/quote?${query({ outward, return: back })}`),
  // the hard suite's fare upgrade: what it costs, then the upgrade itself
  quoteFareUpgrade: (code, fare) => request("GET", `${bookingPath(code)}/fare/quote?${query({ fare })}`),
  upgradeFare: (code, fare) => request("POST", `${bookingPath(code)}/fare`, { fare }, true),
};

function bookingPath(code) {
  return `/api/bookings/${encodeURIComponent(code)}`;
}
