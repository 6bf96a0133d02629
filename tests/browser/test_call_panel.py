"""The call panel of the hard look, worked as a person works it, by its labels and the keyboard: the
customer's opening line on load, a line sent (Enter or Send) answered in the panel, the call kept
across screens, a reload and a warm switch, End call and a transfer said in the panel, bad input
told in the panel and stored nowhere, and the panel beside the screens (below them when narrow).
The papers' pages have no panel."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from crm_app.http_client import http_sender
from scenarios.targets import label_of
from tests.conftest import OPERATOR

from .ui import open_app, region

pytestmark = pytest.mark.browser

OPENING = "Hi, I'd like to move my flight to a later day."  # TASK_POLICY_CHANGE's caller


@pytest.fixture
def send(live_server):
    return http_sender(live_server, headers=OPERATOR)


def scenario(send, task="TASK_POLICY_CHANGE", seed=3, suite="hard", variant=0) -> dict:
    status, made = send("GET", f"/generate-random-scenario?task={task}&seed={seed}&suite={suite}&ui_variant={variant}")
    assert status == 200
    return made


def the_call(send, made) -> dict:
    return send("GET", f"/api/customer/messages?scenario={made['id']}")[1]


def lines(page, variant=0) -> list[str]:
    log = page.get_by_role("log", name=label_of("call-log", variant=variant), exact=True)
    return log.get_by_role("listitem").all_inner_texts()


@pytest.fixture
def on_call(page, live_server, send):
    """A TASK_POLICY_CHANGE scenario's page, and the scenario."""
    made = scenario(send)
    open_app(page, live_server, f"?scenario={made['id']}")
    return page, made


def test_the_opening_line_is_shown_and_a_line_sent_with_enter_gets_the_reply(on_call, send):
    page, made = on_call
    call = region(page, "Call")
    expect(call.get_by_role("log", name="Transcript")).to_have_text(f"Customer: {OPENING}")
    call.get_by_label("Message to the customer").fill("May I have your confirmation code, please?")
    page.keyboard.press("Enter")
    code = made["details"]["customer"]["confirmation_code"]
    expect(call.get_by_role("listitem")).to_have_count(3)
    assert lines(page) == [f"Customer: {OPENING}", "You: May I have your confirmation code, please?",
                           f"Customer: My confirmation code is {code}."]
    expect(call.get_by_label("Message to the customer")).to_have_value("")
    assert the_call(send, made)["messages"][1:] == [
        {"role": "agent", "text": "May I have your confirmation code, please?"},
        {"role": "customer", "text": f"My confirmation code is {code}."}]
    actions = [m["action"] for m in send("GET", f"/evaluate?scenario={made['id']}")[1]["metrics"]]
    assert actions == ['fill call-message "May I have your confirmation code, please?"', "click call-send"]


def test_no_hidden_fact_is_on_the_page_before_the_customer_says_it(on_call):
    page, made = on_call
    facts = made["details"]["customer"]
    html = page.content()
    for name in ("confirmation_code", "last_name", "email"):
        if facts.get(name):
            assert str(facts[name]) not in html, name


def test_the_call_stays_across_screens_and_a_reload(on_call):
    page, _ = on_call
    region(page, "Call").get_by_label("Message to the customer").fill("Thank you for calling.")
    region(page, "Call").get_by_role("button", name="Send").click()
    expect(page.get_by_role("log", name="Transcript").get_by_role("listitem")).to_have_count(3)
    said = lines(page)
    page.get_by_role("link", name="Policy").click()
    expect(region(page, "Policy")).to_be_visible()
    assert lines(page) == said
    page.reload()
    page.wait_for_function("() => window.crm && window.crm.ready === true")
    expect(page.get_by_role("log", name="Transcript").get_by_role("listitem")).to_have_count(3)
    assert lines(page) == said


def test_a_screen_that_opens_while_the_rep_types_in_the_panel_leaves_the_focus_there(on_call):
    page, _ = on_call
    page.get_by_role("link", name="Policy").click()
    box = region(page, "Call").get_by_label("Message to the customer")
    box.click()
    page.keyboard.type("Let me check ")
    page.go_back()  # Home opens while the box has the focus
    expect(region(page, "Find flights")).to_be_visible()
    page.keyboard.type("that for you.")
    expect(box).to_be_focused()
    expect(box).to_have_value("Let me check that for you.")


def test_a_warm_switch_shows_the_new_scenarios_call_and_nothing_of_the_old(on_call, send):
    page, _ = on_call
    region(page, "Call").get_by_label("Message to the customer").fill("Hello there.")
    page.keyboard.press("Enter")
    expect(page.get_by_role("log", name="Transcript").get_by_role("listitem")).to_have_count(3)
    other = scenario(send, task="TASK_POLICY_CANCEL", seed=5)
    page.evaluate("([id, url]) => window.crm.switchScenario(id, url)", [other["id"], other["url"]])
    page.wait_for_function("() => window.crm.ready === true")
    opening = the_call(send, other)["messages"][0]["text"]
    expect(page.get_by_role("log", name="Transcript")).to_have_text(f"Customer: {opening}")


def test_end_call_says_so_and_a_line_after_it_is_refused_in_the_panel(on_call, send):
    page, made = on_call
    call = region(page, "Call")
    call.get_by_role("button", name="End call").click()
    expect(call.get_by_role("status")).to_have_text("The call has ended.")
    expect(page.locator("[data-call]")).to_have_attribute("data-call-state", "ended")
    expect(call.get_by_role("link", name="Next task")).to_be_hidden()  # not a play session
    call.get_by_label("Message to the customer").fill("Are you still there?")
    page.keyboard.press("Enter")
    expect(call.get_by_role("alert").filter(has_text="The call has ended")).to_be_visible()
    assert the_call(send, made) == {"messages": [{"role": "customer", "text": OPENING}], "customer": "rules",
                                    "open": False, "ended": "end", "lines": 1}  # the end mark
    assert page.evaluate("window.crm.callLines()") == 1  # as the call's last answer said (a timeline mark's)
    page.reload()
    page.wait_for_function("() => window.crm && window.crm.ready === true")
    expect(region(page, "Call").get_by_role("status")).to_have_text("The call has ended.")


def test_a_play_sessions_page_goes_on_to_the_next_task_after_end_call(page, live_server, send):
    made = scenario(send)
    following = f"{live_server}/?after={made['id']}"
    open_app(page, live_server, f"?scenario={made['id']}&next={following.replace('?', '%3F').replace('=', '%3D')}")
    region(page, "Call").get_by_role("button", name="End call").click()
    page.wait_for_url(following)
    assert the_call(send, made)["ended"] == "end"


def test_a_transfer_on_the_transfer_screen_is_said_in_the_panel(page, live_server, send):
    made = scenario(send, task="TASK_ESCALATION", seed=0)
    open_app(page, live_server, f"?scenario={made['id']}&next=http://127.0.0.1:9/results")
    page.get_by_role("link", name="Transfer to supervisor").click()
    transfer = region(page, "Transfer to supervisor")
    transfer.get_by_label("Summary for the supervisor").fill("Asks to give the booking to a friend.")
    transfer.get_by_role("button", name="Transfer the call").click()
    call = region(page, "Call")
    expect(call.get_by_role("status").filter(has_text="supervisor")).to_have_text(
        "The call was transferred to a supervisor.")
    assert lines(page)[-2:] == ["To the supervisor: Asks to give the booking to a friend.",
                                "Customer: Thank you. I'll hold for the supervisor."]
    expect(call.get_by_role("link", name="Next task")).to_have_attribute("href", "http://127.0.0.1:9/results")


@pytest.mark.parametrize("typed, message", [("   ", "text is required: what the agent says to the customer"),
                                            ("x" * 8001, "Too long")])
def test_an_empty_or_too_long_line_is_told_in_the_panel_and_not_stored(on_call, send, typed, message):
    page, made = on_call
    call = region(page, "Call")
    call.get_by_label("Message to the customer").fill(typed)
    call.get_by_role("button", name="Send").click()
    expect(call.get_by_role("alert").filter(has_text=message)).to_be_visible()
    assert the_call(send, made)["messages"] == [{"role": "customer", "text": OPENING}]
    assert lines(page) == [f"Customer: {OPENING}"]


def test_a_double_click_on_send_says_the_line_once(on_call, send):
    page, made = on_call
    call = region(page, "Call")
    call.get_by_label("Message to the customer").fill("How can I help you today?")
    call.get_by_role("button", name="Send").dblclick()
    expect(call.get_by_role("listitem")).to_have_count(3)
    page.evaluate("() => window.crm.whenIdle()")
    assert len(the_call(send, made)["messages"]) == 3
    assert len(lines(page)) == 3


def test_the_panel_is_beside_the_screens_at_1280_and_below_them_when_narrow(on_call):
    page, _ = on_call
    page.set_viewport_size({"width": 1280, "height": 800})
    panel = page.locator("[data-call]").bounding_box()
    for name in ("Find flights", "Policy", "Search bookings"):
        if name != "Find flights":
            page.get_by_role("link", name=name).click()
        screen = region(page, name).bounding_box()
        assert screen["x"] + screen["width"] <= panel["x"], name  # nothing of a screen under the panel
    assert panel["x"] + panel["width"] == 1280 and panel["height"] == 800
    page.set_viewport_size({"width": 760, "height": 800})
    page.get_by_role("link", name="Home").click()
    screen, panel = region(page, "Find flights").bounding_box(), page.locator("[data-call]").bounding_box()
    assert panel["y"] >= screen["y"] + screen["height"]


@pytest.mark.parametrize("variant", [1, 4])
def test_a_ui_variant_says_the_panel_in_its_own_words(page, live_server, send, variant):
    made = scenario(send, variant=variant)
    open_app(page, live_server, f"?scenario={made['id']}")
    call = page.get_by_role("region", name=label_of("call", variant=variant), exact=True)
    call.get_by_label(label_of("call-message", variant=variant), exact=True).fill("Hello, how can I help?")
    call.get_by_role("button", name=label_of("call-send", variant=variant), exact=True).click()
    expect(call.get_by_role("listitem")).to_have_count(3)
    assert lines(page, variant)[1] == f"{label_of('call-you', variant=variant)}: Hello, how can I help?"
    call.get_by_role("button", name=label_of("call-end", variant=variant), exact=True).click()
    expect(call.get_by_role("status").filter(has_text=label_of("call-ended", variant=variant))).to_be_visible()


@pytest.mark.parametrize("suite, task", [("full", "TASK_FIND_BOOKING"), ("paper", "TASK_FIND_BOOKING")])
def test_the_papers_pages_have_no_call(page, live_server, send, suite, task):
    made = scenario(send, task=task, suite=suite)
    open_app(page, live_server, f"?scenario={made['id']}")
    expect(page.get_by_role("region", name="Call")).to_have_count(0)
