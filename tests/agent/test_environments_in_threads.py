"""Environments made from many threads at once, in a fresh interpreter (nothing loaded or registered
before the threads start), as a harness that opens its environments from worker threads does: none
fails (the observation modes' registry, once filled lazily, answered `unknown observation mode
elements` to 7 threads of 8)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THREADS = 16

# Each thread first makes a CrmEnv of its own (no browser starts until a reset) at the same moment as
# the others, then makes, resets and closes one on a shared browser (one Chromium for 16 resets).
SCRIPT = """
import json, sys, threading
from agent.env import BrowserHost, CrmEnv

url, count = sys.argv[1], int(sys.argv[2])
together, host, failures = threading.Barrier(count), BrowserHost(), []

def work(number):
    try:
        together.wait()
        CrmEnv(url, observations=("elements", "axtree")).close()
        together.wait()
        env = host.environment(lambda browser: CrmEnv(url, browser=browser, observations=("elements", "axtree")))
        try:
            obs, info = env.reset(task="TASK_FIND_BOOKING", seed=number)
            assert obs.url == info["scenario"]["url"] and obs.modes["axtree"], obs.url
        finally:
            env.close()
    except BaseException as error:
        failures.append(f"thread {number}: {type(error).__name__}: {error}")
        together.abort()  # the others do not wait for this one at the barrier

threads = [threading.Thread(target=work, args=(number,)) for number in range(count)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
host.close()
print(json.dumps(failures))
"""


@pytest.mark.browser
def test_sixteen_threads_of_a_fresh_interpreter_each_make_reset_and_close_an_environment(live_server):
    done = subprocess.run([sys.executable, "-c", SCRIPT, live_server, str(THREADS)], cwd=ROOT, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []
