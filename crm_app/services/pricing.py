"""What a booking costs: one line per flight, then taxes and fees, then the total."""
from __future__ import annotations

from collections.abc import Sequence

TAX_RATE = 0.075  # federal excise tax on the fares
SEGMENT_FEE_CENTS = 560  # security fee per flight


def price_lines(legs: Sequence[tuple[str, str, int]]) -> list[dict]:
    """`legs` holds (direction, flight number, fare in cents); the answer ends with the total."""
    fares = sum(fare for _, _, fare in legs)
    taxes = round(fares * TAX_RATE) + SEGMENT_FEE_CENTS * len(legs)
    lines = [
        {"label": f"{direction.capitalize()} flight {number}", "amount_cents": fare}
        for direction, number, fare in legs
    ]
    lines.append({"label": "Taxes and fees", "amount_cents": taxes})
    return lines


def total_cents(lines: Sequence[dict]) -> int:
    return sum(line["amount_cents"] for line in lines)


def money(cents: int) -> str:
    """Cents as the API shows amounts: '172.55'."""
    return f"{cents // 100}.{cents % 100:02d}"


def signed_money(cents: int) -> str:
    """A difference in cents with its sign: '+12.30', '-4.05', '0.00'."""
    sign = "+" if cents > 0 else "-" if cents < 0 else ""
    return sign + money(abs(cents))
