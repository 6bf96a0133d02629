"""The knowledge base (issue 50): search, the list of articles, and one article or bulletin."""
from __future__ import annotations

from flask import request

from ..db import get_session
from ..scope import current_dataset
from ..services import knowledge_base as kb
from .blueprint import api


@api.get("/kb/search")
def search_knowledge_base():
    session = get_session()
    return {"results": kb.search(session, current_dataset(session), request.args.get("q"))}


@api.get("/kb/articles")
def list_articles():
    return {"articles": kb.listed_articles()}


@api.get("/kb/articles/<id>")
def read_article(id: str):  # noqa: A002  (the name the OpenAPI document and the tool give it)
    session = get_session()
    return {"article": kb.read(session, current_dataset(session), id)}
