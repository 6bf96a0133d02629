"""Writing OUT/report/: the overview, one page per episode, one comparison page per (task, seed),
the charts, the screenshots and traces the run recorded, and the page assets. The site is built
in a temporary folder and swapped in whole, so a reader never sees half a report."""
from __future__ import annotations

import os
import shutil
from importlib import resources
from pathlib import Path

from .costs import load_prices, usage_by_label
from .loading import Episode, Run, load_run
from .pages import compare_file, compare_groups, compare_page, environment, episode_page, overview

REPORT_FOLDER = "report"


class ReportError(ValueError):
    """The report cannot be made; the message says why."""


def write_report(out: str | Path, prices: str | Path | None = None, by_variant: bool = False) -> Path:
    """Build the report of the run folder `out` (its columns by the UI variant each episode was
    played in, with `by_variant`); return its index.html."""
    out = Path(out)
    if not out.is_dir():
        raise ReportError(f"{out} is not a run folder (no such directory)")
    run = load_run(out, by_variant)
    price_table = load_prices(prices) if prices else None
    building = out / f".{REPORT_FOLDER}-building-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    try:
        _write_site(run, building, price_table, by_variant)
        _swap_in(building, out / REPORT_FOLDER)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return out / REPORT_FOLDER / "index.html"


def write_pages(out: str | Path, pages: dict[str, tuple[str, dict]]) -> list[Path]:
    """Pages of the report's look outside a run's report (compare, leaderboard): file name ->
    (template, its values), written to `out` with the report's assets; the files written."""
    out = Path(out)
    env = environment()
    shutil.rmtree(out / "assets", ignore_errors=True)
    _copy_assets(out / "assets")
    written = []
    for name, (template, values) in pages.items():
        _write(out / name, env.get_template(f"{template}.html").render(root="", **values))
        written.append(out / name)
    return written


def _write_site(run: Run, site: Path, prices: dict | None, by_variant: bool = False) -> None:
    env = environment()
    usages = usage_by_label(run, prices)
    _copy_assets(site / "assets")
    from .charts import draw_all  # matplotlib is imported by what draws, not by every command line

    charts = site / "charts"
    charts.mkdir(parents=True)
    for name, svg in draw_all(run, usages).items():
        (charts / f"{name}.svg").write_text(svg, encoding="utf-8")
    _write(site / "index.html", overview(env, run, usages, prices_given=prices is not None, by_variant=by_variant))
    for index, episode in enumerate(run.episodes):
        neighbours = (run.episodes[index - 1] if index else None,
                      run.episodes[index + 1] if index + 1 < len(run.episodes) else None)
        page = site / episode.page
        shots, trace = _link_recordings(episode, page)
        _write(page, episode_page(env, run, episode, neighbours, shots, trace))
    for (task, seed), episodes in compare_groups(run).items():
        _write(site / compare_file(task, seed), compare_page(env, run, task, seed, episodes))


def _link_recordings(episode: Episode, page: Path) -> tuple[dict[int, str], dict | None]:
    """Screenshots and trace of the episode, linked into the report beside its page (so the
    report folder is complete on its own); their addresses relative to the page."""
    folder = page.parent / episode.name
    shots = {}
    for number, source in episode.screenshots().items():
        shots[number] = f"{episode.name}/{source.name}"
        _link(source, folder / source.name)
    trace = episode.trace()
    if trace is None:
        return shots, None
    _link(trace, folder / trace.name)
    return shots, {"href": f"{episode.name}/{trace.name}", "command": f"playwright show-trace {trace.resolve()}"}


def _link(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not allowed
        shutil.copyfile(source, target)


def _copy_assets(target: Path) -> None:
    target.mkdir(parents=True)
    for item in resources.files("agent.results.report").joinpath("static").iterdir():
        if item.is_file():
            (target / item.name).write_bytes(item.read_bytes())


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _swap_in(built: Path, final: Path) -> None:
    old = final.with_name(f".{REPORT_FOLDER}-old-{os.getpid()}")
    if final.exists():
        final.rename(old)
    built.rename(final)
    shutil.rmtree(old, ignore_errors=True)
