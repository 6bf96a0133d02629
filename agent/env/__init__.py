"""Environments: a scenario worked in headless Chromium (`browser_env.CrmEnv`) or through the JSON
API (`api_env.ApiEnv`), made by kind in `kinds.py`. Here too: the action grammar (`actions.py`)
and how an action is carried out on the page (`executor.py`), the observation (`observation.py`,
`page_agent.js`) and its modes (`modes/`), Chromium's launch (`browser.py`, `browser_host.py`)
and what is recorded of an episode (`recording.py`). Imports only `agent.crm` below it."""
