// A button that sends a request is disabled while the request is in flight, so a double click or
// a second Enter sends it once (each write also carries its own Idempotency-Key, see api.js).
export async function whileBusy(button, action) {
  if (button.disabled) return undefined;
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    return await action();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

// Runs `action` on the form's submit (Enter or its submit button), with that button busy.
export function onSubmit(form, action) {
  const button = form.querySelector('[type="submit"]');
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    whileBusy(button, () => action(form));
  });
}
