"""Task protocols: which experiment a run is. docs/protocols.md sets the two side by side.

`full` (the default) is this project's own: six tasks, one-way and return trips, instructions that
name the flights with a customer conversation, the element-list observation with an `ERROR:` line,
prompts that know the CRM, episodes that end when the agent stops (60 actions at most), and #act as
the page events the server recorded.

`paper` reproduces the CRM experiments of HeaP (Sec. 5, Fig. 5) and SteP (Sec. 5.1, Fig. 5): the
scenario suite `paper` (five tasks, return trips, flights named by their times), the papers'
observation (agent/env/paper_observation.py), the paper prompts (agent/policies/prompts/paper/), an episode
that ends on the first action after which the server reports success or at the task's action cap,
and #act as the agent's actions, invalid ones included.

`hard` is the hard suite (docs/hard-suite.md): a simulated customer on the line holds the facts and
an airline policy decides what may be done; the prompts get the policy and the way to speak to the
customer (SAY, or the message_customer tool), the rest as in `full`. Its `channel` says how the call
reaches the agent: `say` (SAY and TRANSFER, the customer's lines in the observation and the task)
or `page` (the page's Call panel alone, the task holding the briefing: computer-use agents).

`expert` is the expert suite (docs/expert-suite.md), taken as `hard` is: calls of several requests
composed from request kinds, over a hundred templates in `train` and `test` splits (`--split`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from scenarios.suites import SUITES

from ..env.actions import SAY_CHANNEL
from ..env.observation import ELEMENT_LIST, Reading
from ..env.paper_observation import PAPER
from .step_caps import ELEMENTS, MINIMUM, default_cap

FULL_MAX_STEPS = MINIMUM  # the cap of a task whose gold path needs no more (step_caps.py)
# The authors' client (webagents-step, scripts/airlinecrm/eval_airlinecrm.py): 15 and 25 actions for
# these two tasks, 10 for the others.
PAPER_CAPS = {"TASK_FIND_FLIGHT": 10, "TASK_BOOK_FLIGHT": 25, "TASK_FIND_BOOKING": 10,
              "TASK_CANCEL_FLIGHT": 10, "TASK_UPDATE_PASSENGER_DETAILS": 15}


@dataclass(frozen=True)
class Protocol:
    name: str
    description: str  # one line, on top of the table
    suite: str  # the scenario suite asked of the server (scenarios/suites.py): its tasks, trips, wording
    reading: Reading  # how the page is read into an observation (agent/env/observation.py)
    methods: tuple[str, ...] = ()  # the methods with prompts for it; () for every method
    caps: dict[str, int] = field(default_factory=dict)  # actions per task at most; {}: FULL_MAX_STEPS each
    stop_on_success: bool = False  # the episode ends on the first action after which /evaluate reports success
    counts_agent_actions: bool = False  # #act: the agent's actions, not the page events the server recorded
    on_call: bool = False  # a customer on the line: prompts get SAY (or its tool) and the airline's policy

    @property
    def tasks(self) -> tuple[str, ...]:
        return SUITES[self.suite].task_names

    def step_limits(self, max_steps: int | None, spaces: tuple[str, ...] = (ELEMENTS,),
                    channel: str = SAY_CHANNEL) -> int | dict[str, int]:
        """What bounds an episode: the given --max-steps for every task, else the protocol's caps,
        else each task's default from its gold path in the methods' action `spaces` with the call
        on `channel` (step_caps.py; the largest of them when the methods' spaces differ): one
        number when every task has the same. Recorded as the `max_steps` setting."""
        if max_steps is not None:
            return max_steps
        if self.caps:
            return dict(self.caps)
        caps = {task: max(default_cap(self.suite, task, space, channel) for space in spaces) for task in self.tasks}
        return FULL_MAX_STEPS if set(caps.values()) == {FULL_MAX_STEPS} else caps

    def env_options(self, channel: str = SAY_CHANNEL) -> dict:
        """The environment options this protocol sets (agent/env/kinds.py), with the call's `channel`
        (actions.CHANNELS) when a customer is on the line: plain data."""
        options = {"reading": self.reading, "suite": self.suite, "stop_on_success": self.stop_on_success}
        return {**options, "on_call": True, "channel": channel} if self.on_call else options


def step_limit(limits: int | dict[str, int], task: str) -> int:
    """One task's action cap from `step_limits`."""
    return limits[task] if isinstance(limits, dict) else limits


PROTOCOLS = {
    "full": Protocol("full", "six tasks, one-way and return trips, conversation, CRM-aware prompts; "
                             "ends when the agent stops; #act = page events (API calls for toolcall)", "full", ELEMENT_LIST),
    "paper": Protocol("paper", "the papers' five tasks, return trips, their observation and example counts, "
                               "success-detected stop, per-task caps; #act = the agent's actions",
                      "paper", PAPER, methods=("oracle", "flat", "heap", "step"), caps=PAPER_CAPS,
                      stop_on_success=True, counts_agent_actions=True),
    "hard": Protocol("hard", "a customer on the line who holds the facts, an airline policy, and calls that test "
                             "judgment; prompts get the policy, SAY and TRANSFER; ends when the agent stops or transfers",
                     "hard", ELEMENT_LIST,
                     on_call=True),
    "expert": Protocol("expert", "calls of 2 to 4 requests about several bookings, brought up in turn, under the "
                                 "airline policy; as hard, scored request by request (docs/expert-suite.md)",
                       "expert", ELEMENT_LIST, on_call=True),
}
DEFAULT = "full"


def protocol_of(settings: dict | None) -> Protocol:
    """The protocol a trajectory's settings name (older trajectories: the default)."""
    return PROTOCOLS.get((settings or {}).get("protocol") or DEFAULT, PROTOCOLS[DEFAULT])
