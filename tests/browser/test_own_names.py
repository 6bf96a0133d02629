"""Every form control carries its name on the element itself (aria-label) as well as its <label>, so
page readers that do not follow labels (the papers', HeaP App. F.2) still see a named control; the
names are the labels' text, so the label contract stays as it was."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ui import region, to_passenger_details

pytestmark = pytest.mark.browser

CONTROLS = "input:not([type=hidden]), select, textarea"

UNNAMED = f"""() => [...document.querySelectorAll("{CONTROLS}")]
    .filter((el) => !(el.getAttribute("aria-label") || el.getAttribute("title") || "").trim())
    .map((el) => el.outerHTML.slice(0, 120))"""

LABEL_MISMATCH = f"""() => [...document.querySelectorAll("{CONTROLS}")]
    .filter((el) => el.labels && el.labels.length && el.id)
    .filter((el) => el.getAttribute("aria-label") !== [...el.labels].map((l) => l.textContent.trim()).join(" "))
    .map((el) => el.id)"""


def test_every_control_is_named_on_itself_on_every_screen(app_page):
    page = app_page
    to_passenger_details(page)  # the search form, the flight rows and the passenger form are built by now
    assert page.evaluate(f"() => document.querySelectorAll('{CONTROLS}').length") > 40
    assert page.evaluate(UNNAMED) == []
    assert page.evaluate(LABEL_MISMATCH) == []  # the same name as the label's text
    passenger = region(page, "Passenger details")
    for name in ("Title", "Gender"):
        select = passenger.get_by_label(name, exact=True)
        expect(select).to_have_attribute("aria-label", name)
        expect(select).to_have_accessible_name(name)
