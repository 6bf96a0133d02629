"""An MCP server that lets any MCP client (an IDE, an agent framework) work a CRM scenario through
the JSON API's tools (agent/crm/tools.py), built with the official `mcp` SDK: `python -m agent.mcp`.
`server.py` makes the server from the tools and the scenario; `__main__.py` is its command line."""
