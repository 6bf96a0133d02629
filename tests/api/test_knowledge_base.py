"""The knowledge base (issue 50): its articles as data, agreeing with the policy the CRM enforces,
and its search, one ranking contract on SQLite FTS5 and on PostgreSQL's text search (this file runs
on both in make test)."""
import datetime as dt

import pytest

from crm_app.services.knowledge_base import RULE_ARTICLES, articles, in_force
from crm_app.services.policy import FARE_RULES, policy_text


def test_every_article_is_listed_with_its_effective_date_and_what_replaced_it(client):
    answer = client.get("/api/kb/articles")
    assert answer.status_code == 200
    listed = answer.json["articles"]
    assert len(listed) >= 150 and len({article["id"] for article in listed}) == len(listed)
    assert set(listed[0]) == {"id", "title", "effective", "superseded_by"}
    by_id = {article["id"]: article for article in listed}
    for article in listed:
        if article["superseded_by"]:
            newer = by_id[article["superseded_by"]]
            assert newer["effective"] > article["effective"] and newer["superseded_by"] is None
    assert all(by_id[key]["superseded_by"] is None for key in RULE_ARTICLES)


def test_an_article_is_read_with_its_body_and_an_unknown_one_is_a_404(client):
    answer = client.get("/api/kb/articles/compensation-gold-2024")
    assert answer.status_code == 200
    article = answer.json["article"]
    assert (article["title"], article["effective"], article["superseded_by"]) == (
        "Gold delay certificate", "2024-03-01", "compensation-gold")
    assert "$100.00 for 4 hours or more" in article["body"]
    assert "$150.00 for 4 hours or more" in client.get("/api/kb/articles/compensation-gold").json["article"]["body"]
    missing = client.get("/api/kb/articles/no-such-article")
    assert missing.status_code == 404 and missing.json == {
        "error": "No article no-such-article: GET /api/kb/search?q= finds articles by their words"}


def test_results_rank_by_words_matched_then_in_the_title_then_shorter_titles(client):
    results = client.get("/api/kb/search", query_string={"q": "Gold delay certificate"}).json["results"]
    # both Gold articles match all three words in their titles: the shorter title, the superseded one, first
    assert [result["id"] for result in results[:2]] == ["compensation-gold-2024", "compensation-gold"]
    assert results[0]["superseded_by"] == "compensation-gold" and results[1]["superseded_by"] is None
    assert set(results[0]) == {"id", "title", "snippet", "effective", "superseded_by"}
    assert len(results) == 10  # at most ten
    pets = client.get("/api/kb/search", query_string={"q": "pets in the cabin fee"}).json["results"]
    # all three words matched by each; then by how many are in the title: 3, 2, 1
    assert [result["id"] for result in pets[:3]] == ["pet-in-cabin-2024", "pet-in-cabin", "pet-in-hold"]


def test_words_match_stemmed_and_the_snippet_marks_them(client):
    results = client.get("/api/kb/search", query_string={"q": "refunds"}).json["results"]
    partial = next(result for result in results if result["id"] == "refund-partial")
    assert partial["snippet"] == "A booking is **refunded** in full or not at all; the CRM makes no partial **refunds**."
    bodies = {article.id: article.body for article in articles()}
    for result in results:  # a passage of the body, "…" where it is cut
        passage = result["snippet"].replace("**", "")
        assert passage.strip("…") in bodies[result["id"]]
        assert passage.startswith("…") != bodies[result["id"]].startswith(passage.strip("…"))
    long = client.get("/api/kb/search", query_string={"q": "hotel"}).json["results"][0]
    assert long["id"] == "compensation-hotel" and long["snippet"].startswith("…") and "**hotel**" in long["snippet"]
    assert client.get("/api/kb/search", query_string={"q": "zeppelin"}).json == {"results": []}


@pytest.mark.parametrize("query, status, message", [
    ("", 400, "Missing search words: add ?q=<words>"),
    ("   ", 400, "Missing search words: add ?q=<words>"),
    ("the of and", 400, "Nothing to search for in 'the of and': use words of the articles"),
    ("x" * 201, 400, "A search is at most 200 characters"),
])
def test_a_search_with_no_words_is_a_clear_400(client, query, status, message):
    answer = client.get("/api/kb/search", query_string={"q": query})
    assert (answer.status_code, answer.json) == (status, {"error": message})


def test_odd_queries_are_searched_not_failed(client):
    for query in ('"gold', "gold AND OR NOT", "title: refund", "24-hour*", "é ü 中文", "'; DROP TABLE kb --"):
        assert client.get("/api/kb/search", query_string={"q": query}).status_code == 200, query
    assert client.get("/api/kb/search").status_code == 400
    assert client.post("/api/kb/search", json={}).status_code == 405


def test_the_articles_in_force_say_what_the_policy_enforces():
    by_id = {article.id: article for article in articles()}
    table = by_id["fare-families-compared"].body
    for line in policy_text().splitlines():
        if line.startswith("| ") and "fare" not in line and "---" not in line:
            assert line in table
    assert "$75.00 change fee" in by_id["fare-standard-changes"].body and FARE_RULES["Standard"].change_fee_cents == 7500
    assert "within 24 hours of departure" in by_id["rule-24-hour-departure"].body
    assert "3 hours or more" in by_id["disruption-rebooking"].body and "7 days" in by_id["disruption-rebooking"].body
    assert "at most 2 characters" in by_id["name-correction"].body
    assert in_force(by_id["fare-change-fee-2023"]).id == "fare-standard-changes"
    assert all(article.effective <= dt.date(2026, 6, 1) for article in articles())
