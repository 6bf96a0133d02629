"""Fixtures for API tests."""
from __future__ import annotations

import pytest

from .helpers import booking_payload


@pytest.fixture
def booked(client):
    """A confirmed return-trip booking in the sandbox."""
    response = client.post("/api/bookings", json=booking_payload(client))
    assert response.status_code == 201, response.json
    return response.json["booking"]
