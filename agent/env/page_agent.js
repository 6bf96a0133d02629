// Evaluated in the page (an expression whose value is the installed helper). It extracts the
// element-list observation in one pass (with every element's box in viewport pixels), keeps
// integer ids per node, finds click points, serializes the pruned DOM for the html mode, and
// waits for the page to settle after an action. It adds nothing to the DOM.
(() => {
  if (window.__agent) return window.__agent;

  const CONTROLS = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=option]", "[role=radio]", "[role=checkbox]",
    "[role=switch]", "[role=tab]", "[role=menuitem]", "[contenteditable=true]",
  ].join(",");
  // The papers' page reader (webagents-step, liveweb_parsers.py) lists an input, a link, a
  // textarea, and a button that has text or carries a name attribute (NAME_ATTRIBUTES); anything
  // else is text, listed only for text of its own. A closed <select> has none: its options are not
  // rendered, so the reader never shows it.
  const READER_CONTROLS = "a, button, input:not([type=hidden]), textarea";
  const NAME_ATTRIBUTES = ["placeholder", "aria-label", "title", "alt"];
  const SKIPPED_TAGS = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "SVG"]);
  // Text inside one of these reads as one line (a table row, a list entry, a paragraph, ...).
  const LINE_CONTAINERS = "tr,[role=row],li,[role=option],dt,dd,label,legend,caption,p,h1,h2,h3,h4,h5,h6,summary,figcaption";
  const ROWS = "tr,[role=row],li";
  const MAX_TEXT = 300;
  const TEXT_TYPES = new Set(["text", "email", "search", "tel", "url", "number", "password", "date", "month", "time", "datetime-local", "week"]);

  let ids = new WeakMap();     // node -> id, for as long as the node lives
  let counter = 0;
  let shown = new Map();       // id -> node, the nodes of the last observation
  let shownText = new Map();   // id -> first text node, for the text lines of the last observation
  let lastMutation = performance.now();
  new MutationObserver(() => { lastMutation = performance.now(); }).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });

  function idOf(node) {
    let id = ids.get(node);
    if (id === undefined) {
      id = ++counter;
      ids.set(node, id);
    }
    return id;
  }

  function squash(text) {
    return (text || "").replace(/\s+/g, " ").trim();
  }

  function visible(el) {
    if (el.getAttribute("aria-hidden") === "true") return false;
    return el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true });
  }

  // Visible text of a subtree, leaving out form controls (a label's own input, a select's options).
  function textOf(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE || SKIPPED_TAGS.has(node.tagName.toUpperCase())) return "";
    if (node.matches("input,select,textarea") || node.getAttribute("aria-hidden") === "true" || node.hidden) return "";
    let text = "";
    for (const child of node.childNodes) text += " " + textOf(child);
    return text;
  }

  function kindOf(el) {
    const role = el.getAttribute("role");
    const tag = el.tagName;
    if (tag === "INPUT") {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (type === "radio" || type === "checkbox") return type;
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      return "input";
    }
    if (tag === "SELECT") return "select";
    if (tag === "TEXTAREA" || el.isContentEditable) return "input";
    if (role === "radio" || role === "checkbox" || role === "option" || role === "link") return role;
    if (role === "switch") return "checkbox";
    if (tag === "A") return "link";
    return "button";
  }

  function nameOf(el, kind) {
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const text = squash(by.split(/\s+/).map((id) => textOf(document.getElementById(id) || document.createTextNode(""))).join(" "));
      if (text) return text;
    }
    const aria = squash(el.getAttribute("aria-label"));
    if (aria) return aria;
    if (el.labels && el.labels.length) {
      const text = squash([...el.labels].map(textOf).join(" "));
      if (text) return text;
    }
    if (kind === "button" && el.tagName === "INPUT") return squash(el.value);
    if (!["input", "select"].includes(kind)) {
      const text = squash(textOf(el));
      if (text) return text;
    }
    return squash(el.getAttribute("title") || el.getAttribute("alt"));
  }

  // A control's name from what it carries itself (aria-label, title, alt, its own text), not
  // from a <label> or aria-labelledby: how the papers' page reader names it (HeaP App. F.2).
  function ownNameOf(el, kind) {
    const own = squash(el.getAttribute("aria-label") || el.getAttribute("title") || el.getAttribute("alt"));
    if (own || ["input", "select"].includes(kind)) return own;
    return squash(el.tagName === "INPUT" ? el.value : textOf(el));
  }

  function describeControl(el, rowText, ownNames) {
    const kind = kindOf(el);
    const item = { id: idOf(el), kind, name: rowText || (ownNames ? ownNameOf(el, kind) : nameOf(el, kind)) };
    if (el.disabled || el.getAttribute("aria-disabled") === "true") item.disabled = true;
    if (el.getAttribute("aria-invalid") === "true") item.invalid = true;
    if (kind === "radio" || kind === "checkbox") {
      item.checked = el.tagName === "INPUT" ? el.checked : el.getAttribute("aria-checked") === "true";
    } else if (kind === "input") {
      item.type = el.tagName === "INPUT" ? (el.getAttribute("type") || "text").toLowerCase() : "text";
      if (!TEXT_TYPES.has(item.type)) item.type = "text";
      item.value = el.isContentEditable ? squash(el.textContent) : el.value;
      if (!item.value && el.placeholder) item.hint = el.placeholder;
      if (el.getAttribute("role") === "combobox") item.combobox = true;
    } else if (kind === "select") {
      const chosen = el.selectedOptions[0];
      item.value = chosen && chosen.value !== "" ? squash(chosen.text) : "";
      item.options = [...el.options].filter((o) => o.value !== "").map((o) => squash(o.text));
    }
    return item;
  }

  // Text that names a control we list is already folded into that control.
  function namingElements(controls) {
    const naming = new Set();
    for (const el of controls) {
      for (const label of el.labels || []) naming.add(label);
      const by = el.getAttribute("aria-labelledby");
      for (const id of by ? by.split(/\s+/) : []) {
        const target = document.getElementById(id);
        if (target) naming.add(target);
      }
    }
    return naming;
  }

  // A description (dd) reads on one line with its term (dt): "Name: Bill Correa".
  function termOf(dd) {
    let el = dd.previousElementSibling;
    while (el && el.tagName === "DD") el = el.previousElementSibling;
    return el && el.tagName === "DT" ? el : null;
  }

  // A table row (or list entry) selected by its one radio or checkbox reads as that control,
  // named by the row's text, as HeaP folds a salient node's subtree text into it.
  function selectableRows(controls) {
    const rows = new Map();
    for (const el of controls) {
      const kind = kindOf(el);
      if (kind !== "radio" && kind !== "checkbox") continue;
      const row = el.closest(ROWS);
      if (row && [...row.querySelectorAll(CONTROLS)].filter((c) => controls.has(c)).length === 1) rows.set(row, el);
    }
    return rows;
  }

  function lineContainer(el) {
    const line = el.closest(LINE_CONTAINERS);
    if (line && line.tagName === "DD") return termOf(line) || line;
    if (line) return line;
    while (el.parentElement && getComputedStyle(el).display.startsWith("inline")) el = el.parentElement;
    return el;
  }

  // Marks an item whose element lies wholly outside the viewport (scrolling brings it in view).
  // The item with its box, and where it is when it is out of the window's view.
  function placed(item, box) {
    item.box = box;
    if (box.y + box.height <= 0) item.offscreen = "above";
    else if (box.y >= window.innerHeight) item.offscreen = "below";
    return item;
  }

  // The controls the papers' reader lists (see READER_CONTROLS).
  function readerControls(root) {
    const listed = (el) => el.tagName !== "BUTTON" || squash(textOf(el)) ||
      NAME_ATTRIBUTES.some((name) => squash(el.getAttribute(name)));
    return [...root.querySelectorAll(READER_CONTROLS)].filter(listed);
  }

  // With `paper`, the papers' reader decides what is a control (readerControls), labels are text
  // lines of their own and a control is named only by what it carries itself; by default every
  // interactive element is a control and label text is folded into its control.
  function observe({ paper = false } = {}) {
    const modal = document.querySelector("dialog[open]:modal");
    const root = modal || document.body;
    const controls = new Set((paper ? readerControls(root) : [...root.querySelectorAll(CONTROLS)]).filter(visible));
    const naming = paper ? new Set() : namingElements(controls);
    const rows = paper ? new Map() : selectableRows(controls);
    const rowTexts = new Map();
    for (const [row, el] of rows) {
      rowTexts.set(el, squash(textOf(row)));
      naming.add(row);
    }
    const items = [];
    const nodes = new Map();
    const textNodes = new Map();
    let pending = null;   // text collected for the current line

    const flush = () => {
      if (!pending) return;
      let text = squash(pending.parts.join(" ")).replace(/ :( |$)/, ":$1");
      if (text.length > MAX_TEXT) text = text.slice(0, MAX_TEXT - 1) + "…";
      if (text) {
        const id = idOf(pending.first);
        items.push(placed({ id, kind: "text", name: text, tag: pending.line.tagName.toLowerCase() },
                          boxOf(pending.first, pending.last)));
        nodes.set(id, pending.first.parentElement);
        textNodes.set(id, pending.first);
      }
      pending = null;
    };
    const addText = (node) => {
      if (!node.data.trim()) return;
      const parent = node.parentElement;
      for (let el = parent; el && el !== root.parentElement; el = el.parentElement) {
        if (naming.has(el)) return;
      }
      const line = lineContainer(parent);
      if (pending && pending.line !== line) flush();
      if (!pending) pending = { line, first: node, parts: [] };
      if (line.tagName === "DT" && !pending.described && parent.closest("dd")) {
        pending.parts.push(":");
        pending.described = true;
      }
      pending.parts.push(node.data);
      pending.last = node;
    };
    const visit = (el) => {
      for (const child of el.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) {
          addText(child);
        } else if (child.nodeType === Node.ELEMENT_NODE && !SKIPPED_TAGS.has(child.tagName.toUpperCase())) {
          if (controls.has(child)) {
            flush();
            const item = placed(describeControl(child, rowTexts.get(child), paper), boxOf(child));
            items.push(item);
            nodes.set(item.id, child);
          } else if (paper && child.tagName === "SELECT") {
            continue;  // a closed select renders no text the reader could list
          } else if (visible(child)) {
            visit(child);
          }
        }
      }
    };
    visit(root);
    flush();
    shown = nodes;
    shownText = textNodes;
    const call = document.querySelector("[data-call]");  // the hard suite's call panel
    return {
      url: location.href, modal: Boolean(modal), items,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      callState: call ? call.dataset.callState : null,
    };
  }

  // Where a click on element `id` lands, or why it cannot: gone, disabled, covered.
  function clickPoint(id) {
    leaveFieldFor(id);
    const el = shown.get(id);
    if (!el) return { error: "missing" };
    if (!el.isConnected || !visible(el)) return { error: "gone" };
    if (el.disabled || el.getAttribute("aria-disabled") === "true") return { error: "disabled" };
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    const label = hit && hit.closest("label");
    const reaches = hit && (el === hit || el.contains(hit) || (label && label.control === el));
    if (!reaches) return { error: "covered", by: hit ? squash(hit.getAttribute("aria-label") || textOf(hit)).slice(0, 60) || hit.tagName.toLowerCase() : "nothing" };
    return { x, y };
  }

  function node(id) {
    const el = shown.get(id);
    return el && el.isConnected ? el : null;
  }

  // Where an element (or a line of text, from its first to its last text node) is on screen, in
  // CSS pixels from the viewport's top-left corner.
  function boxOf(target, lastText) {
    let rect;
    if (target.nodeType === Node.TEXT_NODE) {
      const range = document.createRange();
      range.setStart(target, 0);
      range.setEnd(lastText || target, (lastText || target).length);
      rect = range.getBoundingClientRect();
    } else {
      rect = target.getBoundingClientRect();
    }
    const round = (v) => Math.round(v * 10) / 10;
    return { x: round(rect.left), y: round(rect.top), width: round(rect.width), height: round(rect.height) };
  }

  // Leave the focused field (so it commits its value) unless the next target belongs to it,
  // like an entry of the suggestion list it controls. Returns the target node.
  function leaveFieldFor(id) {
    const active = document.activeElement;
    const target = node(id);
    if (!active || active === document.body || active === target) return target;
    const popup = document.getElementById(active.getAttribute("aria-controls") || "");
    if (popup && target && popup.contains(target)) return target;
    active.blur();
    return target;
  }

  // After typing: true when the field now shows a list of suggestions to pick from.
  async function settleAndCheckSuggestions(id) {
    await settle();
    const el = node(id);
    const popup = el && document.getElementById(el.getAttribute("aria-controls") || "");
    return Boolean(popup && visible(popup) && popup.querySelector("[role=option]"));
  }

  const nextTask = () => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // Resolves when the page has answered every request and event and the DOM has been quiet for
  // `quietMs` (measured in the page), or after `maxMs`. The bound is generous: on a loaded machine a
  // request can take seconds, and an observation read before its answer is drawn misses elements
  // (a replay of stored actions then clicks what is not there); an idle page costs no more. The
  // quiet time is slept on, not polled task by task: polling kept a busy machine's renderers
  // spinning (docs/tests.md).
  async function settle(quietMs = 4, maxMs = 10000) {
    const start = performance.now();
    const crm = () => window.crm || {};
    while (window.crm && !crm().ready && performance.now() - start < maxMs) await sleep(2);
    if (crm().whenIdle) {
      await Promise.race([crm().whenIdle(), sleep(maxMs)]);
    }
    await nextTask();  // what the page queued behind its last answer runs first
    while (performance.now() - start < maxMs) {
      if (crm().pendingEvents && crm().pendingEvents() > 0) {
        await (crm().whenIdle ? crm().whenIdle() : nextTask());
        continue;
      }
      const quietFor = quietMs - (performance.now() - lastMutation);
      if (quietFor <= 0) break;
      await sleep(Math.min(quietFor, maxMs - (performance.now() - start)));
    }
    return performance.now() - start;
  }

  // One round trip for the usual sequence: wait until the page settles, then observe it.
  async function settleAndObserve(options) {
    const waited = await settle();
    const start = performance.now();
    const observed = observe(options);
    const crm = window.crm || {};
    return {
      ...observed, settleMs: waited, observeMs: performance.now() - start, ready: Boolean(crm.ready),
      page: crm.pageId || null, events: crm.recordedEvents ? crm.recordedEvents() : null,
      lines: crm.callLines ? crm.callLines() : null,
    };
  }

  // ---- an action, the wait for the page and the observation in one call (act) ----
  // A click or a typed value is carried out here with the events a person's input produces, so
  // that a step needs one round trip and no input events through the DevTools protocol (each of
  // those waits for a frame). `{ native: true }` asks the caller to use real input instead.

  const FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], [contenteditable=true]";

  function mouseInit(x, y, buttons) {
    return { bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, button: 0, buttons, detail: 1 };
  }

  // A click at the element's centre: down (which moves the focus unless a listener cancels it),
  // up, click, all on the element found at that point, as the browser sends them.
  function click(id) {
    const point = clickPoint(id);
    if (point.error) return point;
    const hit = document.elementFromPoint(point.x, point.y);
    const pointer = { pointerType: "mouse", isPrimary: true, pointerId: 1 };
    hit.dispatchEvent(new PointerEvent("pointerdown", { ...mouseInit(point.x, point.y, 1), ...pointer }));
    if (hit.dispatchEvent(new MouseEvent("mousedown", mouseInit(point.x, point.y, 1)))) {
      focusOrBlur(hit.closest(FOCUSABLE));
    }
    hit.dispatchEvent(new PointerEvent("pointerup", { ...mouseInit(point.x, point.y, 0), ...pointer }));
    hit.dispatchEvent(new MouseEvent("mouseup", mouseInit(point.x, point.y, 0)));
    hit.dispatchEvent(new MouseEvent("click", mouseInit(point.x, point.y, 0)));
    return {};
  }

  function focusOrBlur(el) {
    const active = document.activeElement;
    if (el) el.focus();
    else if (active && active !== document.body) active.blur();
  }

  // The option of a select chosen by its label, with the input and change events a choice sends.
  function choose(el, label) {
    const option = [...el.options].find((o) => o.label === label || squash(o.text) === label);
    if (!option) return { native: true };
    option.selected = true;
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return {};
  }

  // Typing replaces the field's text through the editing commands, so the browser treats it as
  // typed (trusted input events, a change event when the field is left with a new value).
  async function type(id, text, pressEnter) {
    const el = leaveFieldFor(id);
    if (!el) return { error: "gone" };
    if (!visible(el) || el.disabled || el.readOnly || el.isContentEditable) return { native: true };
    if (el.tagName === "SELECT") return choose(el, text);
    el.focus();
    el.select();
    if (text) document.execCommand("insertText", false, text);
    else if (el.value) document.execCommand("delete");
    const suggesting = await settleAndCheckSuggestions(id);
    if (pressEnter) return { enter: true };  // the caller presses Enter for real: a form submits on it
    if (!suggesting) tabFrom(el);
    return {};
  }

  // Tab: the key's events, and the focus moving to the next control in tab order (the field being
  // left sends its change event then, as the browser does).
  function tabFrom(el) {
    const init = { key: "Tab", code: "Tab", keyCode: 9, bubbles: true, cancelable: true, composed: true, view: window };
    if (!el.dispatchEvent(new KeyboardEvent("keydown", init))) return;
    const next = nextInTabOrder(el);
    focusOrBlur(next);
    (document.activeElement || document.body).dispatchEvent(new KeyboardEvent("keyup", init));
  }

  function nextInTabOrder(el) {
    const stops = [...document.querySelectorAll(FOCUSABLE)].filter((c) => {
      if (c.tabIndex < 0 || c.disabled || !visible(c)) return false;
      if (c.type !== "radio" || !c.name) return true;
      const group = [...document.getElementsByName(c.name)].filter((r) => r.type === "radio" && r.form === c.form);
      const stop = group.find((r) => r.checked) || group[0];
      return c === stop || c === el;
    });
    return stops[stops.indexOf(el) + 1] || null;
  }

  function scroll(direction) {
    return scrollPage(direction) ? {} : { error: "edge" };
  }

  // Carries out `action` ({name: click|type|scroll|stop, id, text, enter, direction}), waits until
  // the page settles, then observes it: { outcome, ...observation }. An outcome { native: true } or
  // { enter: true } comes back at once, the page observed by the caller after its real input.
  async function act(action, options) {
    const outcome = action.name === "click" ? click(action.id)
      : action.name === "type" ? await type(action.id, action.text, action.enter)
      : action.name === "scroll" ? scroll(action.direction) : {};
    if (outcome.native || outcome.enter) return { outcome };
    return { ...(await settleAndObserve(options)), outcome };
  }

  // A warm reset: the CRM page starts over on scenario `id` as if loaded at `url` (its
  // crm.switchScenario), ids are numbered from 1 again as on a new page, and the first
  // observation comes back; { switched: false } when the page cannot switch.
  async function switchScenario(id, url, options) {
    if (!window.crm || !window.crm.ready || !window.crm.switchScenario) return { switched: false };
    await window.crm.switchScenario(id, url);
    ids = new WeakMap();
    counter = 0;
    shown = new Map();
    shownText = new Map();
    return { ...(await settleAndObserve(options)), switched: true };
  }

  // Scrolls the page by most of a viewport; false when it cannot move that way any further.
  function scrollPage(direction) {
    const before = window.scrollY;
    window.scrollBy({ top: (direction === "up" ? -0.8 : 0.8) * window.innerHeight, behavior: "instant" });
    return window.scrollY !== before;
  }

  // Where the nodes of the last observation are in the DOM tree, for the axtree mode to find them
  // in the tree the DevTools protocol reports: [id, element indices from the document down,
  // index of the text line's first text node among its parent's non-blank text nodes or -1].
  function observedPaths() {
    const pathOf = (el) => {
      const path = [];
      for (; el; el = el.parentElement) {
        const parent = el.parentElement || document;
        path.unshift([...parent.children].indexOf(el));
      }
      return path;
    };
    const paths = [];
    for (const [id, el] of shown) {
      const text = shownText.get(id);
      if (!(text || el).isConnected) continue;
      if (!text) {
        paths.push([id, pathOf(el), -1]);
        continue;
      }
      const texts = [...text.parentNode.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.data.trim());
      paths.push([id, pathOf(text.parentElement), texts.indexOf(text)]);
    }
    return paths;
  }

  // ---- the html mode: the visible DOM without scripts, styles or invisible parts ----

  const DROPPED_ATTRIBUTES = new Set(["style", "class"]);
  const VOID_TAGS = new Set(["AREA", "BASE", "BR", "COL", "EMBED", "HR", "IMG", "INPUT", "LINK", "META", "SOURCE", "TRACK", "WBR"]);

  function escapeHtml(text, quote) {
    const out = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return quote ? out.replace(/"/g, "&quot;") : out;
  }

  // Attributes as the page shows them now: a field's typed value and a box's checked state are
  // properties, not attributes, so they are written from the live element; `agent-id` carries the
  // element-list id.
  function attributesOf(el, ids) {
    const attributes = [];
    const id = ids.get(el);
    if (id !== undefined) attributes.push(["agent-id", String(id)]);
    const typed = el.matches("input:not([type=checkbox]):not([type=radio]),textarea");
    for (const attribute of el.attributes) {
      const name = attribute.name;
      if (DROPPED_ATTRIBUTES.has(name) || name.startsWith("on") || name === "checked" || name === "selected") continue;
      if (typed && name === "value") continue;
      attributes.push([name, attribute.value]);
    }
    if (typed && el.value) attributes.push(["value", el.value]);
    if (el.matches("input[type=checkbox],input[type=radio]") && el.checked) attributes.push(["checked", ""]);
    if (el.tagName === "OPTION" && el.selected) attributes.push(["selected", ""]);
    return attributes.map(([name, value]) => (value === "" ? ` ${name}` : ` ${name}="${escapeHtml(value, true)}"`)).join("");
  }

  function html() {
    const ids = new Map();
    for (const [id, el] of shown) if (!ids.has(el)) ids.set(el, id);
    const write = (el) => {
      const tag = el.tagName.toLowerCase();
      let out = `<${tag}${attributesOf(el, ids)}>`;
      if (VOID_TAGS.has(el.tagName)) return out;
      for (const child of el.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) {
          // Runs of white space become one space, so words keep apart; blank nodes are left out.
          if (child.data.trim()) out += escapeHtml(child.data.replace(/\s+/g, " "), false);
        } else if (child.nodeType === Node.ELEMENT_NODE && !SKIPPED_TAGS.has(child.tagName.toUpperCase())
                   && (child.tagName === "OPTION" || visible(child))) {
          out += write(child);
        }
      }
      return out + `</${tag}>`;
    };
    const modal = document.querySelector("dialog[open]:modal");
    return write(modal || document.body);
  }

  // ---- for coordinate actions ----

  // The focused element when it takes typed text, else a description of what has the focus.
  function focusedField() {
    const el = document.activeElement;
    const editable = el && !el.disabled && !el.readOnly &&
      (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
       (el.tagName === "INPUT" && TEXT_TYPES.has((el.getAttribute("type") || "text").toLowerCase())));
    if (editable) return { ok: true };
    return { ok: false, focused: !el || el === document.body ? "nothing" : el.tagName.toLowerCase() };
  }

  // After a wheel event: resolves once no scroll position has changed for two frames.
  async function scrollsSettled(maxMs = 1000) {
    const positions = () => {
      const parts = [window.scrollX, window.scrollY];
      for (const el of document.querySelectorAll("*")) if (el.scrollTop || el.scrollLeft) parts.push(el.scrollTop, el.scrollLeft);
      return parts.join(",");
    };
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const start = performance.now();
    let last = positions();
    let still = 0;
    while (still < 2 && performance.now() - start < maxMs) {
      await frame();
      const now = positions();
      still = now === last ? still + 1 : 0;
      last = now;
    }
  }

  window.__agent = {
    observe, settleAndObserve, clickPoint, node, leaveFieldFor, settleAndCheckSuggestions, settle,
    observedPaths, html, focusedField, scrollsSettled, scrollPage, act, switchScenario,
  };
  return window.__agent;
})()
