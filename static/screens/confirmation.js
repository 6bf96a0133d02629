// Confirmation: the new booking's code, and a way to open it.
import { register, screen, show } from "../router.js";

let booking = null;

export function initConfirmation() {
  const root = screen("confirmation");
  root.querySelector('[data-testid="view-booking"]').addEventListener("click", () => show("booking", booking));
  register("confirmation", (created) => {
    booking = created;
    root.querySelector('[data-testid="confirmation-code"]').textContent = created.code;
  });
}
