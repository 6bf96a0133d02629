// Shows one screen at a time. Nav links (anything with data-route) change the URL hash so the
// browser's Back button works; other screens are reached from inside a workflow. The nav link of
// the section a screen belongs to is marked aria-current="page", and every screen change is
// announced on the document as a SCREEN_CHANGE event (popups close on it).
const handlers = {};
// Search bookings, Policy and Transfer exist only on the pages of the airline policy (the hard suite);
// the Knowledge base replaces the Policy page in the expert suite's.
const ROUTES = {
  home: "search", find: "find", "booking-search": "booking-search", policy: "policy", kb: "kb", transfer: "transfer",
  help: "help",
};
// The nav section of every screen: the booking workflow is under Home, a found booking (also one
// opened from Search bookings) under Find booking.
const SECTIONS = {
  search: "home", results: "home", passenger: "home", payment: "home", confirmation: "home",
  find: "find", booking: "find", modify: "find", "booking-search": "booking-search", policy: "policy",
  kb: "kb", transfer: "transfer", help: "help",
};
export const SCREEN_CHANGE = "crm-screen";

export function screen(name) {
  return document.querySelector(`[data-screen="${name}"]`);
}

export function register(name, onShow) {
  handlers[name] = onShow;
}

export function show(name, ...args) {
  for (const section of document.querySelectorAll("[data-screen]")) {
    section.hidden = section.dataset.screen !== name;
  }
  markCurrent(SECTIONS[name]);
  document.dispatchEvent(new CustomEvent(SCREEN_CHANGE, { detail: name }));
  handlers[name]?.(...args);
  window.scrollTo(0, 0);
  // A rep typing in the call panel (hard look) keeps the focus while a screen opens beside it.
  const typingInCall = document.activeElement?.closest("[data-call]");
  if (!typingInCall) screen(name).querySelector("h1")?.focus({ preventScroll: true });
}

function markCurrent(section) {
  for (const link of document.querySelectorAll("nav [data-route]")) {
    if (link.dataset.route === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

// A route whose screen this page does not have (#policy outside the hard suite) is Home.
function routeFromHash() {
  const name = ROUTES[location.hash.slice(1)];
  return name && screen(name) ? name : "search";
}

function onRouteClick(e) {
  const link = e.target.closest("[data-route]");
  if (!link) return;
  e.preventDefault();
  const hash = `#${link.dataset.route}`;
  if (location.hash !== hash) history.pushState(null, "", location.search + hash);
  show(ROUTES[link.dataset.route]);
}

// The document's listeners, installed once per page load.
export function installRouter() {
  document.addEventListener("click", onRouteClick);
  window.addEventListener("popstate", () => show(routeFromHash()));
}

export function startRouter() {
  show(routeFromHash());
}
