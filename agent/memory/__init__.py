"""`python -m agent memory build|show` (`cli.py`): makes Synapse's exemplar memory
(agent/policies/exemplar_memory/) from runs' successful episodes, and shows what one holds."""
