// The call panel (the hard suite's look): the call with the scenario's customer, beside the
// screens. Its transcript is read from the server whenever the page starts, so a reload or a warm
// switch to another scenario shows that scenario's own call; a line sent goes where an agent's SAY
// goes (POST /api/customer/messages) and the customer's reply is added; End call ends the call
// (POST /api/customer/end). A play session's page (`next=` in its address) goes on to the session's
// next task once the call has ended.
import { api, scenarioGiven } from "./api.js";
import { clearErrors, showApiError, showFormError } from "./fields.js";
import { onSubmit, whileBusy } from "./submitting.js";
import { byTestid } from "./vocabulary.js";

const SPEAKERS = { customer: "customer", agent: "you", transfer: "supervisor" };  // role -> the log's data-*
const STATES = { end: "ended", transfer: "transferred" };  // how the call ended -> data-call-state

const panel = () => document.querySelector("[data-call]");
const part = (name) => panel().querySelector(byTestid(name));
let changes = 0;  // lines sent and ends asked: a transcript read before one of them is out of date

// The panel wired and its call read; the page is ready once this is done (app.js).
export async function initCall() {
  if (!panel()) return;  // a page without the call (the papers' CRM)
  if (!scenarioGiven) {  // the sandbox has no call
    panel().hidden = true;
    return;
  }
  onSubmit(panel().querySelector('[data-form="call"]'), send);
  const end = part("call-end");
  end.addEventListener("click", () => whileBusy(end, hangUp));
  await refreshCall();
}

// The call as the server has it: its lines and whether it is still open.
export async function refreshCall() {
  if (!panel() || panel().hidden) return;
  const asked = changes;
  try {
    const call = await api.callMessages();
    if (asked !== changes) return;  // a line was sent meanwhile: what it added is already shown
    part("call-log").replaceChildren(...call.messages.map(({ role, text }) => line(role, text)));
    showEnded(call.ended);
    scrollToNewest();
  } catch (err) {
    showFormError(panel(), "call", err.message);
  }
}

async function send(form) {
  changes++;
  clearErrors(panel());
  const box = part("call-message");
  try {
    const said = box.value.trim();
    const answer = await api.sayToCustomer(box.value);
    part("call-log").append(line("agent", said), line("customer", answer.reply));
    box.value = "";
    scrollToNewest();
  } catch (err) {
    showApiError(panel(), "call", err);
    if (err.status === 409) await refreshCall();  // ended meanwhile (or elsewhere): say so
  }
}

async function hangUp() {
  changes++;
  clearErrors(panel());
  try {
    await api.endCall();
    showEnded("end");
    const next = nextTask();
    if (next) location.assign(next);
  } catch (err) {
    showApiError(panel(), "call", err);
    if (err.status === 409) await refreshCall();
  }
}

function line(role, text) {
  const item = document.createElement("li");
  item.dataset.speaker = role;
  const who = document.createElement("strong");
  who.textContent = `${part("call-log").dataset[SPEAKERS[role]] || role}:`;
  item.append(who, ` ${text}`);
  return item;
}

function showEnded(ended) {
  panel().dataset.callState = STATES[ended] || "open";
  part("call-ended").hidden = ended !== "end";
  part("call-transferred").hidden = ended !== "transfer";
  const link = part("call-next");
  const next = nextTask();
  link.hidden = !(ended && next);
  if (next) link.href = next;
}

function scrollToNewest() {
  const log = part("call-log");
  log.scrollTop = log.scrollHeight;
}

// A play session's next page (an http(s) address given as `next=`, read from this page's), or null.
function nextTask() {
  const given = new URLSearchParams(location.search).get("next");
  if (!given) return null;
  try {
    const url = new URL(given, location.href);
    return ["http:", "https:"].includes(url.protocol) ? url.href : null;
  } catch (err) {
    return null;  // not an address
  }
}
