"""`airlinecrm serve` and `python run.py`: start the AirlineCRM server (gunicorn, see
crm_app/production_server.py); `airlinecrm init-db`: make the database without serving."""
from __future__ import annotations

import argparse
import os

from crm_app.config import DEFAULTS
from crm_app.instance_secrets import secret_source
from crm_app.production_server import add_arguments as add_server_arguments, options_from, serve
from scenarios.app import create_app
from scenarios.suites import SUITES


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = _parser(prog)
    args = parser.parse_args(argv)
    app = _app(parser, args, {"PUBLIC_URL": args.public_url, "SUITE": args.suite,
                      "CUSTOMER_MODEL": args.customer_model, "CUSTOMER_BASE_URL": args.customer_base_url})
    print(f"Operator token (send it as X-Operator-Token to see /evaluate's gold values): "
          f"{app.config['OPERATOR_TOKEN']}  ({secret_source(app, 'OPERATOR_TOKEN')})\n"
          f"Scenario suite: {app.config['SUITE']} ({SUITES[app.config['SUITE']].description}); "
          f"customer: {app.extensions['customer'].speaker}", flush=True)
    serve(app, args.host, args.port, options_from(args))
    return 0


def init_db(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog, description="Create the schema, the airports and the sandbox "
                                     "bookings if missing (existing data is kept), without serving.")
    add_storage_arguments(parser)
    app = _app(parser, parser.parse_args(argv), {})
    print(f"Initialized the database {app.config['DATABASE_URL']}  (instance folder {app.instance_path})")
    return 0


def add_storage_arguments(parser: argparse.ArgumentParser) -> None:
    """--db and --instance: where the data and the secrets are kept."""
    parser.add_argument("--db", default=os.environ.get("DATABASE_URL", ""),
                        help="SQLAlchemy database URL: sqlite:///path/crm.db or "
                             "postgresql+psycopg://user:password@host:5432/dbname (default: DATABASE_URL, else "
                             "the SQLite file crm.db in the instance folder)")
    parser.add_argument("--instance", metavar="FOLDER", default=os.environ.get("CRM_INSTANCE_PATH", ""),
                        help="the instance folder: the operator token, the secret key and the default database "
                             "(default: CRM_INSTANCE_PATH, else instance/ in a checkout, else this user's data "
                             "folder, e.g. ~/.local/share/airlinecrm)")


def _app(parser: argparse.ArgumentParser, args, settings: dict):
    try:
        return create_app({"DATABASE_URL": args.db, "INSTANCE_PATH": args.instance or None, **settings})
    except ValueError as error:  # a setting the app refuses (crm_app/config.py), e.g. --public-url
        parser.error(str(error))


def _parser(prog: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Serve the AirlineCRM: the page, its JSON API and "
                                     "the scenario endpoints.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    add_storage_arguments(parser)
    parser.add_argument("--public-url", default=os.environ.get("CRM_PUBLIC_URL", ""),
                        help="the address visitors reach this server at, e.g. https://crm.example.org/; "
                             "scenario urls start with it (default: CRM_PUBLIC_URL, else the host each "
                             "request was sent to)")
    parser.add_argument("--suite", choices=tuple(SUITES), default=os.environ.get("CRM_SUITE") or DEFAULTS["SUITE"],
                        help="scenarios /generate-random-scenario serves (a request's ?suite= asks for another): "
                             + "; ".join(f"{name}: {suite.description}" for name, suite in SUITES.items())
                             + "; CRM_SUITE works too")
    parser.add_argument("--customer-model", default=os.environ.get("CRM_CUSTOMER_MODEL", ""),
                        help="the hard suite's customer role-played by this model of an OpenAI-compatible endpoint "
                             "(key from OPENAI_API_KEY); default: the deterministic rule-based customer")
    parser.add_argument("--customer-base-url", default=os.environ.get("CRM_CUSTOMER_BASE_URL", ""),
                        help="the endpoint of --customer-model (default: OpenAI's)")
    add_server_arguments(parser)
    return parser
