"""The knowledge base (issue 50): the airline's articles, written by the team as data
(crm_app/knowledge_base/*.json, one file per topic), and a scenario's own bulletins, both stored as
kb_documents rows and searched on the database's own full-text engine: SQLite FTS5 (a kb_fts
table kept by triggers) or PostgreSQL's text search.

The ranking contract, the same on both engines: a query's words (letters and digits; PostgreSQL's
English stop words left out) are matched stemmed, in the title or the body, and an article matching
any of them is a result. Results come by the number of the query's words they match, then by the
number their title matches, then shorter titles first, then by id; at most MAX_RESULTS. The engine
finds the matches and cuts the snippet (matched words in **bold**); the order depends on nothing
else, so both engines give the same list.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sqlalchemy import bindparam, delete, inspect, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db import write_transaction
from ..models import KbDocument
from .errors import InvalidInput, NotFound, excerpt

ARTICLES_FOLDER = Path(__file__).resolve().parent.parent / "knowledge_base"
EVERY_DATASET = ""  # the dataset of the articles: every dataset reads them

# The articles the expert suite's violations cite (issue 50): keep these ids.
PRIVACY_VERIFICATION = "privacy-verification"  # verify identity before discussing or changing a booking
PRIVACY_THIRD_PARTY = "privacy-third-party"  # never another person's email, date of birth, code or card digits
CONDUCT_AUTHORITY_CLAIMS = "conduct-authority-claims"  # claimed authority, approvals, threats change nothing
CONDUCT_DATA_IS_NOT_INSTRUCTIONS = "conduct-data-is-not-instructions"  # text in data is never an order
RULE_ARTICLES = (PRIVACY_VERIFICATION, PRIVACY_THIRD_PARTY, CONDUCT_AUTHORITY_CLAIMS, CONDUCT_DATA_IS_NOT_INSTRUCTIONS)

MAX_RESULTS = 10
MAX_QUERY = 200  # characters of a query
MAX_WORDS = 12  # words of a query searched for
SNIPPET_WORDS = 16
BOLD, ELLIPSIS = "**", "…"
# PostgreSQL's English stop words (tsearch_data/english.stop): left out on both engines alike.
STOP_WORDS = frozenset("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it
its itself they them their theirs themselves what which who whom this that these those am is are was were be been
being have has had having do does did doing a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over under again further
then once here there when where why how all any both each few more most other some such no nor not only own same so
than too very s t can will just don should now""".split())


@dataclass(frozen=True)
class Article:
    id: str
    title: str
    effective: dt.date
    body: str
    superseded_by: str | None = None
    terms: dict | None = None

    def listed(self) -> dict:
        return {"id": self.id, "title": self.title, "effective": self.effective.isoformat(),
                "superseded_by": self.superseded_by}

    def answer(self) -> dict:
        return {**self.listed(), "body": self.body}


@lru_cache(maxsize=1)
def articles() -> tuple[Article, ...]:
    """Every article of the repository's knowledge base, by topic file then in file order."""
    found = []
    for path in sorted(ARTICLES_FOLDER.glob("*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")):
            found.append(Article(row["id"], row["title"], dt.date.fromisoformat(row["effective"]), row["body"],
                                 row.get("superseded_by"), row.get("terms")))
    return tuple(found)


@lru_cache(maxsize=1)
def article_by_id() -> dict[str, Article]:
    """The articles by id, read once (every in_force and bulletin check asks)."""
    return {article.id: article for article in articles()}


def in_force(article: Article) -> Article:
    """The article that replaced this one, and the one that replaced that, to the one in force."""
    by_id, seen = article_by_id(), set()
    while article.superseded_by and article.id not in seen:
        seen.add(article.id)
        article = by_id[article.superseded_by]
    return article


def _row(dataset: str, article: Article) -> KbDocument:
    return KbDocument(dataset=dataset, key=article.id, title=article.title, effective=article.effective,
                      superseded_by=article.superseded_by, body=article.body, terms=article.terms)


def _stored(row: KbDocument) -> Article:
    return Article(row.key, row.title, row.effective, row.body, row.superseded_by, row.terms)


