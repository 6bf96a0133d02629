"""Headers every response carries: the page may run only its own scripts and styles, browsers
must not guess content types, and no address leaks to other sites."""
from __future__ import annotations

from flask import Flask, Response

# The page is one HTML shell with module scripts and one stylesheet from /static; it has no inline
# script or style (positions set from JS through element.style are not inline styles). The favicon
# is an empty data: URL.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def add_security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def install(app: Flask) -> None:
    app.after_request(add_security_headers)
