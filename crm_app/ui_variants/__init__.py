"""The CRM's UI variants (issue 25): the same CRM in other looks, to measure whether an agent
generalizes beyond the one page it was shown. Variant 0 is the page as it has always been; a
scenario asks for another with ?ui_variant=K (or `random`, drawn from its seed) and keeps it.

A variant is data: its number, a one-line description, and how it differs from variant 0:
- wording: labels, headings, buttons and links say synonym K of their text (wording.py);
- identifiers: ids, test ids, field names and classes are opaque per-variant tokens (names.py);
- widgets: Title and Gender as a select, radio buttons or a segmented control; dates through the
  calendar, typed with their format shown, or three selects; airports through the autocomplete, a
  typed code or a select grouped by state; flights as a table, cards or a list, sorted by departure
  or by price;
- order and layout: the passenger and search fields in another order, the passenger form in two
  steps, the search form in a side panel, the navigation as a top bar, a side menu or tiles;
- theme: colours, type and spacing (a class on the page's body, static/style.css).
Every workflow stays possible in every variant, and the page reports each event by the semantic
name of its control, so gold steps and scores are the same in all of them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..services.variant_choice import stored_variant, variant_choice
from .names import Namer, renamed_classes, script_classes
from .wording import SCRIPT_WORDS, words

PASSENGER_FIELDS = ("title", "firstname", "lastname", "email", "gender", "dob")
SEARCH_FIELDS = ("from", "to", "depart", "return")


@dataclass(frozen=True)
class UiVariant:
    number: int
    description: str
    theme: str = ""  # the CSS class of the page's body; "" for variant 0's plain look
    choices: str = ""  # Title and Gender: "select", "radio", "segmented"; "": as the suite shows them
    dates: str = "calendar"  # "calendar" (typed, or picked from the month grid), "typed" (format shown) or
    # "selects" (month, day and year)
    airports: str = "autocomplete"  # or "code" (a typed three-letter code), or "grouped" (a select by state)
    results: str = "table"  # flights as a "table", "cards" or a "list"
    sort: str = "departure"  # flights in order of "departure" or of "price"
    nav: str = "top"  # the navigation as a "top" bar, a "side" menu or "tiles"
    search_panel: bool = False  # the search form in a side panel beside the home screen's text
    passenger_steps: bool = False  # the booking's passenger form in two steps: three fields, Next, the rest
    passenger_order: tuple[str, ...] = PASSENGER_FIELDS
    search_order: tuple[str, ...] = SEARCH_FIELDS

    def layout_classes(self) -> str:
        """The body's classes: the theme, then what the layout differs in."""
        parts = [self.theme, f"nav-{self.nav}" if self.nav != "top" else "",
                 "search-panel" if self.search_panel else ""]
        return " ".join(part for part in parts if part)


VARIANTS: tuple[UiVariant, ...] = (
    UiVariant(0, "the CRM as the papers' agents saw it"),
    UiVariant(1, "dusk: dark theme, travel words, radio choices, typed dates, flight cards, side menu",
              "theme-dusk", choices="radio", dates="typed", results="cards", nav="side",
              passenger_order=("firstname", "lastname", "title", "gender", "dob", "email")),
    UiVariant(2, "print: serif on cream, segmented choices, typed airport codes, a flight list by price, tiles",
              "theme-print", choices="segmented", airports="code", results="list", sort="price", nav="tiles",
              search_order=("depart", "return", "from", "to")),
    UiVariant(3, "compact: small type, selects for choices, dates and airports by state, a table by price, side menu",
              "theme-compact", choices="select", dates="selects", airports="grouped", sort="price", nav="side",
              search_panel=True),
    UiVariant(4, "roomy: large type, segmented choices, flight cards by price, side search panel, passenger in 2 steps",
              "theme-roomy", choices="segmented", results="cards", sort="price", search_panel=True, passenger_steps=True,
              passenger_order=("email", "title", "firstname", "lastname", "dob", "gender")),
    UiVariant(5, "contrast: black on white, radio choices, typed dates, airports by state, a flight list, tiles, "
                 "passenger in 2 steps",
              "theme-contrast", choices="radio", dates="typed", airports="grouped", results="list", nav="tiles",
              passenger_steps=True,
              search_order=("to", "from", "depart", "return")),
    UiVariant(6, "forest: green, rounded, segmented choices, date selects, airport codes, flight cards, side menu",
              "theme-forest", choices="segmented", dates="selects", airports="code", results="cards", nav="side",
              passenger_order=("lastname", "firstname", "title", "dob", "gender", "email")),
)
DEFAULT = VARIANTS[0]


def variant_named(value, seed: int) -> UiVariant | None:
    """The variant a request names (?ui_variant=: a number, `random`), or None when it names none
    (its page is variant 0); InvalidInput says the choices."""
    return variant_choice(value, seed, VARIANTS, "ui_variant")


def variant(number: int | None) -> UiVariant:
    """A stored scenario's variant (None: made before variants, so 0)."""
    return stored_variant(number, VARIANTS)


def variants_json() -> list[dict]:
    return [{"id": v.number, "description": v.description} for v in VARIANTS]


@dataclass
class PageVocabulary:
    """What a page of variant `variant` says and calls things: its words, its namer (ids), and the
    JSON its scripts read back (names, the words they write, how they show flights)."""
    variant: UiVariant

    def __post_init__(self):
        self.words = words(self.variant.number)
        self.namer = Namer(self.variant.number)

    def classes(self, names: str) -> str:
        """A class attribute's value in this variant."""
        return renamed_classes(self.variant.number, names)

    def for_scripts(self) -> dict:
        return {"names": self.namer.table(), "classes": script_classes(self.variant.number),
                "words": {key: self.words[key] for key in SCRIPT_WORDS},
                "results": self.variant.results, "sort": self.variant.sort}

