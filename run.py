"""Start the AirlineCRM server: python run.py [--host 127.0.0.1] [--port 5000] [--db URL] [--public-url URL]
[--suite full|paper|hard] [--customer-model MODEL [--customer-base-url URL]] [--workers N] [--threads N]. It serves with gunicorn (see crm_app/production_server.py)."""
from __future__ import annotations

import argparse
import os

from crm_app.config import DEFAULTS
from crm_app.instance_secrets import secret_source
from crm_app.production_server import add_arguments, options_from, serve
from scenarios.app import create_app
from scenarios.suites import SUITES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--db", default=os.environ.get("DATABASE_URL", DEFAULTS["DATABASE_URL"]),
                        help="SQLAlchemy database URL: sqlite:///path/crm.db or "
                             "postgresql+psycopg://user:password@host:5432/dbname (default: the SQLite "
                             "file instance/crm.db; DATABASE_URL works too)")
    parser.add_argument("--public-url", default=os.environ.get("CRM_PUBLIC_URL", ""),
                        help="the address visitors reach this server at, e.g. https://crm.example.org/; "
                             "scenario urls start with it (default: CRM_PUBLIC_URL, else the host each "
                             "request was sent to)")
    parser.add_argument("--suite", choices=tuple(SUITES), default=os.environ.get("CRM_SUITE") or DEFAULTS["SUITE"],
                        help="scenarios /generate-random-scenario serves: full (every task, one-way and return) "
                             "or paper (the papers' five tasks, return trips only); CRM_SUITE works too")
    parser.add_argument("--customer-model", default=os.environ.get("CRM_CUSTOMER_MODEL", ""),
                        help="the hard suite's customer role-played by this model of an OpenAI-compatible endpoint "
                             "(key from OPENAI_API_KEY); default: the deterministic rule-based customer")
    parser.add_argument("--customer-base-url", default=os.environ.get("CRM_CUSTOMER_BASE_URL", ""),
                        help="the endpoint of --customer-model (default: OpenAI's)")
    add_arguments(parser)
    args = parser.parse_args()
    app = create_app({"DATABASE_URL": args.db, "PUBLIC_URL": args.public_url, "SUITE": args.suite,
                      "CUSTOMER_MODEL": args.customer_model, "CUSTOMER_BASE_URL": args.customer_base_url})
    print(f"Operator token (send it as X-Operator-Token to see /evaluate's gold values): "
          f"{app.config['OPERATOR_TOKEN']}  ({secret_source(app, 'OPERATOR_TOKEN')})\n"
          f"Scenario suite: {app.config['SUITE']} ({SUITES[app.config['SUITE']].description}); "
          f"customer: {app.extensions['customer'].speaker}", flush=True)
    serve(app, args.host, args.port, options_from(args))


if __name__ == "__main__":
    main()