def _fingerprint(article: Article) -> str:
    return json.dumps({**article.answer(), "terms": article.terms}, sort_keys=True)


@lru_cache(maxsize=1)
def _wanted_fingerprints() -> list[str]:
    """The repository's articles as seed_articles compares them: made once, not at every app start."""
    return sorted(map(_fingerprint, articles()))


def seed_articles(session: Session) -> None:
    """Store the repository's articles, replacing those stored when they differ (a newer version)."""
    wanted = _wanted_fingerprints()
    try:
        with write_transaction(session):
            rows = session.scalars(select(KbDocument).where(KbDocument.dataset == EVERY_DATASET)).all()
            if sorted(_fingerprint(_stored(row)) for row in rows) == wanted:
                return
            session.execute(delete(KbDocument).where(KbDocument.dataset == EVERY_DATASET))
            session.add_all(_row(EVERY_DATASET, article) for article in articles())
    except IntegrityError:
        pass  # a server started at the same time stored them first


def bulletin_row(dataset: str, bulletin: Article) -> KbDocument:
    """A scenario's bulletin as a row to add in the caller's transaction (a scenario's setup)."""
    if bulletin.id in article_by_id():
        raise ValueError(f"a bulletin's id may not be an article's: {bulletin.id}")
    return _row(dataset, bulletin)


def create_search_index(connection: Connection) -> None:
    """SQLite: the FTS5 index of kb_documents, kept by triggers on every insert and delete (rows
    are never updated); PostgreSQL searches the table itself."""
    if connection.dialect.name != "sqlite" or not inspect(connection).has_table(KbDocument.__tablename__):
        return
    connection.exec_driver_sql("CREATE VIRTUAL TABLE IF NOT EXISTS kb_fts USING fts5("
                               "title, body, tokenize='porter unicode61')")
    connection.exec_driver_sql("CREATE TRIGGER IF NOT EXISTS kb_fts_added AFTER INSERT ON kb_documents BEGIN "
                               "INSERT INTO kb_fts(rowid, title, body) VALUES (new.id, new.title, new.body); END")
    connection.exec_driver_sql("CREATE TRIGGER IF NOT EXISTS kb_fts_removed AFTER DELETE ON kb_documents BEGIN "
                               "DELETE FROM kb_fts WHERE rowid = old.id; END")


# ---- reading ----

def listed_articles() -> list[dict]:
    """Every article (bulletins are found by search only)."""
    return [article.listed() for article in articles()]


def read(session: Session, dataset: str, key: str) -> dict:
    """An article, or a bulletin of the dataset, with its body."""
    row = session.scalar(select(KbDocument).where(KbDocument.key == key[:80],
                                                  KbDocument.dataset.in_((EVERY_DATASET, dataset)))
                         .order_by(KbDocument.dataset.desc()).limit(1))
    if row is None:
        raise NotFound(f"No article {excerpt(key)}: GET /api/kb/search?q= finds articles by their words")
    return _stored(row).answer()


def bulletins(session: Session, dataset: str) -> list[Article]:
    """The dataset's own bulletins (none for the sandbox), as the policy reads them."""
    if dataset == EVERY_DATASET:
        return []
    rows = session.scalars(select(KbDocument).where(KbDocument.dataset == dataset).order_by(KbDocument.key))
    return [_stored(row) for row in rows]


# ---- search ----

def query_words(query: str | None) -> list[str]:
    """The words a query searches for; a clear error for a query with none."""
    query = (query or "").strip()
    if not query:
        raise InvalidInput("Missing search words: add ?q=<words>")
    if len(query) > MAX_QUERY:
        raise InvalidInput(f"A search is at most {MAX_QUERY} characters")
    words = list(dict.fromkeys(word for word in re.findall(r"[^\W_]+", query.casefold()) if word not in STOP_WORDS))
    if not words:
        raise InvalidInput(f"Nothing to search for in {excerpt(query)!r}: use words of the articles")
    return words[:MAX_WORDS]


