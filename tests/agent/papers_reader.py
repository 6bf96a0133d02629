"""The papers' page reader, reimplemented for tests: which elements the authors' client
(asappresearch/webagents-step at 6b5a909, `parser/liveweb_parsers.py`) lists, worked out from a
Chrome DevTools DOM snapshot taken as that reader takes it.

Its rule: from `DOMSnapshot.captureSnapshot`, a node is considered only if it has a layout box, is
not one of IGNORED, and (the reader looks at the browser window only) its box meets the window.
Text and the names carried by elements inside a link or a button are folded into that link or
button (a link is preferred when inside both); the inner elements themselves are not listed.
Every other node is listed as a link (`a`), an input (`input`; `type=submit` is a button), a
button (`button`, or any element with click listeners) or text; an element that has no text of
its own is dropped unless it is a link or an input, or a button carrying a name (NAME_KEYS: a
`button`'s own `type` does not count). A closed `<select>` is text with none of its own, so it is
never listed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

IGNORED = {"html", "head", "title", "meta", "iframe", "body", "script", "style", "path", "svg", "br",
           "::marker", "img"}
NAME_KEYS = ("type", "placeholder", "aria-label", "title", "alt")
SEPARATORS = {"|", "•"}  # text the reader leaves out


@dataclass
class Listed:
    """One element the reader lists."""

    node: int  # index in the snapshot
    kind: str  # link, input, button, text
    tag: str
    attributes: dict[str, str]
    text: str = ""
    names: list[str] = field(default_factory=list)  # the values of NAME_KEYS it (or what it folds in) carries
    in_open_dialog: bool = False  # inside a <dialog open>

    def line(self) -> str:
        """As the reader writes it: <kind id=N names>text</kind> (without the id)."""
        names = "".join(f" {name}" for name in self.names)
        return f"<{self.kind}{names}>{self.text}</{self.kind}>" if self.text else f"<{self.kind}{names}/>"


class Snapshot:
    """A DOMSnapshot.captureSnapshot answer, read node by node."""

    def __init__(self, answer: dict):
        strings = answer["strings"]
        document = answer["documents"][0]
        nodes = document["nodes"]
        self.names = [strings[i].lower() for i in nodes["nodeName"]]
        self.parents = nodes["parentIndex"]
        self.values = [strings[i] if i >= 0 else None for i in nodes["nodeValue"]]
        # An attribute without a value (`open`, `checked`) has the value index -1.
        self.attributes = [{strings[k]: strings[v] if v >= 0 else "" for k, v in zip(pairs[0::2], pairs[1::2])}
                           for pairs in nodes["attributes"]]
        self.clickable = set(nodes["isClickable"]["index"])
        self.input_values = {node: strings[value] for node, value in
                             zip(nodes["inputValue"]["index"], nodes["inputValue"]["value"]) if value >= 0}
        self.boxes: dict[int, list[float]] = {}
        for node, box in zip(document["layout"]["nodeIndex"], document["layout"]["bounds"]):
            self.boxes.setdefault(node, box)

    def in_open_dialog(self) -> list[bool]:
        inside: list[bool] = []
        for index, name in enumerate(self.names):
            parent = self.parents[index]
            opened = name == "dialog" and "open" in self.attributes[index]
            inside.append(opened or (inside[parent] if parent >= 0 else False))
        return inside

    def owners(self) -> list[int | None]:
        """For each node, the link (else the button) it is or lies inside, or None."""
        links: list[int | None] = []
        buttons: list[int | None] = []
        for index, name in enumerate(self.names):
            parent = self.parents[index]
            links.append(index if name == "a" else links[parent] if parent >= 0 else None)
            buttons.append(index if name == "button" else buttons[parent] if parent >= 0 else None)
        return [link if link is not None else button for link, button in zip(links, buttons)]


def capture(page) -> Snapshot:
    session = page.context.new_cdp_session(page)
    try:
        return Snapshot(session.send("DOMSnapshot.captureSnapshot",
                                     {"computedStyles": [], "includeDOMRects": True, "includePaintOrder": True}))
    finally:
        session.detach()


def reader_listing(page) -> list[Listed]:
    """What the papers' reader lists of the page now, in document order."""
    snapshot = capture(page)
    window = page.evaluate("[scrollX, scrollY, screen.width, screen.height, devicePixelRatio]")
    left, top, width, height, ratio = window
    owners, in_dialog = snapshot.owners(), snapshot.in_open_dialog()
    candidates: dict[int, Listed] = {}
    folded: dict[int, Listed] = {}  # owner node -> its entry, filled by what lies inside it
    for index, name in enumerate(snapshot.names):
        owner = owners[index]
        if owner is not None and owner not in folded:
            folded[owner] = Listed(owner, "", snapshot.names[owner], snapshot.attributes[owner])
        box = snapshot.boxes.get(index)
        if box is None or name in IGNORED:
            continue
        x, y, w, h = (value / ratio for value in box)
        if not (x < left + width and x + w >= left and y < top + height and y + h >= top):
            continue
        attributes = snapshot.attributes[index]
        is_button = name == "button" or (name == "input" and attributes.get("type") == "submit")
        names = [attributes[key] for key in _keys_in_order(attributes) if not (is_button and key == "type")]
        if owner is not None:
            if name == "#text":
                if snapshot.values[index] not in SEPARATORS:
                    folded[owner].text += f"{snapshot.values[index]} "
                continue
            folded[owner].names += [f'{key}="{attributes[key]}"' for key in _keys_in_order(attributes)
                                    if not (key == "type" and name == "button")]
            if name not in ("a", "button"):
                continue
        own = snapshot.values[index] if name == "#text" else snapshot.input_values.get(index) if name == "input" else None
        if own in SEPARATORS:
            continue
        entry = folded.get(index) or Listed(index, "", name, attributes)
        entry.kind = _kind(name, attributes, index in snapshot.clickable)
        entry.text = f"{own or ''} {entry.text}".strip()
        if owner is None:
            entry.names = names
        entry.in_open_dialog = in_dialog[index]
        candidates[index] = entry
    listed = []
    for entry in candidates.values():
        entry.text = entry.text.strip()
        if entry.kind in ("link", "input") or (entry.kind == "button" and entry.names) or entry.text:
            listed.append(entry)
    return listed


def _keys_in_order(attributes: dict[str, str]) -> list[str]:
    """The NAME_KEYS an element carries with a value, in the order its attributes are written."""
    return [key for key, value in attributes.items() if key in NAME_KEYS and value]


def _kind(name: str, attributes: dict[str, str], clickable: bool) -> str:
    if name == "a":
        return "link"
    if name == "input":
        return "button" if attributes.get("type") == "submit" else "input"
    if name == "button" or clickable:
        return "button"
    return "text"
