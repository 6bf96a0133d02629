"""Card data at rest: never a full card number or security code, only keyed hashes.

The key (the app's SECRET_KEY) is kept outside the database. A plain or salted hash would not do:
a card number with a known issuer prefix has few enough unknown digits to be found from its hash
by trying them all, with nothing but the database file.
"""
from __future__ import annotations

import hashlib
import hmac

SHORT_DIGEST = 32  # hex digits kept of a digest stored next to other text (128 bits)


class CardHasher:
    """Keyed hashes (HMAC-SHA256) of card data, one purpose per kind of value."""

    def __init__(self, key: str | bytes):
        if not key:
            raise ValueError("a keyed hash needs a non-empty key")
        self._key = key.encode() if isinstance(key, str) else key

    def digest(self, purpose: str, text: str) -> str:
        return hmac.new(self._key, f"{purpose}\0{text}".encode(), hashlib.sha256).hexdigest()

    def card_number(self, number: str) -> str:
        """A card number as recorded: its last four digits and a keyed hash, like `****1111:9f3c...`.
        The form is left unchanged by the card-number normalization (no spaces, no dashes)."""
        return f"****{number[-4:]}:{self.digest('card-number', number)[:SHORT_DIGEST]}"

    def security_code(self, code: str) -> str:
        """A security code as recorded: a keyed hash only, like `hmac:41d0...`."""
        return f"hmac:{self.digest('security-code', code)[:SHORT_DIGEST]}"

    def matches(self, stored: str, text: str, purpose: str) -> bool:
        return hmac.compare_digest(stored, self.digest(purpose, text))
