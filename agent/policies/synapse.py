"""`synapse` (Synapse: trajectory-as-exemplar prompting with memory). Each time the model is asked:

1. state abstraction: the raw page becomes a short task-relevant state (agent/policies/synapse_prompts.py);
2. on the episode's first page, few-shot only: exemplars are retrieved from the exemplar memory
   (agent/memory/) by the task text and that first state;
3. the act prompt holds the exemplars (whole successful trajectories) and the current trajectory in
   the same format; the model continues it with one or more actions for the current state.

The actions are handed to the episode loop one per step; when one fails (the next observation carries
its error) the rest are dropped and the model is asked again on the new state.
"""
from __future__ import annotations

from ..env.observation import Observation, without_error_line
from .action_queue import ActionQueue
from .exemplar_memory.retrieval import make_ranker, retrieve
from .exemplar_memory.store import ExemplarMemory
from .llm_policy import LLMPolicy
from .prompting import NO_EXAMPLES, task_text
from .reply import action_lines
from .synapse_prompts import abstract_state, abstraction_system, act_input, act_system, exemplar_block, render_trajectory

NO_ACTIONS = "(no action could be read from the reply)"


class SynapsePolicy(LLMPolicy):
    name = "synapse"

    def __init__(self, shots: str = "0", client=None, memory: str | None = None,
                 embedding_model: str | None = None, top_k: int = 3, max_exemplars: int = 3, **options):
        super().__init__(shots, client, **options)
        self.top_k, self.max_exemplars = top_k, max_exemplars
        self.memory = self.ranker = None
        if shots == "few":
            self.memory = _load_memory(memory)
            self.ranker = make_ranker(self.memory, embedding_model, self.calls)
        self.queue = ActionQueue()

    def system_prompts(self) -> dict[str, str]:
        exemplars = "(retrieved from the exemplar memory for each episode)" if self.memory else NO_EXAMPLES
        return {"ABSTRACTION": abstraction_system(), "ACT": act_system(exemplars)}

    def start(self) -> None:
        self.turns: list[dict] = []
        self.queue.clear()
        self.retrieval = None
        self.system = act_system()

    def episode_context(self) -> dict:
        """Which retriever served the episode and the exemplars it chose (zero-shot: none)."""
        if self.memory is None:
            return {"retriever": "none (zero-shot)"}
        record = self.retrieval.record() if self.retrieval else {"retriever": self.ranker.name}
        return {"memory": str(self.memory.folder), **record}

    def act(self, observation: Observation) -> tuple[str, str]:
        cut = self.queue.cut_on_error(observation)
        if cut:
            self.step_notes["cut"] = cut
        if not self.queue:
            self._ask(observation)
            if not self.queue:
                self.turns[-1]["actions"].append(NO_ACTIONS)
                self.step_notes["reply_problem"] = "the reply has no action lines"
                return "The reply had no actions.", ""
        action, where = self.queue.pop()
        self.turns[-1]["actions"].append(action)
        self.step_notes["queued"] = where
        summary = self.turns[-1]["state"].splitlines()[0]
        return f"Action {where['index']} of {where['of']} for the state: {summary}", action

    def _ask(self, observation: Observation) -> None:
        """Abstract the page, retrieve exemplars on the first page, and queue the model's actions."""
        task = task_text(self.scenario)
        state, problem = abstract_state(self.calls, task, without_error_line(observation.text))
        self.step_notes["state"] = state
        if problem:
            self.step_notes["abstraction_problem"] = problem
        if self.ranker is not None and self.retrieval is None:
            self.retrieval = retrieve(self.ranker, self.memory, task, state, self.top_k, self.max_exemplars)
            self.system = act_system(exemplar_block(self.retrieval.exemplars))
        self.turns.append({"error": observation.error, "state": state, "actions": []})
        reply = self.calls.ask(self.system, act_input(render_trajectory(task, self.turns)), "ACT").text
        actions = action_lines(reply)
        self.step_notes["actions"] = actions
        self.queue.load(actions)


def _load_memory(folder: str | None) -> ExemplarMemory:
    if not folder:
        raise ValueError("synapse few-shot prompts with exemplars from an exemplar memory: pass --memory "
                         "MEMORY_DIR (build one with: python -m agent memory build --from RUN_DIR --out MEMORY_DIR)")
    memory = ExemplarMemory.load(folder)
    if not memory.exemplars:
        raise ValueError(f"the exemplar memory {folder} holds no exemplars")
    return memory