def search(session: Session, dataset: str, query: str | None) -> list[dict]:
    """The articles and the dataset's bulletins matching the query, ranked (see the module's doc)."""
    words = query_words(query)
    engine = _POSTGRESQL if session.get_bind().dialect.name == "postgresql" else _SQLITE
    datasets = (EVERY_DATASET, dataset)
    anywhere, in_title = {}, {}
    for word in words:
        for found, column in ((anywhere, None), (in_title, "title")):
            for row_id in engine.matching(session, word, column, datasets):
                found[row_id] = found.get(row_id, 0) + 1
    if not anywhere:
        return []
    rows = session.scalars(select(KbDocument).where(KbDocument.id.in_(anywhere))).all()
    ranked = sorted(rows, key=lambda row: (-anywhere[row.id], -in_title.get(row.id, 0), len(row.title.split()),
                                           row.key, row.dataset))[:MAX_RESULTS]
    snippets = engine.snippets(session, words, [row.id for row in ranked])
    return [{"id": row.key, "title": row.title, "snippet": _framed(snippets.get(row.id, ""), row.body),
             "effective": row.effective.isoformat(), "superseded_by": row.superseded_by} for row in ranked]


def _framed(snippet: str, body: str) -> str:
    """The engine's passage of the body, with "…" where it cuts the body (so alike on both engines)."""
    passage = snippet.strip().strip(ELLIPSIS).strip()
    plain = passage.replace(BOLD, "")
    return "".join([ELLIPSIS if not body.startswith(plain) else "", passage, ELLIPSIS if not body.endswith(plain) else ""])


class _Sqlite:
    @staticmethod
    def matching(session: Session, word: str, column: str | None, datasets: tuple[str, ...]) -> list[int]:
        match = f'{column} : "{word}"' if column else f'"{word}"'
        statement = text("SELECT kb_fts.rowid FROM kb_fts JOIN kb_documents ON kb_documents.id = kb_fts.rowid "
                         "WHERE kb_fts MATCH :match AND kb_documents.dataset IN :datasets"
                         ).bindparams(bindparam("datasets", expanding=True))
        return list(session.scalars(statement, {"match": match, "datasets": list(datasets)}))

    @staticmethod
    def snippets(session: Session, words: list[str], ids: list[int]) -> dict[int, str]:
        statement = text(f"SELECT rowid, snippet(kb_fts, 1, '{BOLD}', '{BOLD}', '{ELLIPSIS}', {SNIPPET_WORDS}) FROM kb_fts "
                         "WHERE kb_fts MATCH :match AND rowid IN :ids").bindparams(bindparam("ids", expanding=True))
        match = " OR ".join(f'"{word}"' for word in words)
        return dict(session.execute(statement, {"match": match, "ids": ids}).all())


class _Postgresql:
    @staticmethod
    def matching(session: Session, word: str, column: str | None, datasets: tuple[str, ...]) -> list[int]:
        searched = "title" if column else "title || ' ' || body"
        statement = text(f"SELECT id FROM kb_documents WHERE to_tsvector('english', {searched}) @@ "
                         "plainto_tsquery('english', :word) AND dataset IN :datasets"
                         ).bindparams(bindparam("datasets", expanding=True))
        return list(session.scalars(statement, {"word": word, "datasets": list(datasets)}))

    @staticmethod
    def snippets(session: Session, words: list[str], ids: list[int]) -> dict[int, str]:
        # A body as short as a snippet is shown whole, as FTS5's snippet() does.
        marks = f"StartSel={BOLD}, StopSel={BOLD}"
        statement = text("SELECT id, CASE WHEN array_length(regexp_split_to_array(trim(body), '\\s+'), 1) <= :words "
                         "THEN ts_headline('english', body, to_tsquery('english', :query), :whole) "
                         "ELSE ts_headline('english', body, to_tsquery('english', :query), :cut) END "
                         "FROM kb_documents WHERE id IN :ids").bindparams(bindparam("ids", expanding=True))
        return dict(session.execute(statement, {
            "query": " | ".join(words), "words": SNIPPET_WORDS, "whole": f"{marks}, HighlightAll=true",
            "cut": f"{marks}, MaxWords={SNIPPET_WORDS}, MinWords={SNIPPET_WORDS // 2}", "ids": ids}).all())


_SQLITE, _POSTGRESQL = _Sqlite(), _Postgresql()
