"""Retrieving exemplars for a new task (Synapse, Sec. 3.4): rank the memory's exemplars by the
similarity of their key (task text + first state) to the query's, take the top k, and prompt with
exemplars of the task type most of them share.

Two rankers: cosine similarity of embeddings from the OpenAI-compatible `/embeddings` route, or,
when no embedding model is given, BM25 (the `bm25s` package) over the keys' words.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import bm25s
import numpy as np

from .exemplars import Exemplar, memory_key
from .store import ExemplarMemory

EMBED_BATCH = 64  # inputs per /embeddings request


@dataclass(frozen=True)
class Retrieval:
    retriever: str
    top: list[tuple[Exemplar, float]]  # the k best, best first
    task_type: str  # the majority among them
    exemplars: list[Exemplar]  # what the prompt gets: that type's exemplars, most similar first

    def record(self) -> dict:
        """For the trajectory: which retriever served the episode and what it chose."""
        return {"retriever": self.retriever, "task_type": self.task_type,
                "top_k": [{"id": e.id, "task_type": e.task_type, "score": round(float(score), 4)}
                          for e, score in self.top],
                "exemplars": [e.id for e in self.exemplars]}


class EmbeddingRanker:
    """Cosine similarity of embeddings; the keys' vectors come from the memory folder when it was
    built with this model, else they are embedded once (through the same client and cache)."""

    def __init__(self, memory: ExemplarMemory, model: str, calls):
        self.memory, self.model, self.calls = memory, model, calls
        self.name = f"embeddings ({model})"
        self._vectors: dict[str, np.ndarray] | None = None

    def rank(self, query: str, candidates: list[Exemplar]) -> list[tuple[Exemplar, float]]:
        vectors = self._key_vectors()
        wanted = _unit(np.array(self.calls.embed([query], self.model, "MEMORY").vectors[0], dtype=float))
        scored = [(e, float(vectors[e.id] @ wanted)) for e in candidates]
        return sorted(scored, key=lambda pair: -pair[1])

    def _key_vectors(self) -> dict[str, np.ndarray]:
        if self._vectors is None:
            stored = self.memory.vectors(self.model)
            if stored is None:
                stored = dict(zip((e.id for e in self.memory.exemplars),
                                  embed_all([e.key for e in self.memory.exemplars], self.model, self.calls)))
            self._vectors = {ident: _unit(np.array(vector, dtype=float)) for ident, vector in stored.items()}
        return self._vectors


class BM25Ranker:
    """Okapi BM25 over the keys' words (English stop words removed)."""

    def __init__(self, memory: ExemplarMemory):
        self.name = f"bm25 (bm25s {bm25s.__version__})"
        self._ids = [e.id for e in memory.exemplars]
        self._index = bm25s.BM25()
        self._index.index(_words([e.key for e in memory.exemplars]), show_progress=False)

    def rank(self, query: str, candidates: list[Exemplar]) -> list[tuple[Exemplar, float]]:
        words = _words([query])[0]
        scores = self._index.get_scores(words) if words else np.zeros(len(self._ids))
        by_id = dict(zip(self._ids, scores))
        return sorted(((e, float(by_id[e.id])) for e in candidates), key=lambda pair: -pair[1])


def make_ranker(memory: ExemplarMemory, embedding_model: str | None, calls):
    return EmbeddingRanker(memory, embedding_model, calls) if embedding_model else BM25Ranker(memory)


def retrieve(ranker, memory: ExemplarMemory, task: str, first_state: str, top_k: int = 3,
             max_exemplars: int = 3) -> Retrieval:
    """The exemplars for a task whose first page abstracts to `first_state`. An exemplar of the very
    same scenario (the same task text) is never retrieved."""
    candidates = [e for e in memory.exemplars if e.task != task.strip()]
    ranked = ranker.rank(memory_key(task, first_state), candidates)
    top = ranked[:top_k]
    task_type = majority([e.task_type for e, _ in top])
    chosen = [e for e, _ in ranked if e.task_type == task_type][:max_exemplars]
    return Retrieval(ranker.name, top, task_type, chosen)


def majority(task_types: list[str]) -> str:
    """The most common type; a tie goes to the type ranked first."""
    if not task_types:
        return ""
    counts = Counter(task_types)
    best = max(counts.values())
    return next(t for t in task_types if counts[t] == best)


def embed_all(texts: list[str], model: str, calls) -> list[list[float]]:
    vectors = []
    for start in range(0, len(texts), EMBED_BATCH):
        vectors += calls.embed(texts[start:start + EMBED_BATCH], model, "MEMORY").vectors
    return vectors


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(vector)
    return vector / norm if norm else vector


def _words(texts: list[str]) -> list[list[str]]:
    return bm25s.tokenize(texts, stopwords="en", show_progress=False, return_ids=False)
