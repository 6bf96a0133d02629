"""The app keeps nothing in cookies (the operator token travels in a header, a scenario in the
URL), so no request opens, verifies or signs Flask's cookie session: that would cost every API
call time for a session nothing reads."""
from __future__ import annotations

from flask import Flask
from flask.sessions import SecureCookieSessionInterface


class NoCookieSession(SecureCookieSessionInterface):
    def open_session(self, app, request):
        return None  # Flask then uses its NullSession, which refuses any write


def install(app: Flask) -> None:
    app.session_interface = NoCookieSession()
