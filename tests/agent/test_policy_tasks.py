"""The LLM policies through whole CRM tasks, with the scripted model of scripted_model.py behind a
fake OpenAI-compatible server: heap books a flight planning page by page, step updates a passenger
and changes flights through pushes and pops, flat finds a booking and answers, and a one-way trip
is searched and booked (the One way radio clicked)."""
import json
import re

import pytest

from agent.__main__ import main
from agent.env.observation import parse_observation
from tests.agent import scripted_model as model
from tests.agent.test_policies import run_cli
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser

ONE_WAY_SEED = 8  # TASK_FIND_FLIGHT and TASK_BOOK_FLIGHT draw a one-way trip for seed 8 (checked below)


class Script:
    """A scripted model whose own failures are collected and answered as a 400 (which stops the run
    at once) rather than as a dropped connection that the client would retry with backoff."""

    def __init__(self, rule):
        self.rule, self.errors = rule, []

    def __call__(self, request: dict):
        try:
            return self.rule(request)
        except Exception as err:  # noqa: BLE001 - reported by the test
            self.errors.append(f"{type(err).__name__}: {err}")
            return {"status": 400, "error": f"the scripted model failed: {err!r}"}


def run_script(tmp_path, server, rule, method, task, seed=0):
    """One episode of `task` (scenario `seed`) with `rule` as the model: the trajectory and the requests."""
    script = Script(rule)
    with FakeOpenAIServer(script) as fake:
        if seed == 0:
            trajectory = run_cli(tmp_path, fake, method, task, "--server", server)
        else:
            main(["run", "--method", method, "--tasks", task, "--episodes", "1", "--seed", str(seed),
                  "--out", str(tmp_path), "--quiet", "--model", "fake-model", "--base-url", fake.base_url,
                  "--server", server])
            trajectory = json.loads((tmp_path / f"{method}-zero-shot" / task / f"seed{seed}-trial0.json").read_text())
    assert script.errors == []
    return trajectory, fake.requests


def assert_completed(trajectory) -> None:
    """Success 1 from /evaluate, every gold step met, no extra recorded action, ended by STOP."""
    assert trajectory["metrics"]["success"] == 1 and trajectory["metrics"]["task_progress"] == 1, trajectory["end"]
    assert trajectory["end"]["cause"] == "stop"
    assert trajectory["metrics"]["num_actions"] == len(trajectory["scenario"]["gold_actions"])


def stacks(trajectory) -> list[list[str]]:
    return [step["policy"]["stack"] for step in trajectory["steps"]]


def callers(trajectory) -> list[str]:
    return [call["policy"] for step in trajectory["steps"] for call in step["policy"]["model_calls"]]


def target(step) -> dict | None:
    """The element of the step's observation that its CLICK/TYPE names by id."""
    found = re.match(r"(?:CLICK|TYPE) (\d+)\b", step["action"])
    ident = int(found.group(1)) if found else None
    return next((e for e in parse_observation(step["observation"]) if e["id"] == ident), None)


def entries(request: dict) -> list[str]:
    """The numbered entries of YOUR PREVIOUS ACTIONS in a request."""
    return re.findall(r"^\d+\. (.*)$", model.history(request), re.MULTILINE)


def requests_of(requests, policy: str) -> list[dict]:
    """The requests made by one step policy (SteP: 'You are one policy, NAME,')."""
    return [r for r in requests if f"You are one policy, {policy}," in model.system_text(r)]


