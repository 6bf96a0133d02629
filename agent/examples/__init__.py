"""Few-shot examples cut from real pages of the CRM: where each example's page comes from (a
provenance next to each example file), replaying those provenances in a browser, and checking or
refreshing the pages in the files.

    .venv/bin/python -m agent.examples check [NAME ...]     # is every example page what the CRM shows today?
    .venv/bin/python -m agent.examples refresh [NAME ...]   # write today's pages and task lines into the files
    .venv/bin/python -m agent.examples page TASK_CANCEL_FLIGHT 4200 'CLICK 3'   # a page, to write an example on
"""
