"""`python -m agent memory build --from RUN_DIR [--from ...] --out MEMORY_DIR` and
`python -m agent memory show MEMORY_DIR [--full]`.

build: the successful episodes of the runs (any method, the oracle's included) are cut into turns,
every turn's page is abstracted by the chat model (Synapse's state abstraction prompt), and the
exemplars are written to MEMORY_DIR; with --embedding-model their keys are embedded too, so runs
with that model need no embedding call for the memory.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from scenarios.tasks import TASK_NAMES

from ..policies.exemplar_memory.exemplars import successful_episodes
from ..policies.exemplar_memory.retrieval import embed_all
from ..policies.exemplar_memory.store import ExemplarMemory, MemoryFolderError
from ..policies.llm import DEFAULT_TEMPERATURE, LLMError
from ..policies.model import ModelCalls, make_client
from ..policies.synapse_prompts import abstract_state, render_trajectory
from ..results.summary import task_order
from ..results.table import render_table


def add_parser(commands) -> None:
    memory = commands.add_parser("memory", help="build or show Synapse's exemplar memory")
    actions = memory.add_subparsers(dest="memory_command", required=True)
    build = actions.add_parser("build", help="abstract the successful episodes of runs into an exemplar memory")
    build.add_argument("--from", dest="sources", action="append", required=True, metavar="RUN_DIR",
                       help="a run's output folder (repeat for several)")
    build.add_argument("--out", required=True, metavar="MEMORY_DIR", help="folder to write the memory to")
    build.add_argument("--model", default=os.environ.get("OPENAI_MODEL"),
                       help="chat model that abstracts the pages (default: OPENAI_MODEL); required")
    build.add_argument("--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)")
    build.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE)
    build.add_argument("--cache-dir", help="on-disk response cache, shared with runs")
    build.add_argument("--embedding-model", default=os.environ.get("OPENAI_EMBEDDING_MODEL"),
                       help="also embed the exemplars' keys with this model (default: OPENAI_EMBEDDING_MODEL)")
    build.add_argument("--tasks", default="all", help="'all' or task names, comma-separated")
    build.add_argument("--per-task", type=int, help="keep at most this many episodes per task")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    show = actions.add_parser("show", help="what a memory holds")
    show.add_argument("folder", metavar="MEMORY_DIR")
    show.add_argument("--full", action="store_true", help="print every exemplar as the prompt shows it")


def main(args, parser: argparse.ArgumentParser) -> int:
    if args.memory_command == "show":
        try:
            print(describe(ExemplarMemory.load(args.folder), full=args.full))
        except MemoryFolderError as error:
            parser.error(str(error))
        return 0
    return build(args, parser)


def build(args, parser: argparse.ArgumentParser) -> int:
    exemplars = _episodes(args, parser)
    try:
        calls = ModelCalls(make_client(model=args.model, base_url=args.base_url, cache_dir=args.cache_dir,
                                       temperature=args.temperature))
    except LLMError as error:
        parser.error(str(error))
    try:
        for exemplar in tqdm(exemplars, unit="episode", disable=args.quiet, desc="abstracting"):
            for turn in exemplar.turns:
                turn.state, _problem = abstract_state(calls, exemplar.task, turn.page)
        memory = ExemplarMemory(Path(args.out), exemplars, {
            "from": [str(s) for s in args.sources], "abstraction_model": args.model,
            "temperature": args.temperature, "base_url": args.base_url or os.environ.get("OPENAI_BASE_URL"),
            "usage": calls.usage()})
        memory.save()
        if args.embedding_model:
            vectors = embed_all([e.key for e in exemplars], args.embedding_model, calls)
            memory.save_vectors(args.embedding_model, {e.id: v for e, v in zip(exemplars, vectors)})
            memory.built["usage"] = calls.usage()
            memory.save()
    except LLMError as error:
        print(f"The memory was not built: {error}", file=sys.stderr)
        return 1
    print(describe(memory))
    return 0


def _episodes(args, parser: argparse.ArgumentParser) -> list:
    tasks = list(TASK_NAMES) if args.tasks == "all" else [t.strip() for t in args.tasks.split(",") if t.strip()]
    found = []
    for source in args.sources:
        if not Path(source).is_dir():
            parser.error(f"--from {source}: no such folder")
        found += [e for e in successful_episodes(Path(source)) if e.task_type in tasks]
    if args.per_task is not None:
        if args.per_task < 1:
            parser.error("--per-task takes a number of episodes, 1 or more")
        found = _first_per_task(found, args.per_task)
    if not found:
        parser.error(f"no successful episode under {', '.join(args.sources)}"
                     + ("" if args.tasks == "all" else f" for {args.tasks}"))
    return found


def _first_per_task(exemplars: list, limit: int) -> list:
    counts: Counter = Counter()
    kept = []
    for exemplar in exemplars:
        counts[exemplar.task_type] += 1
        if counts[exemplar.task_type] <= limit:
            kept.append(exemplar)
    return kept


def describe(memory: ExemplarMemory, full: bool = False) -> str:
    built = memory.built
    lines = [f"Exemplar memory {memory.folder}: {len(memory.exemplars)} exemplars from "
             f"{', '.join(built.get('from', [])) or '?'}",
             f"states abstracted by: {built.get('abstraction_model', '?')} (temperature {built.get('temperature', '?')})",
             "embeddings stored for: " + (", ".join(memory.embedding_models())
                                          or "none (runs rank by BM25, or embed the keys on first use)"), ""]
    rows = [("task", "exemplars", "turns", "actions")]
    for task, count in sorted(memory.task_counts().items(), key=lambda item: task_order(item[0])):
        mine = [e for e in memory.exemplars if e.task_type == task]
        rows.append((task, str(count), str(sum(len(e.turns) for e in mine)),
                     str(sum(len(t.actions) for e in mine for t in e.turns))))
    lines += [render_table(list(rows[0]), rows[1:], rule=False), ""]
    lines.append(render_table(["exemplar", "task", "turns", "actions"], [
        (e.id, e.task_type, str(len(e.turns)), str(sum(len(t.actions) for t in e.turns))) for e in memory.exemplars],
        rule=False))
    if full:
        for exemplar in memory.exemplars:
            lines += ["", f"== {exemplar.id} ({exemplar.task_type})", render_trajectory(exemplar.task, exemplar.turns)]
    return "\n".join(lines)
