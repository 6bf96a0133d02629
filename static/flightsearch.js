// The flight search fields ("search-*" on Home, "change-*" when modifying a booking). Their
// values are read with apiValues() (fields.js), which leaves out a disabled Return date.

// One-way trips hide and disable the Return date (a disabled field is left out of events).
export function setTripType(form, tripType) {
  const oneWay = tripType !== "return";
  const wrap = form.querySelector("[data-return-only]");
  wrap.hidden = oneWay;
  for (const el of wrap.querySelectorAll("input, button, select")) el.disabled = oneWay;
}
