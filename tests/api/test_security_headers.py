"""Every answer carries a Content-Security-Policy that allows only the app's own scripts and
styles, X-Content-Type-Options: nosniff and a Referrer-Policy (the browser tests run the UI
under them)."""
from __future__ import annotations

import pytest
from flask.sessions import NullSession


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/static/style.css", "/api/config", "/api/bookings/ZZZZZ9",
                                  "/nowhere", "/openapi.json"])
def test_security_headers_on_every_answer(client, path):
    response = client.get(path)
    policy = response.headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no inline scripts, no eval
    assert directives["style-src"] == "'self'"  # no inline styles
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_page_has_no_inline_script_or_style(client):
    html = client.get("/").get_data(as_text=True)
    assert "<style" not in html and " style=" not in html
    for tag in html.split("<script")[1:]:
        assert ' src="' in tag.split(">", 1)[0]  # every script is a file of the app's own


def test_no_answer_sets_a_cookie_and_no_request_opens_a_cookie_session(app, client):
    for path in ("/", "/api/config", "/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1"):
        assert "Set-Cookie" not in client.get(path).headers
    with app.test_request_context("/api/config", headers={"Cookie": "session=anything"}) as context:
        assert isinstance(context.session, NullSession)
        with pytest.raises(RuntimeError):
            context.session["kept"] = "value"  # nothing can be stored in a cookie
