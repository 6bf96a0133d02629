"""Text modes made by the page script: the element list and the pruned DOM."""
from __future__ import annotations

from ..observation import call_page


def element_list(snapshot) -> str:
    return snapshot.observation.text


def pruned_html(snapshot) -> str:
    return call_page(snapshot.page, "html")
