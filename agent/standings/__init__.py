"""`python -m agent compare` and `python -m agent leaderboard` (issue 36): runs named on the command
line (run folders, or datasets `python -m agent export run` wrote) read by sources.py, compared
episode by episode (compare_cli.py) or ranked on one static page (leaderboard_cli.py)."""
