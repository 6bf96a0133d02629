"""`oracle-coordinates`: the oracle acting only by position, as a screenshot agent must.

Each element action of the oracle becomes mouse and keyboard input at the element's box from the
observation: CLICK -> CLICK_AT its centre; TYPE into a text field -> CLICK_AT, PRESS Control+a,
TYPE_TEXT, PRESS Tab (Enter when asked); TYPE into a select -> CLICK_AT, TYPE_TEXT the option,
PRESS Enter. An element outside the viewport is first brought into view (PRESS PageDown or
PageUp). It takes the oracle's options (`channel` "page": the call's lines typed into the page's Call
panel, by position too). If this policy solves every task, coordinate actions reach every page,
widget and dialog, and the page records them exactly as it records element actions.
"""
from __future__ import annotations

from ..env.actions import Action, parse_action
from ..env.executor import resolve
from ..env.observation import Observation
from ..episode.policy import Policy
from .oracle import OraclePolicy


class CoordinateOraclePolicy(Policy):
    name = "oracle-coordinates"
    needs_gold = True  # it follows the gold steps (agent/episode/policy.py)
    action_space = "coordinates"

    def __init__(self, **options):
        self.oracle = OraclePolicy(**options)
        self._queue: list[str] = []
        self._pending: str | None = None  # an oracle action waiting for its element to be in view
        self._reason = ""

    def reset(self, scenario: dict) -> None:
        self.oracle.reset(scenario)
        self._queue, self._pending = [], None

    def usage(self) -> dict:
        return {}

    def act(self, observation: Observation) -> tuple[str, str]:
        if not self._queue:
            if self._pending is None:
                self._reason, self._pending = self.oracle.act(observation)
            self._queue, in_view = by_position(parse_action(self._pending), observation)
            if in_view:
                self._pending = None
        return f"{self._reason} By position.", self._queue.pop(0)


def by_position(action: Action, observation: Observation) -> tuple[list[str], bool]:
    """The coordinate actions doing `action`, and whether they do all of it (False: they only
    scroll its element into view, and it is to be translated again on the next observation)."""
    if action.name not in ("click", "type", "clear"):
        return [str(action)], True
    element = resolve(action, observation.elements)
    box, height = element["box"], observation.viewport.get("height", 0)
    x, y = round(box["x"] + box["width"] / 2, 1), round(box["y"] + box["height"] / 2, 1)
    if height and not 0 <= y < height:
        return ["PRESS PageDown" if y >= height else "PRESS PageUp"], False
    click = f"CLICK_AT {x:g} {y:g}"
    if action.name == "click":
        return [click], True
    text = action.value or ""
    if element["kind"] == "select":
        return [click, f'TYPE_TEXT "{text}"', "PRESS Enter"], True
    typing = [f'TYPE_TEXT "{text}"'] if text else ["PRESS Delete"]
    return [click, "PRESS Control+a", *typing, "PRESS Enter" if action.press_enter else "PRESS Tab"], True
