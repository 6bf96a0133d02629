"""Synapse's exemplar memory: successful trajectories of any run, cut into turns (a page and the
actions taken on it), their pages abstracted, stored in a folder and retrieved for a new task by
embedding similarity (or BM25 when no embedding model is given).

- `exemplars.py`: from trajectory files to exemplars (which episodes, where a turn ends).
- `store.py`: the memory folder (memory.json, embeddings.json) and its summary.
- `retrieval.py`: ranking by cosine similarity or BM25, the majority task type, the exemplars.

`python -m agent memory build|show` (agent/memory/) makes and shows one.
"""
