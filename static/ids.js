// Random ids made in the page: the page load's id for events, and one Idempotency-Key per submit.
// crypto.getRandomValues works on plain http too (crypto.randomUUID needs a secure context).
export function randomId(length = 12) {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}
