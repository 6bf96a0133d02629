// Date helpers. Dates travel as ISO strings (YYYY-MM-DD); the UI shows MM/DD/YYYY.

const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
export const MONTHS = ["January", "February", "March", "April", "May", "June", "July",
  "August", "September", "October", "November", "December"];

function pad(n) {
  return String(n).padStart(2, "0");
}

export function isoOf(year, month, day) {
  return `${year}-${pad(month)}-${pad(day)}`;
}

// Typed text (MM/DD/YYYY or YYYY-MM-DD) to ISO, or null when it is not a real calendar date.
export function parseDate(text) {
  const value = (text || "").trim();
  let m = US.exec(value);
  const parts = m ? [m[3], m[1], m[2]] : (m = ISO.exec(value)) ? [m[1], m[2], m[3]] : null;
  if (!parts) return null;
  const [y, mo, d] = parts.map(Number);
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null;
  return isoOf(y, mo, d);
}

export function splitIso(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return { year: y, month: m, day: d };
}

export function formatUs(iso) {
  const { year, month, day } = splitIso(iso);
  return `${pad(month)}/${pad(day)}/${year}`;
}

// "Tue, Jul 7, 2026" for summaries.
export function formatLong(iso) {
  if (!parseDate(iso)) return iso || "";
  const { year, month, day } = splitIso(iso);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.toLocaleDateString("en-US", {
    weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC",
  });
}

export function daysInMonth(year, month) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// 0 = Sunday.
export function weekdayOf(year, month, day) {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}
