"""What the package's tests share: the task lists, and playing a task's gold steps through CUBE's step()."""
from cube.core import Action

FULL = ["find-flight", "book-flight", "find-booking", "cancel-flight", "update-passenger-details", "modify-flight"]
HARD = ["policy-change", "policy-cancel", "fare-question", "find-by-name", "two-requests", "corrected-request",
        "book-constrained", "pushback", "false-claim", "escalation", "disrupted-flight", "upgrade-to-change"]
GOLD_STEP = Action(name="gold_step", arguments={})


def play_gold_steps(task):
    """gold_step until the task is done (within its recommended step cap): the last step's output."""
    for _ in range(task.metadata.recommended_max_steps):
        out = task.step(GOLD_STEP)
        if out.done:
            return out
    raise AssertionError(f"{task.id} was not done in {task.metadata.recommended_max_steps} steps")
