"""The expert suite's terms that live in the knowledge base (issue 50), computed from the articles
in force and a scenario's bulletins, so that the page, the API, the gold and the scoring read one
source: the travel certificate a loyalty tier is owed for a delay (the compensation articles'
`terms`), and whether a waiver bulletin covers a flight (its `terms`: route and days)."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from .knowledge_base import Article, articles, in_force
from .pricing import money

TIERS = ("Member", "Silver", "Gold", "Platinum")
CERTIFICATE, WAIVER, FEE, TEMPORARY = "certificate", "waiver", "fee", "temporary"  # the `terms` keys the policy reads


@dataclass(frozen=True)
class Amount:
    """What an `article` gives for a delay (in cents), and that amount as a rep says it."""
    cents: int
    article: str

    @property
    def said(self) -> str:
        return f"${money(self.cents)}"


def certificate_articles(tier: str, among: Iterable[Article] | None = None) -> list[Article]:
    """Every compensation article of the tier, in force or not, newest first."""
    if tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}; the tiers: {', '.join(TIERS)}")
    found = [article for article in (articles() if among is None else among)
             if (article.terms or {}).get(CERTIFICATE, {}).get("tier") == tier]
    return sorted(found, key=lambda article: article.effective, reverse=True)


def certificate(tier: str, delay_minutes: int, cancelled: bool = False, article: Article | None = None) -> Amount:
    """The certificate owed to a `tier` member for a delay of `delay_minutes` (or a cancellation),
    as the tier's article in force says (or as `article` says: a superseded one)."""
    article = article or in_force(certificate_articles(tier)[0])
    terms = article.terms[CERTIFICATE]
    if cancelled:
        return Amount(terms["cancelled"], article.id)
    owed = [cents for minutes, cents in terms["bands"] if delay_minutes >= minutes]
    return Amount(owed[-1] if owed else 0, article.id)


def fee_articles(topic: str) -> list[Article]:
    """Every article giving the fee of `topic` ("pet in the cabin"), in force or not, newest first."""
    found = [article for article in articles() if (article.terms or {}).get(FEE, {}).get("topic") == topic]
    if not found:
        raise ValueError(f"no article gives the fee of {topic!r}")
    return sorted(found, key=lambda article: article.effective, reverse=True)


def fee(topic: str, article: Article | None = None, bulletins: Iterable[Article] = (),
        origin: str | None = None, day: dt.date | None = None) -> Amount:
    """The fee of `topic` as the article in force says (or as `article` says: a superseded one),
    unless a temporary rule among `bulletins` changes it for a flight from `origin` on `day`."""
    rule = temporary_rule(bulletins, topic, origin, day) if origin and day else None
    if rule is not None:
        return Amount(rule.terms[TEMPORARY]["cents"], rule.id)
    article = article or in_force(fee_articles(topic)[0])
    return Amount(article.terms[FEE]["cents"], article.id)


def temporary_terms(topic: str, cents: int, origin: str, first: dt.date, last: dt.date) -> dict:
    """A temporary rule bulletin's terms: the fee of `topic` is `cents` on flights from `origin`
    departing from `first` to `last`, both included."""
    return {TEMPORARY: {"topic": topic, "cents": cents, "origin": origin, "from": first.isoformat(),
                        "to": last.isoformat()}}


def temporary_rule(bulletins: Iterable[Article], topic: str, origin: str, day: dt.date) -> Article | None:
    """The temporary rule bulletin changing the fee of `topic` for a flight from `origin` on `day`, or None."""
    return _covering(bulletins, TEMPORARY, day, topic=topic, origin=origin)


def _covering(bulletins: Iterable[Article], key: str, day: dt.date, **fields) -> Article | None:
    """The first bulletin whose `key` terms hold `fields` and whose days include `day`, or None."""
    for bulletin in bulletins:
        terms = (bulletin.terms or {}).get(key)
        if terms and all(terms[name] == value for name, value in fields.items()) and _within(terms, day):
            return bulletin
    return None


def _within(terms: dict, day: dt.date) -> bool:
    return dt.date.fromisoformat(terms["from"]) <= day <= dt.date.fromisoformat(terms["to"])


def waiver_terms(origin: str, destination: str, first: dt.date, last: dt.date) -> dict:
    """A waiver bulletin's terms: flights of the route departing from `first` to `last`, both included."""
    return {WAIVER: {"origin": origin, "destination": destination, "from": first.isoformat(), "to": last.isoformat()}}


def covering_waiver(bulletins: Iterable[Article], origin: str, destination: str, day: dt.date) -> Article | None:
    """The bulletin whose waiver covers a flight of this route departing on `day`, or None."""
    return _covering(bulletins, WAIVER, day, origin=origin, destination=destination)
