"""WebWISE's filtered DOM observation: the page's useful elements, one per line, each with its id,
its HTML-like tag and its text, plus a mark on the elements the agent already clicked or changed.

    [10] input_text "From" value="SEA" changed
    [16] button "Search flights" clicked
    [21] h2 "Select your departing flight"
    [26] input_radio "Select 4:48pm MSY 9:05pm BOS CR750 3h 17m $187.91" checked
    [31] tr "Depart From Arrive To Flight Duration Price" offscreen-below

Useful elements are inputs of each kind, selects, buttons, links, suggestion options, and text in
headings, labels, table rows and cells, list items, paragraphs and plain spans/divs; other text (a
page header, a navigation bar's own text, a caption) is left out. `offscreen-above/below` says the
element lies outside the visible part of the page (scroll brings it into view).
"""
from __future__ import annotations

import json

HEADINGS = {f"h{level}" for level in range(1, 7)}
USEFUL_TEXT_TAGS = HEADINGS | {"label", "legend", "dt", "dd", "tr", "td", "th", "li", "p", "span", "div"}
CONTROL_TAGS = {"link": "a", "button": "button", "select": "select", "radio": "input_radio",
                "checkbox": "input_checkbox", "option": "option"}
MARKS = ("clicked", "changed")
FLAGS = ("checked", "disabled", "invalid", *MARKS, "offscreen-above", "offscreen-below")
ATTRIBUTES = ("value", "placeholder", "options")


def tag_of(item: dict) -> str | None:
    """The tag an element is shown with, or None when the filter leaves it out."""
    kind = item["kind"]
    if kind == "input":
        return f"input_{item.get('type', 'text')}"
    if kind == "text":
        tag = item.get("tag", "")
        return tag if tag in USEFUL_TEXT_TAGS else None
    return CONTROL_TAGS.get(kind)


def filtered_page(items: list[dict], marks: dict[int, str]) -> str:
    """The observation's elements (observation.elements) as the filtered page; `marks` maps an
    element id to "clicked" or "changed"."""
    return "\n".join(line for line in (page_line(item, marks.get(item["id"])) for item in items) if line)


def page_line(item: dict, mark: str | None = None) -> str | None:
    tag = tag_of(item)
    if tag is None:
        return None
    parts = [f"[{item['id']}] {tag} {_quoted(item.get('name', ''))}"]
    values = {"value": item.get("value"), "placeholder": item.get("hint"),
              "options": "|".join(item.get("options", []))}
    parts += [f"{key}={_quoted(values[key])}" for key in ATTRIBUTES if values[key]]
    flags = [flag for flag in ("checked", "disabled", "invalid") if item.get(flag)]
    flags += [mark] if mark in MARKS else []
    flags += [f"offscreen-{item['offscreen']}"] if item.get("offscreen") else []
    return " ".join(parts + flags)


def _quoted(text) -> str:
    return json.dumps(str(text), ensure_ascii=False)
