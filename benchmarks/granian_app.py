"""The CRM app as granian serves it (benchmarks only): its database from DATABASE_URL, its secrets
in CRM_INSTANCE_PATH, as create_app reads them from the environment."""
from scenarios.app import create_app

app = create_app()
