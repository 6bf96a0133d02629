"""The exemplar memory on disk: a folder with `memory.json` (how it was built and the exemplars,
each with its turns' raw pages, abstracted states and actions) and, when it was built with an
embedding model, `embeddings.json` (model -> exemplar id -> vector of its key)."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ...json_files import write_json
from .exemplars import Exemplar

MEMORY_FILE = "memory.json"
EMBEDDINGS_FILE = "embeddings.json"
FORMAT = 1


class MemoryFolderError(ValueError):
    """The folder is not a readable exemplar memory; the message says what to do."""


@dataclass
class ExemplarMemory:
    folder: Path
    exemplars: list[Exemplar]
    built: dict = field(default_factory=dict)  # sources, abstraction model, counts

    @classmethod
    def load(cls, folder: str | Path) -> ExemplarMemory:
        folder = Path(folder)
        try:
            data = json.loads((folder / MEMORY_FILE).read_text())
        except FileNotFoundError:
            raise MemoryFolderError(f"{folder} holds no exemplar memory ({MEMORY_FILE} is missing); build one "
                                    "with: python -m agent memory build --from RUN_DIR --out MEMORY_DIR") from None
        except ValueError as error:
            raise MemoryFolderError(f"{folder / MEMORY_FILE} is not valid JSON: {error}") from None
        if data.get("format") != FORMAT:
            raise MemoryFolderError(f"{folder / MEMORY_FILE} has format {data.get('format')!r}; this code reads {FORMAT}")
        return cls(folder, [Exemplar.from_json(e) for e in data["exemplars"]], data.get("built", {}))

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "built": self.built, "exemplars": [e.to_json() for e in self.exemplars]}
        write_json(self.folder / MEMORY_FILE, data)

    def vectors(self, model: str) -> dict[str, list[float]] | None:
        """The stored key vectors of this embedding model, when they cover every exemplar."""
        stored = self._embeddings().get(model) or {}
        return stored if self._covers(stored) else None

    def save_vectors(self, model: str, vectors: dict[str, list[float]]) -> None:
        write_json(self.folder / EMBEDDINGS_FILE, {**self._embeddings(), model: vectors})

    def embedding_models(self) -> list[str]:
        return sorted(model for model, stored in self._embeddings().items() if self._covers(stored or {}))

    def _covers(self, stored: dict) -> bool:
        return all(e.id in stored for e in self.exemplars)

    def task_counts(self) -> Counter:
        return Counter(e.task_type for e in self.exemplars)

    def _embeddings(self) -> dict:
        try:
            return json.loads((self.folder / EMBEDDINGS_FILE).read_text())
        except FileNotFoundError:
            return {}
