// Confirmation: the new booking's code, and a way to open it.
import { register, screen, show } from "../router.js";
import { byTestid } from "../vocabulary.js";

let booking = null;

export function initConfirmation() {
  const root = screen("confirmation");
  root.querySelector(byTestid("view-booking")).addEventListener("click", () => show("booking", booking));
  register("confirmation", (created) => {
    booking = created;
    root.querySelector(byTestid("confirmation-code")).textContent = created.code;
  });
}
