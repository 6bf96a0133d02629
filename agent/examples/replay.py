"""Rendering the example pages from the running CRM: each provenance replayed in a real browser
against an embedded server, the page shown in the example's format.

Sources that share a scenario are replayed together: one episode walks through the actions of
every source whose actions extend the ones already taken, and a new episode starts only where the
paths part. One browser serves every protocol. An action that fails is an error in the provenance
unless it is a source's last action (whose `ERROR:` line the page then shows).

A new booking's confirmation code comes from the scenario's task, seed and booking count, not the
code an example was written with: each rendered page says which code the episode's booking got
(`Page.booked`), and the example writes the code its provenance gives in its place
(agent/examples/render.py).
"""
from __future__ import annotations

import contextlib
import re
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import sync_playwright
from tqdm import tqdm

from crm_app.config import DEFAULTS
from crm_app.server import BackgroundServer
from scenarios.app import create_app

from ..env.browser import launch_chromium
from ..env.browser_env import CrmEnv
from ..episode.play import play_episode
from ..episode.spec import EpisodeSpec
from ..experiment.protocols import PROTOCOLS
from ..policies.llm import Completion
from ..policies.webwise import WebwisePolicy
from .files import PageSource, ProvenanceError, Scenario

# The world the examples live in: the default simulated day and world seed, whatever CRM_TODAY or
# CRM_DATA_SEED say in the environment.
WORLD = {"TODAY": DEFAULTS["TODAY"], "DATA_SEED": DEFAULTS["DATA_SEED"]}
LONGEST_PATH = 500  # actions in one replay at most (the environment's step limit)
BOOKED = re.compile(r">Confirmation code ([A-Z0-9]{6})<")  # the page that confirms a new booking


@dataclass(frozen=True)
class Page:
    text: str
    booked: str | None = None  # the code of the booking the episode made before this page, if any


@contextlib.contextmanager
def example_server():
    """An embedded CRM server of the examples' world on a temporary database."""
    with tempfile.TemporaryDirectory(prefix="airlinecrm-examples-") as folder:
        app = create_app({**WORLD, "DATABASE_URL": f"sqlite:///{Path(folder) / 'crm.db'}", "INSTANCE_PATH": folder,
                          "SANDBOX_BOOKINGS": 0})
        with BackgroundServer(app) as server:
            yield server


class Replayer:
    """Renders pages of scenarios; `browser` is shared when given, else launched and closed here."""

    def __init__(self, server_url: str, browser=None, operator_token: str | None = None, progress: bool = False):
        self.progress = progress
        self.episodes = self.actions = 0  # what the replays took
        self._playwright = None
        if browser is None:
            self._playwright = sync_playwright().start()
            browser = launch_chromium(self._playwright)
        self._browser = browser
        self._envs = {name: CrmEnv(server_url, browser=browser, max_steps=LONGEST_PATH, operator_token=operator_token,
                                   **protocol.env_options())
                      for name, protocol in PROTOCOLS.items()}
        self.instructions: dict[Scenario, str] = {}

    def pages(self, sources: Iterable[PageSource]) -> dict[PageSource, Page]:
        """The page (the protocol's observation text) each source leads to."""
        by_scenario: dict[Scenario, set[tuple[str, ...]]] = defaultdict(set)
        for source in sources:
            by_scenario[source.scenario].add(source.actions)
        rendered = {}
        for scenario, paths in tqdm(by_scenario.items(), desc="scenarios", unit="", disable=not self.progress):
            for actions, page in self._walk(scenario, sorted(paths)):
                rendered[PageSource(scenario, actions)] = page
        return rendered

    def webwise_pages(self, scenario: Scenario, programs: list[str]) -> list[Page]:
        """The filtered pages the WebWISE policy shows when the model writes these programs, one
        after the other, in a new episode of the scenario: one page per program."""
        env = self._envs[scenario.protocol]
        policy = WebwisePolicy(client=ScriptedModel(programs))
        spec = EpisodeSpec("webwise", scenario.task, scenario.seed, max_steps=LONGEST_PATH)
        trajectory = play_episode(env, policy, spec)
        self.episodes += 1
        self.actions += len(trajectory.steps)
        self.instructions[scenario] = trajectory.scenario["instruction"]
        traces = [step.get("policy", {}) for step in trajectory.steps]
        problems = [trace["reply_problem"] for trace in traces if "reply_problem" in trace]
        if problems:
            raise ProvenanceError(f"{scenario}: a program is not one the policy accepts: {problems[0]}")
        if trajectory.end["cause"] != "stop":
            raise ProvenanceError(f"{scenario}: the programs did not end the episode with done(): "
                                  f"{trajectory.end['detail']}")
        booked = None
        pages = []
        for step, trace in zip(trajectory.steps, traces):
            booked = booked or _booked(step["observation"])
            if "page" in trace:
                pages.append(Page(trace["page"], booked))
        return pages

    def _walk(self, scenario: Scenario, paths: list[tuple[str, ...]]):
        """(actions, page) for each path, in one episode as long as each path extends the last."""
        env, taken, booked = self._envs[scenario.protocol], None, None
        for actions in paths:  # sorted: a path comes right before the paths that extend it
            if taken is None or actions[:len(taken)] != taken:
                observation, info = env.reset(task=scenario.task, seed=scenario.seed)
                self.instructions[scenario] = info["scenario"]["instruction"]
                taken, booked = (), None
                self.episodes += 1
            for number in range(len(taken), len(actions)):
                if observation.error:  # the action before this one failed
                    raise ProvenanceError(f"{scenario.task} seed {scenario.seed}, action {number}: {observation.error}")
                observation = self._step(env, scenario, actions, number)
                booked = booked or _booked(observation.text)
            taken = actions
            yield actions, Page(observation.text, booked)

    def _step(self, env: CrmEnv, scenario: Scenario, actions: tuple[str, ...], number: int):
        observation, _, terminated, truncated, _ = env.step(actions[number])
        self.actions += 1
        if terminated or truncated:
            raise ProvenanceError(f"{_where(scenario, actions, number)} ended the episode; a page source "
                                  "cannot go on after it")
        return observation

    def close(self) -> None:
        for env in self._envs.values():
            env.close()
        if self._playwright is not None:
            self._browser.close()
            self._playwright.stop()
            self._playwright = None

    def __enter__(self) -> Replayer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _booked(page_text: str) -> str | None:
    found = BOOKED.search(page_text)
    return found.group(1) if found else None


def _where(scenario: Scenario, actions: tuple[str, ...], number: int) -> str:
    return f"{scenario.task} seed {scenario.seed}, action {number + 1} ({actions[number]})"


class ScriptedModel:
    """A model client that answers each call with the next of the given replies."""

    def __init__(self, replies: list[str]):
        self._replies = list(replies)

    def complete(self, messages: list[dict]) -> Completion:
        if not self._replies:
            raise ProvenanceError("the policy asked for more programs than the example has")
        return Completion(self._replies.pop(0), 0, 0, False, 0.0)
