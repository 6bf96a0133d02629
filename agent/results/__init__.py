"""What a run folder says: the summary table and summary.csv (`summary.py`), the printed table
(`table.py`), the papers' reported numbers (`references/`) and the HTML report (`report/`)."""
