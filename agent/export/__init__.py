"""Scenarios, gold and trajectories as a dataset others load in one line (issue 27):
`python -m agent export scenarios|run|check` (cli.py). rows.py turns an episode into a row of one
schema, dataset.py writes the rows as Parquet under DIR/data/ with a dataset card (card.py), and
check.py plays the exported scenarios again and compares their scores."""
