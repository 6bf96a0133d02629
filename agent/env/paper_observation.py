"""The papers' observation (HeaP App. F.2), as the authors' page reader shows the CRM:

    <text id=7>From</text>
    <input id=8 text From hint="City or airport code"/>
    <text id=9>To</text>
    <input id=10 text To hint="City or airport code"/>

The element-list grammar of observation.py, with four differences: the controls are those the
authors' page reader lists (inputs, links, textareas, and buttons with text or a name attribute;
never a select, whose closed options have no text; any other element is text); a label's text is
a text line of its own instead of being folded into its control; a control is named only by what
it carries itself (aria-label, title; the CRM puts its label there too); and a failed action adds
no `ERROR:` line (the papers' client showed none; the error stays in `Observation.error` and the
trajectory). At most MAX_ROWS elements, as the authors' client cut the page (200 rows).
tests/agent/test_papers_reader.py checks the controls against the reader's rule.

`PAPER` is how the paper protocol reads the page: `observe(page, error, settle, PAPER)`.
"""
from __future__ import annotations

from .observation import Reading

MAX_ROWS = 200
PAGE_OPTIONS = {"paper": True}  # page_agent.js observe(): the reader's controls, labels as text, own names
PAPER = Reading(PAGE_OPTIONS, MAX_ROWS, error_line=False)
