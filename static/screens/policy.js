// The airline policy's screens (hard suite only): Policy, the airline's rules as the server words them
// (GET /api/policy); Transfer to supervisor, which hands the scenario's call to a supervisor with a
// summary (POST /api/customer/transfer); the call ends, and the form then says so and takes no more;
// and the Modify booking screen's Upgrade fare card: a higher fare family quoted with the policy's
// terms (GET .../fare/quote), then raised (POST .../fare), the screen then showing the new fare.
// (One module for all, so that the papers' pages load the same modules as ever.)
import { api } from "../api.js";
import { refreshCall } from "../call.js";
import { apiValues, clearErrors, showApiError, showFormError } from "../fields.js";
import { money, signedMoney } from "../flightlist.js";
import { renderMarkdown } from "../markdown.js";
import { register, screen } from "../router.js";
import { onSubmit, whileBusy } from "../submitting.js";
import { byTestid } from "../vocabulary.js";
import { modifiedElsewhere, whenModifyShown } from "./modify.js";

export function initPolicy() {
  const root = screen("policy");
  if (!root) return;  // a page without the airline policy
  register("policy", () => load(root));
}

async function load(root) {
  showFormError(root, "policy", "");
  try {
    const answer = await api.policy();
    root.querySelector("[data-policy]").replaceChildren(...renderMarkdown(answer.policy));
  } catch (err) {
    showFormError(root, "policy", err.message);
  }
}

const transferRoot = () => screen("transfer");

export function initTransfer() {
  if (!transferRoot()) return;  // a page without the airline policy
  onSubmit(transferRoot().querySelector('[data-form="transfer"]'), transfer);
  register("transfer", () => clearErrors(transferRoot()));
}

async function transfer(form) {
  clearErrors(transferRoot());
  try {
    await api.transferCall(apiValues(form).summary || "");
    transferRoot().querySelector(byTestid("transfer-done")).hidden = false;
    form.querySelector("[data-transfer-input]").hidden = true;
    refreshCall();  // the call panel says the call was transferred
  } catch (err) {
    showApiError(transferRoot(), "transfer", err);
  }
}

const upgrade = { booking: null };
const upgradeCard = () => screen("modify").querySelector('[data-form="upgrade"]');
const inCard = (selector) => upgradeCard().querySelector(selector);

export function initUpgrade() {
  if (!upgradeCard()) return;  // a page without the airline policy
  const quote = inCard(byTestid("upgrade-quote"));
  quote.addEventListener("click", () => whileBusy(quote, quoteUpgrade));
  const save = inCard(byTestid("upgrade-submit"));
  save.addEventListener("click", () => whileBusy(save, saveUpgrade));
  inCard("[data-upgrade-choice]").addEventListener("change", () => showUpgradeQuote(null));  // another fare: quote again
  whenModifyShown((booking) => {
    showUpgradeChoice(booking);
    inCard(byTestid("upgrade-status")).textContent = "";
  });
}

// The booking's fare and total, and as choices only the fares above its own (none when cancelled).
// The page lists every fare but the lowest, in the server's order, so those after the booking's are higher.
function showUpgradeChoice(booking) {
  upgrade.booking = booking;
  clearErrors(upgradeCard());
  inCard(byTestid("upgrade-current")).textContent = `Fare ${booking.fare}, total ${money(booking.total)}`;
  const radios = [...inCard("[data-upgrade-choice]").querySelectorAll('input[type="radio"]')];
  const own = radios.findIndex((radio) => radio.value === booking.fare);
  let offered = 0;
  for (const [index, radio] of radios.entries()) {
    const higher = booking.status !== "Cancelled" && index > own;
    radio.checked = false;
    radio.disabled = !higher;
    radio.closest("label").hidden = !higher;
    offered += higher;
  }
  inCard("[data-upgrade-choice]").hidden = !offered;
  inCard("[data-upgrade-none]").hidden = Boolean(offered);
  showUpgradeQuote(null);
}

async function quoteUpgrade() {
  clearErrors(upgradeCard());
  const { fare } = apiValues(inCard("[data-upgrade-choice]"));
  if (!fare) return showFormError(upgradeCard(), "upgrade", "Choose the new fare first");
  try {
    showUpgradeQuote(await api.quoteFareUpgrade(upgrade.booking.code, fare));
  } catch (err) {
    showUpgradeQuote(null);
    showApiError(upgradeCard(), "upgrade", err);
  }
}

// The quote's price line and the policy's terms under it, with Upgrade; or (null) none of them.
function showUpgradeQuote(quote) {
  inCard(byTestid("upgrade-price")).textContent = quote ? `${quote.fare}: fare difference ${signedMoney(quote.difference)} ` +
    `(new total ${money(quote.total)}, now ${money(quote.current_total)})` : "";
  inCard(byTestid("upgrade-terms")).textContent = quote ? upgradeTerms(quote.policy) : "";
  inCard("[data-upgrade-save]").hidden = !quote;
}

function upgradeTerms({ outcome, amount, rule }) {
  if (outcome !== "allowed") return `Policy: not allowed — ${rule}`;
  return `Upgrade due: ${money(amount)} (${rule})`;
}

async function saveUpgrade() {
  clearErrors(upgradeCard());
  const { fare } = apiValues(inCard("[data-upgrade-choice]"));
  if (!fare) return showFormError(upgradeCard(), "upgrade", "Choose the new fare first");
  try {
    const answer = await api.upgradeFare(upgrade.booking.code, fare);
    modifiedElsewhere(answer.booking);
    showUpgradeChoice(answer.booking);
    inCard(byTestid("upgrade-status")).textContent = `Fare upgraded to ${answer.booking.fare}`;
  } catch (err) {
    showApiError(upgradeCard(), "upgrade", err);
  }
}
