"""What one scenario may store, at most, and the error past it."""
from __future__ import annotations

from crm_app.services.errors import DomainError


class LimitReached(DomainError):
    """A scenario has recorded as many events, API calls or customer messages as the server keeps for one."""

    status = 429
