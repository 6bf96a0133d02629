// The flight search fields ("search-*" on Home, "change-*" when modifying a booking).
import { committedValue } from "./fields.js";

function input(prefix, suffix) {
  return document.querySelector(`[data-testid="${prefix}-${suffix}"]`);
}

export function searchParams(prefix, tripType) {
  const params = {
    from: committedValue(input(prefix, "from")),
    to: committedValue(input(prefix, "to")),
    date: committedValue(input(prefix, "depart")),
  };
  if (tripType === "return") params.return = committedValue(input(prefix, "return"));
  return params;
}

// One-way trips hide and disable the Return date (a disabled field is left out of events).
export function setTripType(form, tripType) {
  const oneWay = tripType !== "return";
  const wrap = form.querySelector("[data-return-only]");
  wrap.hidden = oneWay;
  for (const el of wrap.querySelectorAll("input, button")) el.disabled = oneWay;
}
