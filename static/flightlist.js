// Flight tables: one row per flight, selectable by its radio or by clicking the row (on the
// results screen and when changing a booking's flights), and a read-only itinerary list for
// summaries. Flights that carry their fare families' prices (hard suite) show all of them, or,
// when changing a booking, the price in the booking's fare; flights that carry a status (hard
// suite) say when the airline cancelled or delayed them.
import { formatLong } from "./dates.js";
import { fieldRadio } from "./fields.js";
import { cls, flightLayout, tid, word } from "./vocabulary.js";

const COLUMNS = ["", "Depart", "From", "Arrive", "To", "Flight", "Duration"];  // then the price columns

export function money(amount) {
  return `$${amount}`;
}

// A signed difference from the server ("+12.30", "-4.05", "0.00") as "+$12.30", "-$4.05", "$0.00".
export function signedMoney(amount) {
  const sign = /^[+-]/.test(amount) ? amount[0] : "";
  return `${sign}${money(amount.replace(/^[+-]/, ""))}`;
}

// "Cancelled by the airline", "Delayed 3 h 40 min"; "" for a flight on time or without a status.
export function flightStatus(flight) {
  if (flight.status === "Cancelled") return word("flight-cancelled", "Cancelled by the airline");
  if (flight.status !== "Delayed") return "";
  const hours = Math.floor(flight.delay_minutes / 60);
  const minutes = flight.delay_minutes % 60;
  const parts = [hours ? `${hours} h` : "", minutes || !hours ? `${minutes} min` : ""].filter(Boolean);
  return `${word("flight-delayed", "Delayed")} ${parts.join(" ")}`;
}

function statusNote(flight) {
  const note = cell("span", flightStatus(flight));
  note.className = cls("flight-status");
  return note;
}

