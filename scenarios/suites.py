"""Scenario suites: which tasks a server hands out, which trips, and how the instruction reads.

`full` is every task with one-way and return trips and instructions that name the flights.
`paper` is the HeaP and SteP papers' CRM experiment (HeaP Sec. 5.1 and App. E, SteP Sec. 5.1):
five tasks (no flight change), return trips only (the authors' client reads
`details.flight.return` and fails on a one-way scenario), and instructions built from the details
as the authors' client builds its context: airports, dates and times (the outward departure, the
return arrival, on the return date), never flight numbers; its page shows Title and Gender as
radio buttons, which the authors' page reader lists (it never lists a closed select). `hard` puts a
customer on the line who holds the facts, and an airline policy (docs/hard-suite.md): its own seven
tasks, a CRM with fares, the policy and booking search, and scenarios that tell the agent only the
briefing and the opening line. `expert` (docs/expert-suite.md) composes calls of several requests from
request kinds, over a hundred templates split into `train` and `test`. A scenario is a pure function
of (suite, task, seed).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from crm_app.services.errors import InvalidInput
from crm_app.suite_look import PLAIN, SuiteLook

from .tasks.expert import TEMPLATE_BY_NAME
from .tasks import ALL_TASKS, EXPERT_TASKS, HARD_TASKS, TASKS
from .tasks.base import Task

# Fields are the facts of phrasing.facts(). One sentence per task, so that every scenario of a task
# reads alike, as in the papers' runs.
PAPER_INSTRUCTIONS = {
    "TASK_FIND_FLIGHT": (
        "Find return flights from {from_code} to {to_code}: out on {out_date}, the flight departing "
        "at {out_time}; back on {back_date}, the flight arriving at {back_time}.",),
    "TASK_BOOK_FLIGHT": (
        "Book return flights from {from_code} to {to_code}: out on {out_date}, the flight departing "
        "at {out_time}; back on {back_date}, the flight arriving at {back_time}. Passenger: title "
        "{title}, first name {firstname}, last name {lastname}, gender {gender}, date of birth {dob}, "
        "email {email}. Card: number {card}, expiry {expiry}, security code {cvv}, name on card "
        "{card_name}.",),
    "TASK_FIND_BOOKING": ("Look up the booking with confirmation code {code}.",),
    "TASK_CANCEL_FLIGHT": ("Cancel the booking with confirmation code {code}.",),
    "TASK_UPDATE_PASSENGER_DETAILS": (
        "Update the passenger details of the booking with confirmation code {code}: {new_values}.",),
}


@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    task_names: tuple[str, ...]
    round_trips_only: bool = False
    flight_numbers: bool = True  # whether instructions and conversations name the flights' numbers
    instructions: dict[str, tuple[str, ...]] = field(default_factory=dict)  # task -> its own templates
    # How the CRM looks: Title and Gender as radio buttons for the papers' page reader (it drops a
    # closed <select>, whose options are not rendered); fares and the policy for the hard suite
    look: SuiteLook = PLAIN
    # The agent is told only the instruction and the customer's opening line; the details (the
    # customer's hidden facts, what is expected) go to the operator alone (X-Operator-Token).
    hidden_details: bool = False

    @property
    def tasks(self) -> list[Task]:
        return [ALL_TASKS[name] for name in self.task_names]

    def check(self, task: Task) -> Task:
        """`task`, or InvalidInput when this suite does not hand it out."""
        if task.name not in self.task_names:
            raise InvalidInput(f"{task.name} is not in the {self.name} suite; choose one of {', '.join(self.task_names)}")
        return task

    def instruction_templates(self, task: Task) -> tuple[str, ...]:
        return self.instructions.get(task.name, task.instructions)


SUITES = {
    "full": Suite("full", "every task, one-way and return trips, instructions naming the flights", tuple(TASKS)),
    "paper": Suite("paper", "the papers' five tasks, return trips only, flights named by their times",
                   tuple(PAPER_INSTRUCTIONS), round_trips_only=True, flight_numbers=False,
                   instructions=PAPER_INSTRUCTIONS, look=SuiteLook(passenger_choices="radio")),
    "hard": Suite("hard", "a customer on the line who holds the facts, and an airline policy to follow",
                  HARD_TASKS, look=SuiteLook(airline_policy=True), hidden_details=True),
    "expert": Suite("expert", "calls of 2 to 4 requests, about several bookings, brought up in turn, under the "
                              "airline policy", EXPERT_TASKS, look=SuiteLook(airline_policy=True, knowledge_base=True),
                    hidden_details=True),
}


def has_knowledge_base(suite: str | None) -> bool:
    """Whether the suite's policy lives in the knowledge base (its CRM's screen, its agents' tools)."""
    return suite in SUITES and SUITES[suite].look.knowledge_base


def split_of(suite: Suite, task: str) -> str | None:
    """The split (`train` or `test`) of a suite's task; None in a suite without splits."""
    template = TEMPLATE_BY_NAME.get(task) if suite.name == "expert" else None
    return template.split if template else None


def kinds_of(task: str) -> list[str]:
    """The kinds of a task's requests, in order (an expert template's); [] for any other task."""
    template = TEMPLATE_BY_NAME.get(task)
    return template.kinds if template else []


def catalogue() -> dict:
    """Every suite with its tasks, as GET /api/suites answers."""
    return {"suites": [{"name": suite.name, "description": suite.description,
                        "tasks": [{"name": name, "split": split_of(suite, name), "kinds": kinds_of(name)}
                                  for name in suite.task_names]} for suite in SUITES.values()]}


def suite_named(name) -> Suite:
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in SUITES:
        raise InvalidInput(f"Unknown suite: {str(name)[:40]}. Choose one of {', '.join(SUITES)}")
    return SUITES[key]
