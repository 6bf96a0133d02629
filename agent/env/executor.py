"""Carrying out a parsed action on the page, the way a person would, or saying why it cannot."""
from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError

from .actions import Action, ActionError, parse_action
from .observation import Observation, Reading, call_page, observation_from, observe, page_node

ACTION_TIMEOUT_MS = 2_000
FIELD_KINDS = {"input", "select"}
CLICKABLE_KINDS = {"button", "link", "radio", "checkbox", "option"}
SCROLLING_KEYS = {"PageUp", "PageDown", "Home", "End", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"}


def perform(page, text: str, elements: list[dict]) -> tuple[Action | None, str | None]:
    """Parse and run an action's text: (the action or None, the message shown to the agent when it
    could not be parsed or carried out, else None). Never raises for a bad action."""
    action, error = read(text)
    if action is not None:
        error = attempt(page, action, elements)
    return action, error


def read(text: str, conversation: bool = True) -> tuple[Action | None, str | None]:
    """(the parsed action, None), or (None, the message shown to the agent); without
    `conversation` SAY and TRANSFER are refused (actions.parse_action)."""
    try:
        return parse_action(text, conversation), None
    except ActionError as err:
        return None, f"Cannot use {text.strip()[:80]!r}: {err}"


def attempt(page, action: Action, elements: list[dict]) -> str | None:
    """Run a parsed action: None, or the message shown to the agent when it could not be carried out."""
    try:
        execute(page, action, elements)
    except (ActionError, PlaywrightError) as err:
        return _failed(action, err)
    return None


def act_and_observe(page, action: Action, elements: list[dict], reading: Reading,
                    real_mouse: bool = False) -> Observation | None:
    """Carry out `action` and observe the page after it, in one page call where the action allows
    it (page_agent.js act(): clicks, typing, choosing, scrolling by a direction, stop); the error
    of an action that could not be carried out heads the observation as attempt() words it.
    None: the action needs real input (a position, a key, a field the page cannot fill itself,
    or with `real_mouse` a click, so that screenshots show the pointer's hover), and attempt()
    then observe() carry it out."""
    if action.point is not None or action.name not in IN_PAGE or (real_mouse and action.name == "click"):
        return None
    try:
        element, request = _page_request(action, elements)
    except ActionError as err:
        return observe(page, _failed(action, err), settle=True, reading=reading)
    data = call_page(page, "act", request, reading.page_options or {})
    outcome = data["outcome"]
    if outcome.get("native"):
        return None
    if outcome.get("enter"):  # the field is filled; a form submits on a real Enter only
        page.keyboard.press("Enter")
        return observe(page, settle=True, reading=reading)
    error = _failed(action, ActionError(_outcome_error(action, element, outcome))) if "error" in outcome else None
    return observation_from(data, error, reading)


IN_PAGE = {"click", "type", "clear", "scroll", "stop"}


def _page_request(action: Action, elements: list[dict]) -> tuple[dict | None, dict]:
    """(the element acted on, what page_agent.js act() is asked to do)."""
    if action.name in ("stop", "scroll"):
        return None, {"name": action.name, "direction": action.value}
    element = resolve(action, elements)
    if action.name == "click":
        _check_clickable(element)
        return element, {"name": "click", "id": element["id"]}
    text = (action.value or "") if action.name == "type" else ""
    _check_typable(element)
    if element["kind"] == "select":
        text = _option(element, text)
    return element, {"name": "type", "id": element["id"], "text": text, "enter": action.press_enter}


def _outcome_error(action: Action, element: dict | None, outcome: dict) -> str:
    if action.name == "scroll":
        return _edge(action.value)
    if action.name == "click":
        return _unusable(element, outcome)
    return f"Element {element['id']} is no longer on the page."


def _failed(action: Action, err: Exception) -> str:
    return f"{action} failed: {str(err).splitlines()[0]}"


def execute(page, action: Action, elements: list[dict]) -> None:
    """Run `action` against the elements of the last observation; raise ActionError if it fails."""
    if action.name == "stop":
        return
    if action.name == "scroll" and action.point is None:  # by a direction, not by a wheel delta
        _scroll_page(page, action.value)
        return
    if action.name in COORDINATE_ACTIONS:
        COORDINATE_ACTIONS[action.name](page, action)
        return
    element = resolve(action, elements)
    if action.name == "click":
        _click(page, element)
    elif action.name == "type":
        _type(page, element, action.value or "", action.press_enter)
    elif action.name == "clear":
        _type(page, element, "", False)


def resolve(action: Action, elements: list[dict]) -> dict:
    """The observed element an action names, by id or by visible label."""
    if isinstance(action.target, int):
        element = next((e for e in elements if e["id"] == action.target), None)
        if element is None:
            raise ActionError(f"There is no element with id {action.target} on the page.")
        return element
    return _by_label(action, elements)


def _by_label(action: Action, elements: list[dict]) -> dict:
    label = str(action.target).strip().lower()
    wanted = FIELD_KINDS if action.name in ("type", "clear") else CLICKABLE_KINDS
    for kinds in (wanted, wanted | {"text"}):
        exact = [e for e in elements if e["kind"] in kinds and e.get("name", "").lower() == label]
        partial = [e for e in elements if e["kind"] in kinds and label in e.get("name", "").lower()]
        for found in (exact, partial):
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                ids = ", ".join(str(e["id"]) for e in found[:6])
                raise ActionError(f"{action.target!r} names several elements (ids {ids}); use an id.")
    raise ActionError(f"No element labelled {action.target!r} on the page.")


def _check_clickable(element: dict) -> None:
    if element["kind"] == "select":
        raise ActionError(f'Element {element["id"]} is a select; choose an option with TYPE {element["id"]} "<option>".')


def _click(page, element: dict) -> None:
    _check_clickable(element)
    point = call_page(page, "clickPoint", element["id"])
    if "error" in point:
        raise ActionError(_unusable(element, point))
    try:
        page.mouse.click(point["x"], point["y"])
    except PlaywrightError as err:
        raise ActionError(f"Clicking element {element['id']} failed: {_first_line(err)}") from None


def _scroll_page(page, direction: str) -> None:
    """Most of a screen down or up (SCROLL down|up); an error at the page's end."""
    if not call_page(page, "scrollPage", direction):
        raise ActionError(_edge(direction))


def _edge(direction: str) -> str:
    edge = "bottom" if direction == "down" else "top"
    return f"The page is already at the {edge}; it cannot scroll {direction}."


def _check_typable(element: dict) -> None:
    ident = element["id"]
    if element["kind"] not in FIELD_KINDS:
        raise ActionError(f"Element {ident} is a {element['kind']}, not a text field or select; TYPE needs one.")
    if element.get("disabled"):
        raise ActionError(f"Element {ident} is disabled.")


def _type(page, element: dict, text: str, press_enter: bool) -> None:
    ident = element["id"]
    _check_typable(element)
    handle = page_node(page, "leaveFieldFor", ident)
    if handle is None:
        raise ActionError(f"Element {ident} is no longer on the page.")
    try:
        if element["kind"] == "select":
            _choose(handle, element, text)
            return
        handle.fill(text, timeout=ACTION_TIMEOUT_MS)
        _leave_field(page, ident, press_enter)
    except PlaywrightError as err:
        raise ActionError(f"Typing into element {ident} failed: {_first_line(err)}") from None


def _leave_field(page, ident: int, press_enter: bool) -> None:
    """Commit the typed text as a person does: Enter when asked, else Tab away, except when the
    field now shows suggestions, which stay open to be clicked (leaving later commits too)."""
    suggesting = call_page(page, "settleAndCheckSuggestions", ident)
    # The field has the focus after fill(), so the keyboard reaches it without another lookup.
    if press_enter:
        page.keyboard.press("Enter")
    elif not suggesting:
        page.keyboard.press("Tab")


def _choose(handle, element: dict, text: str) -> None:
    handle.select_option(label=_option(element, text), timeout=ACTION_TIMEOUT_MS)


def _option(element: dict, text: str) -> str:
    """The select's option `text` names (any case), as the select labels it."""
    wanted = text.strip().lower()
    options = element.get("options", [])
    match = next((o for o in options if o.lower() == wanted), None)
    if match is None:
        raise ActionError(f"Element {element['id']} has no option {text!r}; options: {', '.join(options)}.")
    return match


# ---- actions by position: plain mouse and keyboard input, as a person's ----

def _click_at(page, action: Action) -> None:
    page.mouse.click(*_inside_viewport(page, action))


def _move_to(page, action: Action) -> None:
    page.mouse.move(*_inside_viewport(page, action))


def _type_text(page, action: Action) -> None:
    focus = call_page(page, "focusedField")
    if not focus["ok"]:
        raise ActionError(f"No text field has the focus ({focus['focused']} has it); click the field first.")
    page.keyboard.type(action.value or "")


def _press(page, action: Action) -> None:
    page.keyboard.press(action.value)
    if action.value.split("+")[-1] in SCROLLING_KEYS:
        call_page(page, "scrollsSettled")  # keyboard scrolling is animated


def _wheel(page, action: Action) -> None:
    page.mouse.wheel(*action.point)
    call_page(page, "scrollsSettled")  # the wheel scrolls asynchronously


def _inside_viewport(page, action: Action) -> tuple[float, float]:
    x, y = action.point
    size = page.viewport_size or {"width": float("inf"), "height": float("inf")}
    if not (0 <= x < size["width"] and 0 <= y < size["height"]):
        raise ActionError(f"The point ({x:g}, {y:g}) is outside the {size['width']}x{size['height']} "
                          "viewport; scroll to bring the element into view.")
    return x, y


COORDINATE_ACTIONS = {"click_at": _click_at, "move_to": _move_to, "type_text": _type_text, "press": _press,
                      "scroll": _wheel}


def _unusable(element: dict, point: dict) -> str:
    ident = element["id"]
    reason = point["error"]
    if reason == "covered":
        return f"Element {ident} is hidden behind another element ({point['by']}); close that first."
    if reason == "disabled":
        return f"Element {ident} is disabled."
    return f"Element {ident} is no longer on the page."


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0][:200]
