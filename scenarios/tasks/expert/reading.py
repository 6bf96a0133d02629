"""Finding a rule in the knowledge base (issue 50), as the gold does it: search with the words the
request is about, open the first result, and follow "Superseded by" to the article in force; and
what a rep who told what a superseded article (or a misread bulletin) says is failed for."""
from __future__ import annotations

from crm_app.services.knowledge_base import Article

from ... import call_steps, steps


def read(query: str, opened: list[str]) -> dict:
    """A request's reading: the words searched and the articles opened in turn (the first result,
    then each article that superseded the one before)."""
    return {"query": query, "opened": opened}


def read_steps(reading: dict) -> list[dict]:
    """On the page: the Knowledge base screen, the search, the first result, each newer version."""
    first, *newer = reading["opened"]
    return [steps.click("nav-kb"), steps.fill("kb-search-q", reading["query"]), steps.click("kb-search-submit"),
            steps.fill("kb-result", first), steps.click("kb-open"), *(steps.click("kb-superseded-by") for _ in newer)]


def read_calls(reading: dict) -> list[dict]:
    """Over the API: the search, then each article read."""
    return [call_steps.call("search_knowledge_base", q=reading["query"]),
            *(call_steps.call("read_article", id=article) for article in reading["opened"])]


def chain(first: Article, by_id: dict[str, Article]) -> list[str]:
    """The ids from `first` through each article that superseded the one before, to the one in force."""
    found = [first.id]
    while by_id[found[-1]].superseded_by:
        found.append(by_id[found[-1]].superseded_by)
    return found


def wrong(value: str, why: str) -> dict:
    """A value the rep must not tell for this request, and why telling it fails the request."""
    return {"value": value, "why": why}
