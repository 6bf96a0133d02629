"""The OpenEnv side of the verifiers tests, run by the OpenEnv package's Python (.venv-openenv):
starts a CRM and the OpenEnv server, plays the oracle once on the first COUNT tasks of SUITE (in
GET /api/suites' order, the taskset's) at SEED, prints one JSON line {"openenv_url", "crm_url",
"scenarios": [{"reset", "briefing", "gold_calls"}]} and serves until its standard input closes.

    .venv-openenv/bin/python integrations/verifiers/tests/openenv_side.py SUITE COUNT SEED

A scenario is the same for the same (suite, task, seed), so the oracle's calls recorded here win
it again in vf-eval's own session: what the scripted fake model plays.
"""
from __future__ import annotations

import json
import sys

from openenv import GenericEnvClient

from airlinecrm_openenv import crm, server
from airlinecrm_openenv.catalogue import openapi, suites
from airlinecrm_openenv.oracle import call_tool, gold_of, play


def scenario(openenv_url: str, the_crm: crm.Crm, reset: dict) -> dict:
    calls = []
    with GenericEnvClient(base_url=openenv_url).sync() as env:
        first = env.reset(**reset)

        def step(name: str, arguments: dict):
            calls.append({"name": name, "arguments": arguments})
            return env.step(call_tool(name, arguments))

        steps = play(step, gold_of(the_crm.url, the_crm.operator_token, first.observation["metadata"]["scenario_id"]),
                     openapi(the_crm.url))
    if steps[-1].reward != 1.0:
        raise RuntimeError(f"the oracle did not win {reset}: {steps[-1].observation.get('metadata')}")
    return {"reset": reset, "briefing": first.observation["text"], "gold_calls": calls}


def main() -> None:
    suite, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    the_crm = crm.start()
    resets = [{"suite": suite, "task": row["name"], "seed": seed} for row in suites(the_crm.url)[suite][:count]]
    with server.background(the_crm) as running:
        scenarios = [scenario(running.url, the_crm, reset) for reset in resets]
        print(json.dumps({"openenv_url": running.url, "crm_url": the_crm.url, "scenarios": scenarios}), flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
