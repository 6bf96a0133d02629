"""The CRM as the agent reaches it: the scenario endpoints' client (`client.py`) and the JSON API
as named tools (`tools.py`). The lowest layer of `agent/`: it imports nothing else of it."""