@pytest.mark.parametrize("seed", [0, ONE_WAY_SEED], ids=["return", "one-way"])
def test_heap_books_a_flight_replanning_on_every_page(tmp_path, live_server, seed):
    trajectory, requests = run_script(tmp_path, live_server, model.heap_book, "heap", "TASK_BOOK_FLIGHT", seed)
    details = trajectory["scenario"]["details"]
    flight, person, card = details["flight"], details["passenger"], details["payment-details"]
    one_way = "return" not in flight
    assert one_way == (seed == ONE_WAY_SEED) and ("one-way" in trajectory["scenario"]["instruction"]) == one_way
    assert_completed(trajectory)
    numbers = [flight["outward-flight-number"]] + ([] if one_way else [flight["return-flight-number"]])

    # One plan per page (search form, results, passenger details, payment); the planner is asked
    # again each time a plan is used up, and a fifth time on the confirmation, where it stops.
    plans = [step["policy"]["plan"] for step in trajectory["steps"] if "plan" in step["policy"]]
    assert len(plans) == 4 and callers(trajectory).count("PLANNER") == 5
    assert plans[0][0] == ("CLICK One way" if one_way else f'FILL_TEXT From "{flight["from"]}"')
    assert plans[0][-1] == "CLICK Search flights" and ('CHOOSE_DATE Return date' in " ".join(plans[0])) != one_way
    assert plans[1] == [f'SELECT_FLIGHT "{number}"' for number in numbers] + ["CLICK Checkout"]
    assert plans[2][0] == f'FILL_TEXT Title "{person["title"]}"' and plans[2][-1] == "CLICK Save"
    assert f'CHOOSE_DATE Date of birth "{model.us_date(person["dob"])}"' in plans[2]
    assert plans[3] == [f'FILL_TEXT Card number "{card["card-number"]}"', f'FILL_TEXT Expiry "{card["expiry"]}"',
                        f'FILL_TEXT Security code "{card["security_code"]}"',
                        f'FILL_TEXT Name on card "{card["name-on-card"]}"', "CLICK Book flight"]
    planner_requests = [r for r in requests if model.system_text(r).startswith("You plan")]
    assert "(none yet)" in model.history(planner_requests[0])
    assert entries(planner_requests[1]) == plans[0]  # the planner sees what earlier plans carried out
    assert entries(planner_requests[-1]) == [entry for plan in plans for entry in plan]

    # Every plan entry made exactly one page action, in plan order, under ["PLANNER", entry].
    assert stacks(trajectory) == [["PLANNER", entry] for plan in plans for entry in plan] + [["PLANNER"]]
    assert set(callers(trajectory)) == {"PLANNER", "FILL_TEXT", "CHOOSE_DATE", "SELECT_FLIGHT"}
    typed = {}
    for step in trajectory["steps"]:
        entry = step["policy"]["stack"][-1]
        policy_call = re.fullmatch(r'(FILL_TEXT|CHOOSE_DATE) (.+) "(.*)"', entry)
        if policy_call:  # FILL_TEXT/CHOOSE_DATE typed the text into the field with that label
            _, label, text = policy_call.groups()
            assert step["action"] == f'TYPE {target(step)["id"]} "{text}"' and target(step)["name"] == label
            typed[label] = text
        if entry.startswith("SELECT_FLIGHT"):  # SELECT_FLIGHT clicked the radio holding that number
            number = entry.split('"')[1]
            assert target(step)["kind"] == "radio" and re.search(rf"\b{number}\b", target(step)["name"])
    assert set(typed) == {"From", "To", "Departure date", "Title", "First name", "Last name", "Email address",
                          "Gender", "Date of birth", "Card number", "Expiry", "Security code", "Name on card",
                          *([] if one_way else ["Return date"])}
    selects = [s for s in stacks(trajectory) if s[-1].startswith("SELECT_FLIGHT")]
    assert selects == [["PLANNER", f'SELECT_FLIGHT "{number}"'] for number in numbers]
    if one_way:  # the planner's plain CLICK by label chose One way; the Return date field went away
        assert trajectory["steps"][0]["action"] == "CLICK One way"
        assert "Return date" in trajectory["steps"][0]["observation"]
        assert "Return date" not in trajectory["steps"][1]["observation"]

    # The last plan is STOP with the new booking's code, read from the confirmation page.
    assert trajectory["steps"][-1]["action"] == f"STOP [{trajectory['answer']}]"
    assert f"Confirmation code {trajectory['answer']}" in trajectory["final_observation"]


