"""AirlineCRM as an OpenEnv environment (environment.py), its server (server.py) and the oracle
that plays a scenario's gold path through OpenEnv's client (oracle.py)."""
