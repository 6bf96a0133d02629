"""A run as the command line names it: `PATH` or `PATH:LABEL`, PATH a run folder or an exported
dataset, LABEL one of its method labels (needed when it holds several)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..episode.run_folder import RUN_RECORD
from ..episode.trajectory import Trajectory
from ..export.reading import NeedsExport, is_dataset, read_episodes, read_provenance
from ..json_files import read_json_object
from ..results.summary import load_trajectories, read_episodes_csv


class SourceError(ValueError):
    """The run cannot be read as named; the message says why."""


@dataclass
class Source:
    name: str  # as named on the command line, with its label
    folder: Path
    label: str
    episodes: list[Trajectory]  # its finished episodes
    provenance: dict = field(default_factory=dict)  # run.json, or the dataset card's provenance
    dataset: bool = False


def read_sources(text: str) -> list[Source]:
    """Every label of the named run (the one label, when named)."""
    folder, wanted = _split(text)
    episodes, provenance, dataset = _read(folder)
    labels = sorted({t.label for t in episodes})
    if wanted is not None and wanted not in labels:
        raise SourceError(f"{folder} has no episodes labelled {wanted!r}; its labels: {', '.join(labels) or 'none'}")
    return [Source(f"{folder}:{label}" if wanted is not None or len(labels) > 1 else str(folder), folder, label,
                   [t for t in episodes if t.label == label], provenance, dataset)
            for label in ([wanted] if wanted is not None else labels)]


def read_source(text: str) -> Source:
    """The one run named: a folder of one label, or PATH:LABEL."""
    found = read_sources(text)
    if len(found) != 1:
        raise SourceError(f"{text} holds {len(found)} labels ({', '.join(s.label for s in found) or 'none'}); "
                          f"name one as {text}:LABEL")
    return found[0]


def _split(text: str) -> tuple[Path, str | None]:
    path = Path(text)
    if path.exists() or ":" not in text:
        return path, None
    folder, label = text.rsplit(":", 1)
    return Path(folder), label


def _read(folder: Path) -> tuple[list[Trajectory], dict, bool]:
    if not folder.is_dir():
        raise SourceError(f"{folder}: no such run folder or dataset")
    if is_dataset(folder):
        try:
            return read_episodes(folder), read_provenance(folder), True
        except NeedsExport as error:
            raise SourceError(str(error)) from None
    episodes = read_episodes_csv(folder)  # much quicker than every trajectory, when it is up to date
    if episodes is None:
        episodes = [t for t in load_trajectories(folder) if t.complete]
    if not episodes:
        raise SourceError(f"{folder} holds no finished episode")
    return episodes, read_json_object(folder / RUN_RECORD) or {}, False