def test_step_updates_passenger_details_through_pushes_and_pops(tmp_path, live_server):
    trajectory, requests = run_script(tmp_path, live_server, model.step_update_passenger, "step",
                                      "TASK_UPDATE_PASSENGER_DETAILS")
    details = trajectory["scenario"]["details"]
    labels = {"title": "Title", "firstname": "First name", "lastname": "Last name", "gender": "Gender",
              "dob": "Date of birth", "email": "Email address"}
    changes = {labels[key]: model.us_date(value) if key == "dob" else value
               for key, value in details["passenger"].items()}
    argument = "; ".join(f"{label}: {value}" for label, value in changes.items())
    # The called policy is shown its whole argument, however long (it was once cut at 60
    # characters: the email was cut and the save failed).
    assert len(argument) > 60
    assert all(f"YOUR CURRENT JOB: PASSENGER_DETAILS [{argument}]\n" in model.user_text(r)
               for r in requests_of(requests, "PASSENGER_DETAILS"))
    assert_completed(trajectory)
    root, code = stacks(trajectory)[0][0], details["confirmation-code"]
    assert root.startswith("CRM [")

    # FIND_BOOKING opens the booking (3 page actions) and returns; CRM clicks Modify booking itself;
    # PASSENGER_DETAILS fills the changes, text fields through FILL_TEXT, and saves; CRM returns.
    tops = [stack[-1].split(" [")[0] for stack in stacks(trajectory)]
    assert stacks(trajectory)[0] == [root, f"FIND_BOOKING [{code}]"] and tops[:3] == ["FIND_BOOKING"] * 3
    assert stacks(trajectory)[3] == [root] and target(trajectory["steps"][3])["name"] == "Modify booking"
    assert set(tops[4:-1]) <= {"PASSENGER_DETAILS", "FILL_TEXT", "CHOOSE_DATE"} and tops[-2] == "PASSENGER_DETAILS"
    assert target(trajectory["steps"][-2])["name"] == "Save" and stacks(trajectory)[-1] == [root]
    assert len(trajectory["steps"]) == 4 + len(changes) + 2
    for step in trajectory["steps"][4:-2]:  # one TYPE per changed field, into the field of that label
        assert step["action"].startswith("TYPE ") and target(step)["name"] in changes
        value = changes[target(step)["name"]]
        assert step["action"].endswith(f'"{value}"')
        if target(step)["kind"] == "input":
            helper = "CHOOSE_DATE" if target(step)["name"] == "Date of birth" else "FILL_TEXT"
            assert step["policy"]["stack"][1:] == [f"PASSENGER_DETAILS [{argument}]",
                                                   f"{helper} [{target(step)['name']}: {value}]"]
    assert {len(stack) for stack in stacks(trajectory)} == {1, 2, 3}
    last_crm = entries(requests_of(requests, "CRM")[-1])
    assert last_crm == [f"CALL FIND_BOOKING [{code}]", "FIND_BOOKING returned: found",
                        f"CLICK {target(trajectory['steps'][3])['id']}", f"CALL PASSENGER_DETAILS [{argument}]",
                        "PASSENGER_DETAILS returned: saved"]
    assert callers(trajectory)[:2] == ["CRM", "FIND_BOOKING"]


