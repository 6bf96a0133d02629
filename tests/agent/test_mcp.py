"""`python -m agent.mcp` driven by the official MCP SDK's own client: over stdio (the client spawns
the server) and over streamable HTTP. The client lists the tools and, with scripted calls, books a
flight, cancels a booking and changes a booking's flights, each scored success 1 by /evaluate; a
bad argument comes back as a tool error with the API's message; two servers on two scenarios
never touch each other's data; standard output carries the protocol only."""
from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from agent.crm.tools import TOOL_NAMES
from agent.mcp.__main__ import main as mcp_main
from crm_app.http_client import http_sender
from tests.agent.command_line import refusal
from tests.conftest import OPERATOR

ROOT = Path(__file__).resolve().parents[2]


def run_async(function):
    """anyio.run(function) in a thread of its own: the browser tests' Playwright keeps an event loop
    running in the main thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(anyio.run, function).result()


def command(server: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "agent.mcp", "--server", server, *args]


@asynccontextmanager
async def stdio(server: str, *args: str):
    """The SDK's client on a server it spawns over stdio."""
    executable, *rest = command(server, *args)
    async with Client(StdioServerParameters(command=executable, args=rest, cwd=str(ROOT))) as client:
        yield client


def crm(server: str):
    return http_sender(server, headers=OPERATOR)


def scenario(server: str, task: str, seed: int) -> dict:
    status, body = crm(server)("GET", f"/generate-random-scenario?task={task}&seed={seed}")
    assert status == 200
    return body


def evaluate(server: str, scenario_id: str) -> dict:
    return crm(server)("GET", f"/evaluate?scenario={scenario_id}")[1]


