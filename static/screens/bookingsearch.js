// Search bookings (hard suite only): find a caller's booking by last name and travel date when they
// do not have its confirmation code, choose one of the matches and open it. The matches are radios
// of one named field, like the flight rows, so choosing one is recorded as a fill.
import { api } from "../api.js";
import { formatUs } from "../dates.js";
import { apiValues, clearErrors, fieldRadio, showApiError, showFormError } from "../fields.js";
import { register, screen, show } from "../router.js";
import { onSubmit, whileBusy } from "../submitting.js";
import { byTestid, cls, tid, word } from "../vocabulary.js";

const FIELD = "booking-search-match";
const root = () => screen("booking-search");
const part = (selector) => root().querySelector(selector);

export function initBookingSearch() {
  if (!root()) return;  // a page without the airline policy
  onSubmit(part("[data-booking-search]"), search);
  const open = part(byTestid("booking-search-open"));
  open.addEventListener("click", () => whileBusy(open, openChosen));
  register("booking-search", () => clearErrors(root()));
}

async function search(form) {
  clearErrors(root());
  try {
    const answer = await api.searchBookings(apiValues(form));
    showMatches(answer.bookings);
  } catch (err) {
    showMatches(null);
    showApiError(root(), "booking-search", err);
  }
}

// The matches with Open booking under them, "No bookings found", or (null) nothing.
function showMatches(bookings) {
  showChoices(part("[data-booking-matches]"), part("[data-booking-open]"), bookings,
              word(FIELD, "Choose a booking"), "No bookings found", matchOption);
}

// Choices of one named field (the booking matches, the knowledge base's results) under `legend`,
// with the box of the button that opens the chosen one shown; `none` when there are none, nothing
// for null.
export function showChoices(list, openBox, items, legend, none, option) {
  openBox.hidden = !items?.length;
  if (!items) return list.replaceChildren();
  if (!items.length) return list.replaceChildren(status(none));
  const group = document.createElement("fieldset");
  group.className = cls("matches");
  const title = document.createElement("legend");
  title.textContent = legend;
  group.append(title, ...items.map(option));
  return list.replaceChildren(group);
}

function status(text) {
  const note = document.createElement("p");
  note.setAttribute("role", "status");
  note.textContent = text;
  return note;
}

function matchOption(booking) {
  const text = describeMatch(booking);
  const radio = fieldRadio(FIELD, booking.code);
  radio.setAttribute("aria-label", text);
  const label = document.createElement("label");
  label.append(radio, ` ${text}`);
  return label;
}

// "ABC123 — Ana Smith, JFK to FLL, 07/07/2026 and 07/14/2026"
function describeMatch(booking) {
  const dates = booking.dates.map(formatUs).join(" and ");
  const cancelled = booking.status === "Cancelled" ? " (Cancelled)" : "";
  return `${booking.code} — ${booking.first_name} ${booking.last_name}, ` +
    `${booking.from} to ${booking.to}, ${dates}${cancelled}`;
}

async function openChosen() {
  const chosen = root().querySelector(`input[data-field="${tid(FIELD)}"]:checked`);
  clearErrors(root());
  if (!chosen) return showFormError(root(), "booking-search", "Choose a booking");
  try {
    const answer = await api.getBooking(chosen.value);
    return show("booking", answer.booking);
  } catch (err) {
    return showApiError(root(), "booking-search", err);
  }
}
