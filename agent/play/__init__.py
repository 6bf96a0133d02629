"""`python -m agent play`: a person plays the hard suite's scenarios in the CRM's own page, as the
call-center rep, through a small host of its own (host.py) that briefs them, sends them to each
scenario's page and scores each call once it has ended (session.py). The session is a run folder of
method `human` (record.py), read by summarize, report, compare, leaderboard and export like any
agent's run. cli.py is the command line."""
