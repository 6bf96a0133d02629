"""A run: its protocols (`protocols.py`), the settings that change results (`settings.py`), the
plan and its driver (`runner.py`), where episodes are played (`backends/`: threads here, or Ray),
its record `run.json` (`run_record.py`) and WebWISE's automatic example choice
(`webwise_auto.py`, a run before the run)."""