def test_step_changes_the_flights_of_a_booking_through_pushes_and_pops(tmp_path, live_server):
    trajectory, requests = run_script(tmp_path, live_server, model.step_modify_flight, "step", "TASK_MODIFY_FLIGHT")
    details = trajectory["scenario"]["details"]
    flight, code = details["flight"], details["confirmation-code"]
    assert "return" in flight  # seed 0 moves a return trip: two dates, two flights
    dates = {"Departure date": model.us_date(flight["departure"]), "Return date": model.us_date(flight["return"])}
    search = "same route; " + "; ".join(f"{label}: {date}" for label, date in dates.items())
    numbers = [flight["outward-flight-number"], flight["return-flight-number"]]
    # SEARCH_FLIGHT is shown its whole argument: the return date lies past its 60th character.
    assert len(search) > 60
    assert all(f"YOUR CURRENT JOB: SEARCH_FLIGHT [{search}]\n" in model.user_text(r)
               for r in requests_of(requests, "SEARCH_FLIGHT"))
    assert_completed(trajectory)
    root = stacks(trajectory)[0][0]

    # FIND_BOOKING (3 actions); CRM clicks Modify booking and Change flights; SEARCH_FLIGHT sets
    # the dates through CHOOSE_DATE and searches; SELECT_FLIGHT clicks both radios; CRM saves.
    tops = [stack[-1].split(" [")[0] for stack in stacks(trajectory)]
    assert tops == ["FIND_BOOKING"] * 3 + ["CRM"] * 2 + ["CHOOSE_DATE"] * 2 + ["SEARCH_FLIGHT"] + \
        ["SELECT_FLIGHT"] * 2 + ["CRM"] * 2
    assert [target(step)["name"] for step in trajectory["steps"][3:5]] == ["Modify booking", "Change flights"]
    search_label = f"SEARCH_FLIGHT [{search}]"
    assert [stack[1:] for stack in stacks(trajectory)[5:7]] == [
        [search_label, f"CHOOSE_DATE [{label}: {date}]"] for label, date in dates.items()]
    assert stacks(trajectory)[7] == [root, search_label] and target(trajectory["steps"][7])["name"] == "Search flights"
    assert stacks(trajectory)[8] == stacks(trajectory)[9] == [root, f"SELECT_FLIGHT [{' '.join(numbers)}]"]
    for step, number in zip(trajectory["steps"][8:10], numbers):
        assert target(step)["kind"] == "radio" and re.search(rf"\b{number}\b", target(step)["name"])
    assert target(trajectory["steps"][10])["name"] == "Save flights" and stacks(trajectory)[-1] == [root]
    assert "Flights changed" in trajectory["final_observation"]
    assert entries(requests_of(requests, "CRM")[-1]) == [
        f"CALL FIND_BOOKING [{code}]", "FIND_BOOKING returned: found",
        *[f"CLICK {target(step)['id']}" for step in trajectory["steps"][3:5]],
        f"CALL SEARCH_FLIGHT [{search}]", "SEARCH_FLIGHT returned: results shown",
        f"CALL SELECT_FLIGHT [{' '.join(numbers)}]", "SELECT_FLIGHT returned: selected",
        f"CLICK {target(trajectory['steps'][10])['id']}"]


def test_flat_finds_a_booking_and_answers_with_what_it_shows(tmp_path, live_server):
    trajectory, _ = run_script(tmp_path, live_server, model.flat_find_booking, "flat", "TASK_FIND_BOOKING")
    assert_completed(trajectory)
    code = trajectory["scenario"]["details"]["confirmation-code"]
    steps = trajectory["steps"]
    assert [step["action"].split()[0] for step in steps] == ["CLICK", "TYPE", "CLICK", "STOP"]
    assert (target(steps[0])["kind"], target(steps[0])["name"]) == ("link", "Find booking")
    assert steps[1]["action"].endswith(f'"{code}"') and target(steps[2])["name"] == "Search"
    shown = parse_observation(trajectory["final_observation"])
    status = next(e["name"] for e in shown if e["name"].startswith("Status "))[len("Status "):]
    name = next(e["name"] for e in shown if e["name"].startswith("Name: "))[len("Name: "):]
    assert trajectory["answer"] == f"{code}: {status}, {name}" and status.startswith("Confirmed")
    assert all(stack == ["FLAT"] for stack in stacks(trajectory))


def test_flat_searches_a_one_way_trip_with_the_one_way_radio(tmp_path, live_server):
    trajectory, _ = run_script(tmp_path, live_server, model.flat_search_flight, "flat", "TASK_FIND_FLIGHT",
                               ONE_WAY_SEED)
    flight = trajectory["scenario"]["details"]["flight"]
    assert "return" not in flight and "one-way" in trajectory["scenario"]["instruction"]
    assert_completed(trajectory)  # /evaluate's success needs the One way trip type at the search
    steps = trajectory["steps"]
    assert (target(steps[0])["kind"], target(steps[0])["name"]) == ("radio", "One way")
    assert "Return date" in steps[0]["observation"] and "Return date" not in steps[1]["observation"]
    assert [target(step)["name"] for step in steps[1:4]] == ["From", "To", "Departure date"]
    assert target(steps[4])["name"] == "Search flights" and steps[5]["action"] == "STOP [done]"
    assert "One way: " in trajectory["final_observation"]
