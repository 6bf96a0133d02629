// Shows one screen at a time. Nav links (anything with data-route) change the URL hash so the
// browser's Back button works; other screens are reached from inside a workflow.
const handlers = {};
const ROUTES = { home: "search", find: "find", help: "help" };

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
  handlers[name]?.(...args);
  window.scrollTo(0, 0);
  screen(name).querySelector("h1")?.focus({ preventScroll: true });
}

function routeFromHash() {
  return ROUTES[location.hash.slice(1)] || "search";
}

function onRouteClick(e) {
  const link = e.target.closest("[data-route]");
  if (!link) return;
  e.preventDefault();
  const hash = `#${link.dataset.route}`;
  if (location.hash !== hash) history.pushState(null, "", location.search + hash);
  show(ROUTES[link.dataset.route]);
}

export function startRouter() {
  document.addEventListener("click", onRouteClick);
  window.addEventListener("popstate", () => show(routeFromHash()));
  show(routeFromHash());
}
