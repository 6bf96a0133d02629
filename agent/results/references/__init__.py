"""The papers' reported CRM numbers: one JSON file per figure (`<name>.json` here), each with its
source noted (paper, figure, model, episodes). A paper-protocol table shows them beside the
measured columns (`--reference heap-fig5`), never inside a measured row.

A file holds `cells`: task (or "all tasks") -> method label -> metric ("success", "progress",
"#actions") -> [mean, standard error or null], as printed in the paper.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
METRIC_NAMES = ("success", "progress", "#actions")


class ReferenceError(ValueError):
    """An unknown reference name, or a data file that does not hold what it should."""


@dataclass(frozen=True)
class Reference:
    name: str
    title: str  # how its columns are headed, e.g. "HeaP Fig. 5"
    source: str
    model: str
    notes: tuple[str, ...]
    cells: dict  # task -> label -> metric -> (mean, se or None)

    @property
    def labels(self) -> list[str]:
        """The method labels it reports, in the file's order."""
        return list(dict.fromkeys(label for by_label in self.cells.values() for label in by_label))

    def value(self, label: str, task: str, metric: str) -> tuple[float, float | None] | None:
        found = self.cells.get(task, {}).get(label, {}).get(metric)
        return tuple(found) if found else None

    def cell(self, label: str, task: str, metric: str) -> str:
        """The value as the paper prints it (two decimals, mean ± error), or "-" when not reported."""
        found = self.value(label, task, metric)
        if found is None:
            return "-"
        mean, error = found
        return f"{mean:.2f}" if error is None else f"{mean:.2f} ± {error:.2f}"


def reference_names() -> list[str]:
    return sorted(path.stem for path in FOLDER.glob("*.json"))


@lru_cache(maxsize=None)
def load_reference(name: str) -> Reference:
    path = FOLDER / f"{name}.json"
    if name not in reference_names():
        raise ReferenceError(f"unknown reference {name!r}; known: {', '.join(reference_names())}")
    data = json.loads(path.read_text())
    for task, by_label in data["cells"].items():
        for label, metrics in by_label.items():
            wrong = set(metrics) - set(METRIC_NAMES)
            if wrong:
                raise ReferenceError(f"{path.name}: {task} / {label} has unknown metrics {sorted(wrong)}")
    return Reference(data["name"], data["title"], data["source"], data["model"], tuple(data.get("notes", ())),
                     data["cells"])
