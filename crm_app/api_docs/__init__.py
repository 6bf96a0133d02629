"""GET /api/docs: the OpenAPI document (/openapi.json) as an interactive page, Swagger UI's, served
from this server alone. Swagger UI's files come from the flask-swagger-ui package (its dist/ folder,
kept up with Swagger UI's releases); the package's own blueprint is not used, since its page starts
Swagger UI from an inline script, which the Content-Security-Policy forbids (start.js, beside this
module, starts it instead). The page's own files stay here, apart from the CRM page's static/."""
from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, abort, render_template, send_from_directory

api_docs = Blueprint("api_docs", __name__, template_folder="templates")
SWAGGER_UI = Path(flask_swagger_ui.__file__).parent / "dist"
SWAGGER_FILES = ("swagger-ui.css", "swagger-ui-bundle.js")  # the page needs no other of Swagger UI's
START = "start.js"  # starts Swagger UI on the page


@api_docs.get("/api/docs")
def docs_page():
    return render_template("api_docs.html")


@api_docs.get("/api/docs/<filename>")
def swagger_file(filename: str):
    if filename == START:
        return send_from_directory(Path(__file__).parent, START, max_age=3600)
    if filename not in SWAGGER_FILES:
        abort(404)
    return send_from_directory(SWAGGER_UI, filename, max_age=3600)
