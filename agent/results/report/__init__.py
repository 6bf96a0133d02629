"""The run report: `python -m agent report OUT` writes OUT/report/index.html, a static site (no
server, nothing fetched from the network) with the overview of a run, a page per episode and a
comparison page per (task, seed). Modules: loading (the run folder), timeline (an episode against
its gold steps), costs (tokens and prices), charts (matplotlib SVGs), pages (Jinja2 templates),
build (writing the folder)."""
from .build import ReportError, write_pages, write_report
from .costs import PriceError

__all__ = ["PriceError", "ReportError", "write_pages", "write_report"]
