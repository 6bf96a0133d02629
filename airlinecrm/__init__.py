"""The `airlinecrm` command (cli.py) and the commands of its own: serve (serve.py, also run.py's)
and init-db. The agent commands it offers are agent/__main__.py's and agent/mcp/'s."""
