"""One episode: the policy contract (`policy.py`), what an episode is asked to be (`spec.py`), the
loop that plays it (`play.py`) and the trajectory it leaves (`trajectory.py`), with the run
folder's layout (`run_folder.py`). Imports `agent.env` and `agent.crm` below it."""
