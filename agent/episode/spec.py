"""What one episode is asked to be: plain data, made by the experiment's planner and handed down
(it travels to Ray workers too)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..env.modes import DEFAULT_MODES
from .run_folder import trajectory_path


VARIANT_SUFFIX = re.compile(r"-ui(?:\d+|-random)$")  # what with_ui_variant adds to a label


def with_ui_variant(label: str, ui_variant: str) -> str:
    """A label of episodes played in a UI variant ("3", "random"): `flat-ui3`, `flat-ui-random`."""
    if not ui_variant:
        return label
    return f"{label}-ui{ui_variant}" if ui_variant.isdigit() else f"{label}-ui-{ui_variant}"


@dataclass(frozen=True)
class EpisodeSpec:
    method: str
    task: str
    seed: int  # the scenario's seed
    trial: int = 0  # which replay of that scenario (pass^k)
    shots: str = "0"  # the prompts' examples: "0", "few", "auto"; "" for a method without prompts
    observations: tuple[str, ...] = DEFAULT_MODES
    label: str = ""  # the folder and table column it goes by (default: the method's name)
    max_steps: int = 60  # the episode's action cap
    ui_variant: str = ""  # the CRM's UI variant asked for ("3", "random"); "": none, the CRM as always

    def __post_init__(self):
        if not self.label:
            object.__setattr__(self, "label", self.method)

    def path(self, out: Path) -> Path:
        """Its trajectory file under the run folder `out`."""
        return trajectory_path(out, self.label, self.task, self.seed, self.trial)
