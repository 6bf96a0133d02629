"""GET /api/docs: the OpenAPI document as Swagger UI's page, served by the CRM itself (no request
leaves it, the Content-Security-Policy holds), showing the scenario routes with their parameters
and a write route with its request body's example."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def operation(page, method: str, path: str):
    """The opened operation block of `method path`."""
    block = page.locator(".opblock").filter(has=page.locator(".opblock-summary-path", has_text=path)) \
        .filter(has=page.locator(".opblock-summary-method", has_text=method)).first
    block.locator(".opblock-summary").click()
    return block


def test_the_api_page_shows_the_scenario_routes_with_their_parameters(page, live_server):
    outside = []
    page.on("request", lambda request: None if request.url.startswith(live_server) else outside.append(request.url))
    page.goto(f"{live_server}/api/docs")
    generate = operation(page, "GET", "/generate-random-scenario")
    parameters = generate.locator(".parameters .parameter__name")
    expect(parameters.first).to_be_visible()
    assert {"task", "seed", "suite", "ui_variant", "customer_variant"} <= set(parameters.all_inner_texts())
    evaluate = operation(page, "GET", "/evaluate")
    expect(evaluate.locator(".parameter__name").first).to_be_visible()
    assert {"scenario", "modality"} <= {name.strip() for name in evaluate.locator(".parameter__name").all_inner_texts()}
    book = operation(page, "POST", "/api/bookings")
    expect(book.get_by_role("heading", name="Request body")).to_be_visible()
    expect(book.locator(".body-param__example, .highlight-code").first).to_contain_text("passenger")
    assert outside == []
