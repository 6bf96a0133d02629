"""The vision variant of flat (`--observations ...,som`): each request carries the page as a PNG
image content part next to the text, image tokens are counted as the server reports them, the
response cache tells images apart, and a text-only method refuses image-only observations."""
import base64
import csv
import hashlib
import io
import json

import pytest
from PIL import Image

from agent.__main__ import main
from agent.policies.llm import LLMClient
from agent.policies.model import user_content
from tests.agent import scripted_model as model
from tests.agent.command_line import refusal
from tests.fake_openai import IMAGE_TOKENS, FakeOpenAIServer, content_parts, image_bytes

pytestmark = pytest.mark.browser


def images_of(request):
    message = next(m for m in reversed(request["messages"]) if m["role"] == "user")
    return [image_bytes(part) for part in content_parts(message) if part["type"] == "image_url"]


def run_cli(out, fake, observations, *extra):
    return main(["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "1", "--out", str(out),
                 "--quiet", "--model", "fake-model", "--base-url", fake.base_url, "--observations", observations,
                 *extra])


def test_flat_sends_the_set_of_marks_image_with_the_text(tmp_path, live_server):
    with FakeOpenAIServer(model.flat_search_flight) as fake:
        assert run_cli(tmp_path, fake, "elements,som", "--server", live_server) == 0
    trajectory = json.loads((tmp_path / "flat-zero-shot-elements+som" / "TASK_FIND_FLIGHT" / "seed0-trial0.json")
                            .read_text())
    assert trajectory["metrics"]["success"] == 1 and trajectory["observations"] == ["elements", "som"]
    for request, step in zip(fake.requests, trajectory["steps"]):
        user = next(m for m in request["messages"] if m["role"] == "user")
        assert [part["type"] for part in user["content"]] == ["text", "image_url"]
        assert len(model.page(request)) > 5  # the element list is in the text part
        (png,) = images_of(request)
        image = Image.open(io.BytesIO(png))
        assert (image.format, image.size) == ("PNG", (1280, 900))
        image.verify()
        assert step["modes"]["som"]["sha256"] == hashlib.sha256(png).hexdigest()
        assert step["policy"]["model_calls"][0]["images"] == 1
    assert "CLICK_AT <x> <y>" in fake.requests[0]["messages"][0]["content"]  # the vision prompt
    # image tokens are what the server reports: each request counted IMAGE_TOKENS for its image
    prompt_tokens = sum(s["tokens"]["prompt_tokens"] for s in trajectory["steps"])
    assert prompt_tokens == fake.usage["prompt_tokens"] > IMAGE_TOKENS * len(fake.requests)
    row, total = csv.DictReader((tmp_path / "summary.csv").open())
    assert total == {**row, "task": "all tasks"}  # one task: the total over tasks is its row
    assert int(row["prompt_tokens"]) == prompt_tokens and row["method"] == "flat-zero-shot-elements+som"


def test_flat_with_the_image_alone_runs_an_episode(tmp_path, live_server):
    replies = [model.reply("The search form is on the image.", "CLICK_AT 240 510"),
               model.reply("Nothing more to do.", "STOP [done]")]
    with FakeOpenAIServer(replies) as fake:
        assert run_cli(tmp_path, fake, "som", "--server", live_server) == 0
    trajectory = json.loads((tmp_path / "flat-zero-shot-som" / "TASK_FIND_FLIGHT" / "seed0-trial0.json").read_text())
    assert [s["action"] for s in trajectory["steps"]] == ["CLICK_AT 240 510", "STOP [done]"]
    assert trajectory["end"]["cause"] == "stop" and trajectory["steps"][0]["error"] is None
    text = model.user_text(fake.requests[0])
    assert text.split("CURRENT PAGE:\n")[1].startswith("(The page is the image attached to this message.)")
    assert "<button id=" not in text
    assert all(len(images_of(request)) == 1 for request in fake.requests)
    # the click on Search flights (an empty form) was recorded like any click
    assert trajectory["steps"][0]["metrics"]["num_actions"] == 1


def test_a_text_method_refuses_observations_without_text(capsys):
    _, err = refusal(main, ["run", "--method", "heap", "--observations", "som", "--model", "m",
                            "--base-url", "http://127.0.0.1:9"], capsys)
    assert "heap reads the page as text: add a text mode" in err
    _, err = refusal(main, ["run", "--method", "oracle", "--observations", "elements,pixels"], capsys)
    assert "unknown observation mode pixels" in err


def test_the_cache_key_covers_the_image(tmp_path):
    red, blue = (png_of(color) for color in ("red", "blue"))
    with FakeOpenAIServer(["ACTION: CLICK_AT 1 1", "ACTION: CLICK_AT 2 2"]) as fake:
        client = LLMClient("m", base_url=fake.base_url, api_key="k", cache_dir=tmp_path)
        first = client.complete([{"role": "user", "content": user_content("Go.", [red])}])
        other = client.complete([{"role": "user", "content": user_content("Go.", [blue])}])
        again = client.complete([{"role": "user", "content": user_content("Go.", [red])}])
    assert (first.text, other.text, again.text) == ("ACTION: CLICK_AT 1 1", "ACTION: CLICK_AT 2 2", "ACTION: CLICK_AT 1 1")
    assert len(fake.requests) == 2 and again.cached and not other.cached


def test_the_fake_server_refuses_an_image_that_is_not_a_png():
    bad = base64.b64encode(b"GIF89a not a png").decode()
    with FakeOpenAIServer(["unused"]) as fake:
        client = LLMClient("m", base_url=fake.base_url, api_key="k")
        with pytest.raises(Exception, match="Invalid image: the image is not a PNG"):
            client.complete([{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{bad}"}}]}])


def png_of(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(out, "PNG")
    return out.getvalue()