async def call(client, tool: str, **arguments):
    """(is_error, JSON answer or error text)."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text
    return result.is_error, (text if result.is_error else json.loads(text))


def flight_id(flights: list[dict], number: str) -> int:
    return next(flight["id"] for flight in flights if flight["number"] == number)


def test_the_client_lists_the_tools_with_flat_schemas_bound_to_the_scenario(live_server):
    made = scenario(live_server, "TASK_FIND_BOOKING", 31)

    async def listed():
        async with stdio(live_server, "--scenario", made["id"]) as client:
            return (await client.list_tools()).tools, await call(client, "get_booking",
                                                                 code=made["details"]["confirmation-code"])

    tools, (failed, found) = run_async(listed)
    assert [tool.name for tool in tools] == list(TOOL_NAMES)
    schemas = {tool.name: tool.input_schema for tool in tools}
    assert schemas["search_flights"]["required"] == ["from", "to", "date"]
    assert set(schemas["cancel_booking"]["properties"]) == {"code", "confirmation_code"}
    assert set(schemas["book_flight"]["properties"]) == {"outward_flight_id", "return_flight_id", "passenger", "payment"}
    assert "card_number" in schemas["book_flight"]["properties"]["payment"]["properties"]  # references resolved
    assert all(schema["additionalProperties"] is False for schema in schemas.values())
    assert "$ref" not in json.dumps(schemas) and "scenario" not in json.dumps(schemas).lower()
    assert all(tool.description and "." in tool.description for tool in tools)
    assert not failed and found["booking"]["status"] == "Confirmed"
    assert evaluate(live_server, made["id"])["success"] == 1


def test_book_a_flight_through_mcp(live_server):
    made = scenario(live_server, "TASK_BOOK_FLIGHT", 32)
    details = made["details"]
    flight, person, card = details["flight"], details["passenger"], details["payment-details"]
    passenger = {"title": person["title"], "first_name": person["firstname"], "last_name": person["lastname"],
                 "email": person["email"], "gender": person["gender"], "date_of_birth": person["dob"]}
    payment = {"card_number": card["card-number"], "expiry": card["expiry"], "security_code": card["security_code"],
               "name_on_card": card["name-on-card"]}
    route = {"from": flight["from"], "to": flight["to"], "date": flight["departure"]}
    if "return" in flight:
        route["return"] = flight["return"]

    async def book():
        async with stdio(live_server, "--scenario", made["id"]) as client:
            failed, found = await call(client, "search_flights", **route)
            assert not failed
            ids = {"outward_flight_id": flight_id(found["flights"], flight["outward-flight-number"])}
            if "return" in flight:
                ids["return_flight_id"] = flight_id(found["return_flights"], flight["return-flight-number"])
            bad_card = await call(client, "book_flight", **ids, passenger=passenger,
                                  payment={**payment, "card_number": "4111111111111112"})
            unknown = await call(client, "book_flight", **ids, passenger=passenger, payment=payment, seat="12A")
            booked = await call(client, "book_flight", **ids, passenger=passenger, payment=payment)
            return bad_card, unknown, booked

    bad_card, unknown, (failed, booked) = run_async(book)
    assert bad_card[0] and bad_card[1] == "Error 400: Card number is not valid (card_number: Card number is not valid)"
    assert unknown == (True, "Error: book_flight takes no argument seat; its arguments: outward_flight_id, "
                             "return_flight_id, passenger, payment")
    assert not failed and booked["booking"]["status"] == "Confirmed"
    result = evaluate(live_server, made["id"])
    assert (result["success"], result["modality"], result["task_progress"]) == (1, "api", 1.0)
    assert result["num_actions"] == 3  # the search, the refused booking, the booking (the unknown argument never left)


def test_cancel_a_scenario_the_server_made_and_offers_as_a_prompt(live_server):
    async def cancel():
        async with stdio(live_server, "--new-scenario", "TASK_CANCEL_FLIGHT", "--seed", "33") as client:
            prompt = await client.get_prompt("task")
            resources = [str(r.uri) for r in (await client.list_resources()).resources]
            made = json.loads((await client.read_resource(resources[1])).contents[0].text)
            policy = (await client.read_resource("airlinecrm://policy")).contents[0].text
            code = re.search(r"\b[A-Z0-9]{6}\b", made["instruction"]).group()  # as a model reads it
            looked_up = await call(client, "get_booking", code=code)
            wrong = await call(client, "cancel_booking", code=code, confirmation_code="ZZZZZ9")
            cancelled = await call(client, "cancel_booking", code=code, confirmation_code=code)
            return prompt, resources, made, policy, looked_up, wrong, cancelled

    prompt, resources, made, policy, looked_up, wrong, (failed, cancelled) = run_async(cancel)
    expected = scenario(live_server, "TASK_CANCEL_FLIGHT", 33)  # the same (task, seed): the same words
    assert made["instruction"] == expected["instruction"] and made["task"] == "TASK_CANCEL_FLIGHT"
    assert resources == ["airlinecrm://policy", f"airlinecrm://scenario/{made['id']}"]
    assert made["evaluate"] == f"{live_server}/evaluate?scenario={made['id']}"
    text = prompt.messages[0].content.text
    assert text.startswith(f"TASK:\n{expected['instruction']}") and expected["conversation"][0]["text"] in text
    assert "What can be changed" in policy
    assert not looked_up[0] and wrong == (True, "Error 400: The confirmation code does not match this booking "
                                                "(confirmation_code: The confirmation code does not match this booking)")
    assert not failed and cancelled["booking"]["status"] == "Cancelled"
    result = evaluate(live_server, made["id"])
    assert (result["success"], result["task_progress"], result["matched"]) == (1, 1.0, [True, True])


def test_change_the_flights_of_a_booking_through_mcp(live_server):
    made = scenario(live_server, "TASK_MODIFY_FLIGHT", 34)
    flight, code = made["details"]["flight"], made["details"]["confirmation-code"]

    async def change():
        async with stdio(live_server, "--scenario", made["id"]) as client:
            _, booking = await call(client, "get_booking", code=code)
            outward = next(f for f in booking["booking"]["flights"] if f["direction"] == "outward")
            dates = {"date": flight["departure"], **({"return": flight["return"]} if "return" in flight else {})}
            _, found = await call(client, "search_flights", **{"from": outward["from"], "to": outward["to"]}, **dates)
            ids = {"outward_flight_id": flight_id(found["flights"], flight["outward-flight-number"])}
            if "return" in flight:
                ids["return_flight_id"] = flight_id(found["return_flights"], flight["return-flight-number"])
            quote = await call(client, "quote_flight_change", code=code, outward=ids["outward_flight_id"],
                               **({"return": ids["return_flight_id"]} if "return" in flight else {}))
            return quote, await call(client, "change_flights", code=code, **ids)

    (quote_failed, quote), (failed, changed) = run_async(change)
    assert not quote_failed and quote["difference"]
    assert not failed and changed["booking"]["flights"][0]["number"] == flight["outward-flight-number"]
    result = evaluate(live_server, made["id"])
    assert (result["success"], result["task_progress"]) == (1, 1.0)


def test_two_servers_never_touch_each_others_scenario(live_server):
    """Two scenarios of the same task and seed hold the same booking code, each in its own data."""
    first, second = scenario(live_server, "TASK_CANCEL_FLIGHT", 35), scenario(live_server, "TASK_CANCEL_FLIGHT", 35)
    code = first["details"]["confirmation-code"]
    assert second["details"]["confirmation-code"] == code

    async def both():
        async with stdio(live_server, "--scenario", first["id"]) as one, stdio(live_server, "--scenario", second["id"]) as two:
            cancelled = await call(one, "cancel_booking", code=code, confirmation_code=code)
            return cancelled, await call(two, "get_booking", code=code)

    (failed, cancelled), (_, untouched) = run_async(both)
    assert not failed and cancelled["booking"]["status"] == "Cancelled"
    assert untouched["booking"]["status"] == "Confirmed"
    assert evaluate(live_server, first["id"])["success"] == 1
    other = evaluate(live_server, second["id"])
    assert (other["success"], other["num_actions"]) == (0, 1)  # only its own lookup was recorded there


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_streamable_http_transport(live_server):
    made = scenario(live_server, "TASK_FIND_BOOKING", 36)
    port = free_port()
    process = subprocess.Popen(command(live_server, "--scenario", made["id"], "--transport", "http", "--port", str(port)),
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.1)

        async def find():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                names = [tool.name for tool in (await client.list_tools()).tools]
                return names, await call(client, "get_booking", code=made["details"]["confirmation-code"]), \
                    await call(client, "get_booking", code="")

        names, (failed, found), empty = run_async(find)
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    assert names == list(TOOL_NAMES)
    assert not failed and found["booking"]["code"] == made["details"]["confirmation-code"]
    assert empty == (True, "Error: get_booking needs the argument code")
    assert f"Serving MCP over streamable HTTP at http://127.0.0.1:{port}/mcp" in err and out == ""
    assert evaluate(live_server, made["id"])["success"] == 1


def test_stdout_carries_the_protocol_only(live_server):
    made = scenario(live_server, "TASK_FIND_BOOKING", 37)
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
    done = subprocess.run(command(live_server, "--scenario", made["id"]), cwd=ROOT, input=json.dumps(initialize) + "\n",
                          capture_output=True, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 1
    answer = json.loads(lines[0])
    assert answer["id"] == 1 and answer["result"]["serverInfo"]["name"] == "airlinecrm"
    assert f"9 tools on scenario {made['id']}" in done.stderr


@pytest.mark.parametrize("args, status, message", [
    (["--scenario", "zzzzzzzzzzzzzzzzzzzz"], 2, "Scenario 'zzzzzzzzzzzzzzzzzzzz' cannot be used (404)"),
    (["--new-scenario", "TASK_FLY_TO_MARS"], 2, "The CRM did not make the scenario (400): Unknown task: TASK_FLY_TO_MARS"),
])
def test_what_the_crm_refuses_is_said_before_serving(live_server, capsys, args, status, message):
    assert mcp_main(["--server", live_server, *args]) == status
    assert message in capsys.readouterr().err


def test_a_crm_that_cannot_be_reached_is_said(capsys):
    port = free_port()
    assert mcp_main(["--server", f"http://127.0.0.1:{port}", "--scenario", "abc"]) == 1
    assert f"The CRM server at http://127.0.0.1:{port} cannot be reached" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    ([], "give --scenario ID"), (["--scenario", "a", "--new-scenario", "TASK_FIND_FLIGHT"], "not both"),
    (["--scenario", "a", "--seed", "3"], "--seed goes with --new-scenario"),
    (["--scenario", "a", "--port", "8000"], "--port goes with --transport http"),
])
def test_a_wrong_command_line_is_refused(capsys, args, message):
    code, err = refusal(mcp_main, args, capsys)
    assert code == 2 and message in err


def test_on_a_call_the_tools_speak_to_the_customer_and_transfer_to_a_supervisor(live_server):
    status, made = crm(live_server)("GET", "/generate-random-scenario?task=TASK_POLICY_CANCEL&seed=2&suite=hard")
    assert status == 200

    async def transferred():
        async with stdio(live_server, "--scenario", made["id"]) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            said = await call(client, "message_customer", text="Could I have your confirmation code?")
            return names, said, await call(client, "transfer_to_supervisor", summary="Wants a refund on a Basic fare.")

    names, (_, said), (failed, answer) = run_async(transferred)
    assert names[-5:] == ["message_customer", "search_bookings", "quote_fare_upgrade", "upgrade_fare",
                          "transfer_to_supervisor"]
    assert "search_knowledge_base" not in names  # the hard suite's policy is its Policy page
    assert said["reply"] == f"My confirmation code is {made['details']['confirmation-code']}."
    assert not failed and answer == {"transferred": True, "reply": "Thank you. I'll hold for the supervisor.",
                                     "lines": 4}  # a line and its reply, the summary and the last line
    assert evaluate(live_server, made["id"])["transferred"] is True


def test_an_expert_call_is_worked_through_mcp_request_by_request(live_server):
    """The expert suite as the hard suite: a new scenario of a template (made without the operator
    token, which hides its details), and the tools that speak to the caller and find its bookings."""

    async def worked():
        async with stdio(live_server, "--new-scenario", "EXPERT_QUESTION_STATUS", "--seed", "0",
                         "--suite", "expert") as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            said = await call(client, "message_customer",
                              text="Could you give me your confirmation code and the passenger's date of birth?")
            found = await call(client, "search_knowledge_base", q="Gold delay certificate")
            read = await call(client, "read_article", id=found[1]["results"][0]["superseded_by"])
            return names, said, found, read

    names, (failed, said), (_, found), (unread, read) = run_async(worked)
    assert "message_customer" in names and "search_bookings" in names and not failed
    assert names[len(TOOL_NAMES):len(TOOL_NAMES) + 2] == ["search_knowledge_base", "read_article"]
    assert said["reply"].startswith("My confirmation code is ")
    assert found["results"][0]["id"] == "compensation-gold-2024" and not unread
    assert read["article"]["id"] == "compensation-gold" and "$150.00 for 4 hours or more" in read["article"]["body"]
