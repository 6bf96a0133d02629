"""Observation modes: the ways an agent can be shown the page, one registry.

    env = CrmEnv(url, observations=("elements", "som"))
    obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=3)
    obs.modes["som"]        # PNG bytes: the screenshot with numbered element boxes
    obs.elements[0]["box"]  # every element's box, whatever the modes

The element list is always extracted (its ids name elements in actions and its boxes locate them),
so asking for more modes costs only their own time; what two modes share (the screenshot under
`som`) is taken once per step. A new mode is one function of a Snapshot, in its own module, and
one `register` line below (or a call of `register` from outside the package).

The registry is filled at import and never changed in place: `register` publishes a new dict, so
any number of threads may read it (make environments, check modes) while another registers.
"""
from __future__ import annotations

import hashlib
import threading
import time
import weakref
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from ..observation import Observation
from .axtree import accessibility_tree
from .images import screenshot, set_of_marks
from .text import element_list, pruned_html

DEFAULT_MODES = ("elements",)
TEXT, IMAGE = "text", "image"  # what a mode gives: text, or PNG bytes


class Snapshot:
    """The page at one step, as the modes asked for see it; shared parts are made once."""

    def __init__(self, page, observation: Observation):
        self.page = page
        self.observation = observation

    @property
    def devtools(self):
        """The page's DevTools protocol session (one per page, kept while the page lives)."""
        return devtools_session(self.page)

    @cached_property
    def screenshot(self) -> bytes:
        """PNG of the viewport."""
        from .images import capture_viewport

        return capture_viewport(self)


_sessions: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_sessions_lock = threading.Lock()


def devtools_session(page):
    """A DevTools session on `page`, made on first use: a session costs round trips to open and
    close, and a page lives for a whole episode."""
    with _sessions_lock:
        session = _sessions.get(page)
        if session is None:
            session = _sessions[page] = page.context.new_cdp_session(page)
        return session


@dataclass(frozen=True)
class ObservationMode:
    name: str
    kind: str  # TEXT or IMAGE
    description: str
    extract: Callable[[Snapshot], str | bytes]


_modes: dict[str, ObservationMode] = {}  # replaced whole by register(), never changed in place
_registering = threading.Lock()


def register(name: str, kind: str, description: str, extract: Callable[[Snapshot], str | bytes]) -> None:
    global _modes
    with _registering:
        _modes = {**_modes, name: ObservationMode(name, kind, description, extract)}


def modes() -> dict[str, ObservationMode]:
    """Every mode by name, the built-in ones first (do not change the dict: `register` instead)."""
    return _modes


# The modes that come with the harness, in the order they are listed.
register("elements", TEXT, "one line per salient element with its id, e.g. <button id=13>Search flights</button>",
         element_list)
register("axtree", TEXT, "Chromium's accessibility tree flattened to text, one node per line, with the element "
         "list's ids", accessibility_tree)
register("screenshot", IMAGE, "PNG of the viewport", screenshot)
register("som", IMAGE, "set of marks: the screenshot with a numbered box on every element of the list (number = "
         "element id)", set_of_marks)
register("html", TEXT, "the visible DOM without scripts, styles, classes or hidden parts; elements of the list "
         "carry agent-id=N", pruned_html)


def describe_modes() -> str:
    """One line per mode, for --help and errors."""
    return "\n".join(f"{mode.name}: {mode.description}" for mode in modes().values())


def check_modes(names) -> tuple[str, ...]:
    """The modes asked for, in order, without repeats; ValueError naming the known ones otherwise."""
    chosen, known = tuple(dict.fromkeys(name.strip() for name in names if name.strip())), modes()
    unknown = [name for name in chosen if name not in known]
    if unknown or not chosen:
        raise ValueError(f"unknown observation mode {', '.join(unknown) or '(none given)'}; "
                         f"known: {', '.join(known)}")
    return chosen


def extract_modes(page, observation: Observation, names: tuple[str, ...]) -> dict[str, float]:
    """Fill `observation.modes` with each mode asked for; milliseconds each took, by name."""
    snapshot, known = Snapshot(page, observation), modes()
    timings = {}
    for name in names:
        start = time.perf_counter()
        observation.modes[name] = known[name].extract(snapshot)
        timings[name] = round((time.perf_counter() - start) * 1000, 2)
    return timings


def has_images(names) -> bool:
    return any(modes()[name].kind == IMAGE for name in names)


def has_text(names) -> bool:
    return any(modes()[name].kind == TEXT for name in names)


def page_text(observation: Observation, image_note: str = "") -> str:
    """The text modes of an observation for a prompt: one alone as it is, several under their
    names; with images and no text mode, `image_note`. The last action's error comes first (the
    element list already starts with it). An observation made outside CrmEnv (no modes) reads as
    its element list."""
    if not observation.modes:
        return observation.text
    texts = {name: value for name, value in observation.modes.items() if modes()[name].kind == TEXT}
    error = [f"ERROR: {observation.error}"] if observation.error and "elements" not in texts else []
    if not texts:
        return "\n".join(error + [image_note])
    if len(texts) == 1:
        return "\n".join(error + list(texts.values()))
    return "\n\n".join(error + [f"[{name}]\n{text}" for name, text in texts.items()])


def page_images(observation: Observation) -> list[bytes]:
    """The image modes of an observation (PNG bytes), in the order they were asked for."""
    return [value for name, value in observation.modes.items() if modes()[name].kind == IMAGE]


def modes_record(observation: Observation) -> dict:
    """The modes of an observation for a trajectory file, the element list left out (it is there
    already): text as it is, an image as its size and SHA-256 (the PNG itself is not kept)."""
    record = {}
    for name, value in observation.modes.items():
        if name == "elements":
            continue
        record[name] = value if isinstance(value, str) else {
            "png_bytes": len(value), "sha256": hashlib.sha256(value).hexdigest()}
    return record