function cell(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

// field: "outward-flight" etc.; testid prefix is the same name ("outward-flight-CR1234").
// Flights whose id is in `current` (a booking's flights, when changing them) are marked. The UI
// variant says whether they are a table, cards or a list, and in which order (vocabulary.js).
function flightTable(container, { heading, field, flights, date, route, current = new Set(), fare = "" }) {
  const title = cell("h2", heading);
  title.id = `${tid(field)}-heading`;
  const sub = cell("p", `${route} · ${formatLong(date)}`);
  sub.className = cls("muted");
  if (!flights.length) {
    container.replaceChildren(title, sub, cell("p", "No flights found on this day"));
    return;
  }
  const prices = priceColumns(flights, fare);
  const shown = sorted(flights, prices[0]);
  const rows = flightLayout.results === "table"
    ? tableOf(shown, field, current, prices)
    : itemsOf(shown, field, current, prices, flightLayout.results);
  rows.setAttribute("aria-labelledby", title.id);
  rows.addEventListener("click", selectRow);
  container.replaceChildren(title, sub, rows);
}

function sorted(flights, price) {
  if (flightLayout.sort !== "price") return flights;
  return [...flights].sort((a, b) => Number(price.price(a)) - Number(price.price(b)));
}

function tableOf(flights, field, current, prices) {
  const table = document.createElement("table");
  table.className = cls("flights");
  const head = document.createElement("tr");
  head.append(...COLUMNS.map((name) => cell("th", name)),
    ...prices.map((column) => priceCell("th", column.name, column)));
  table.append(head, ...flights.map((flight) => flightRow(flight, field, current.has(flight.id), prices)));
  return table;
}

// Cards (a block per flight) or a list (a line per flight): the same radio, the same facts.
function itemsOf(flights, field, current, prices, layout) {
  const list = document.createElement(layout === "cards" ? "ul" : "ol");
  list.className = cls(layout === "cards" ? "flight-cards" : "flight-list");
  list.append(...flights.map((flight) => flightItem(flight, field, current.has(flight.id), prices, layout)));
  return list;
}

function flightItem(flight, field, isCurrent, prices, layout) {
  const item = document.createElement("li");
  const pick = selectControl(flight, field, isCurrent);
  const times = `${flight.departure_time} ${flight.from} → ${arrival(flight)} ${flight.to}`;
  const fares = prices.map((column) => `${column.name} ${money(column.price(flight))}`).join(" · ");
  const facts = layout === "cards"
    ? [cell("strong", flight.number), cell("span", times), cell("span", flight.duration), cell("span", fares)]
    : [cell("span", [times, flight.number, flight.duration, fares].join(" · "))];
  item.append(pick, ...facts);
  if (flightStatus(flight)) item.append(" ", statusNote(flight));
  if (isCurrent) {
    item.setAttribute("aria-current", "true");
    item.append(currentBadge());
  }
  return item;
}

// The last columns: Price, or each fare family's price when the flights carry them (a booking's
// own family only, when `fare` names it).
function priceColumns(flights, fare) {
  if (!flights[0].fares) return [{ name: "Price", price: (flight) => flight.price }];
  const names = fare ? [fare] : Object.keys(flights[0].fares);
  return names.map((name) => ({ name: fare ? "Price" : name, price: (flight) => flight.fares[name], fare: true }));
}

function priceCell(tag, text, column) {
  const el = cell(tag, text);
  if (column.fare) el.className = cls("fare");
  return el;
}

function arrival(flight) {
  const nextDay = flight.arrival_date && flight.arrival_date !== flight.date ? " +1" : "";
  return flight.arrival_time + nextDay;
}

function currentBadge() {
  const badge = cell("span", "Current flight");
  badge.className = cls("current-flight");
  return badge;
}

// A flight's radio in its label ("Select"), named by the flight's number and departure.
function selectControl(flight, field, isCurrent) {
  const radio = fieldRadio(field, flight.number);
  radio.dataset.flightId = String(flight.id);
  const currentNote = isCurrent ? " (current flight)" : "";
  radio.setAttribute("aria-label", `Select ${flight.number} departing ${flight.departure_time}${currentNote}`);
  const label = document.createElement("label");
  label.append(radio, " Select");
  return label;
}

function flightRow(flight, field, isCurrent, prices) {
  const row = document.createElement("tr");
  const pick = document.createElement("td");
  pick.append(selectControl(flight, field, isCurrent));
  if (isCurrent) {
    row.setAttribute("aria-current", "true");
    pick.append(" ", currentBadge());
  }
  const number = cell("td", flight.number);
  if (flightStatus(flight)) number.append(" ", statusNote(flight));
  row.append(pick,
    cell("td", flight.departure_time), cell("td", flight.from),
    cell("td", arrival(flight)), cell("td", flight.to),
    number, cell("td", flight.duration),
    ...prices.map((column) => priceCell("td", money(column.price(flight)), column)));
  return row;
}

// A click anywhere on a row (or card, or line) selects it, as if its radio had been clicked.
function selectRow(e) {
  const row = e.target.closest("tr, li");
  const radio = row?.querySelector("input[type=radio]");
  if (!radio || e.target.closest("label, input") || radio.checked) return;
  radio.click();
}

function selectedFlightId(container, field) {
  const radio = container.querySelector(`input[data-field="${tid(field)}"]:checked`);
  return radio ? Number(radio.dataset.flightId) : null;
}

// The departing (and, for a return trip, the return) table of a search answer; prefix is
// "change-" when changing a booking's flights, whose flight ids are then `current` and whose fare
// family (hard suite) is `fare`.
export function renderFlightLists(root, results, tripType, prefix = "", current = new Set(), fare = "") {
  const route = `${results.from} → ${results.to}`;
  flightTable(root.querySelector('[data-results="outward"]'), {
    heading: word("outward-flight", "Select your departing flight"), field: `${prefix}outward-flight`,
    flights: results.flights, date: results.date, route, current, fare,
  });
  const back = root.querySelector('[data-results="return"]');
  if (tripType === "return") {
    flightTable(back, {
      heading: word("return-flight", "Select your return flight"), field: `${prefix}return-flight`,
      flights: results.return_flights || [], date: results.return_date,
      route: `${results.to} → ${results.from}`, current, fare,
    });
  } else {
    back.replaceChildren();
  }
}

// Finds the chosen flight objects, or returns a message naming what is missing.
export function chosenFlights(root, results, tripType, prefix = "") {
  const outwardId = selectedFlightId(root, `${prefix}outward-flight`);
  const returnId = selectedFlightId(root, `${prefix}return-flight`);
  if (!outwardId) return { missing: "Select a departing flight" };
  if (tripType === "return" && !returnId) return { missing: "Select a return flight" };
  return {
    outward: results.flights.find((f) => f.id === outwardId),
    return: tripType === "return" ? results.return_flights.find((f) => f.id === returnId) : null,
  };
}

// A booking's flights, at the price paid for each where the booking has a fare family (hard suite).
export function bookedFlights(booking) {
  return booking.fare ? booking.flights.map((flight) => ({ ...flight, price: flight.fare })) : booking.flights;
}

// Read-only list of a booking's or a selection's flights.
export function itinerary(container, flights) {
  const list = document.createElement("ul");
  list.className = cls("itinerary");
  for (const flight of flights) {
    const item = document.createElement("li");
    const kind = flight.direction === "return" ? "Return" : "Departing";
    item.textContent = `${kind}: ${flight.number}, ${flight.from} ${flight.departure_time} → ` +
      `${flight.to} ${flight.arrival_time}, ${formatLong(flight.date)} (${money(flight.price)})`;
    if (flightStatus(flight)) item.append(" ", statusNote(flight));
    list.append(item);
  }
  container.replaceChildren(list);
}

export function priceLines(table, lines) {
  table.replaceChildren(...lines.map((line) => {
    const row = document.createElement("tr");
    row.append(cell("td", line.label), cell("td", money(line.amount)));
    return row;
  }));
}
