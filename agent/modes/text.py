"""Text modes made by the page script: the element list and the pruned DOM."""
from __future__ import annotations

from ..observation import call_page
from . import TEXT, Snapshot, register


@register("elements", TEXT, "one line per salient element with its id, e.g. <button id=13>Search flights</button>")
def elements(snapshot: Snapshot) -> str:
    return snapshot.observation.text


@register("html", TEXT, "the visible DOM without scripts, styles, classes or hidden parts; "
                        "elements of the list carry agent-id=N")
def html(snapshot: Snapshot) -> str:
    return call_page(snapshot.page, "html")
