// JSON API client: adds the scenario id to every call and turns 4xx/5xx answers into ApiError.
import { trackRequest } from "./events.js";

export const scenarioId = new URLSearchParams(location.search).get("scenario") || "";

class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `Request failed (${status})`);
    this.status = status;
    this.fields = body.fields || {};
  }
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (scenarioId) headers["X-Scenario-Id"] = scenarioId;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const init = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  return trackRequest(send(path, init));
}

async function send(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { error: "The server cannot be reached. Please try again." });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data);
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
  quote: (outward, back) => request("GET", `/api/quote?${query({ outward, return: back })}`),
  validatePassenger: (passenger) => request("POST", "/api/passenger/validate", { passenger }),
  createBooking: (payload) => request("POST", "/api/bookings", payload),
  getBooking: (code) => request("GET", `/api/bookings/${encodeURIComponent(code)}`),
  cancelBooking: (code, typed) =>
    request("POST", `/api/bookings/${encodeURIComponent(code)}/cancel`, { confirmation_code: typed }),
  updatePassenger: (code, fields) =>
    request("PATCH", `/api/bookings/${encodeURIComponent(code)}/passenger`, fields),
  changeFlights: (code, ids) =>
    request("PUT", `/api/bookings/${encodeURIComponent(code)}/flights`, ids),
};
