"""What one episode is asked to be: plain data, made by the experiment's planner and handed down
(it travels to Ray workers too)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..env.modes import DEFAULT_MODES
from .run_folder import trajectory_path
from .variants import DIMENSIONS


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
    customer_variant: str = ""  # the caller's variant asked for ("2", "random"); "": none, the plain caller

    def __post_init__(self):
        if not self.label:
            object.__setattr__(self, "label", self.method)

    def variants(self) -> dict[str, str]:
        """The variants asked for, by their scenario field (variants.DIMENSIONS); none: {}."""
        return {d.field: getattr(self, d.field) for d in DIMENSIONS if getattr(self, d.field)}

    def path(self, out: Path) -> Path:
        """Its trajectory file under the run folder `out`."""
        return trajectory_path(out, self.label, self.task, self.seed, self.trial)
