"""Synapse's exemplar memory without a browser: turns cut from trajectories, the memory folder,
retrieval by cosine similarity of embeddings from the fake server's /embeddings route or by BM25,
the majority task type, and reading several actions from one reply."""
import json

import pytest

from agent.__main__ import main
from agent.policies.exemplar_memory.exemplars import Exemplar, Turn, split_turns, successful_episodes
from agent.policies.exemplar_memory.retrieval import BM25Ranker, EmbeddingRanker, majority, retrieve
from agent.policies.exemplar_memory.store import ExemplarMemory, MemoryFolderError
from agent.policies.llm import LLMClient
from agent.policies.model import ModelCalls
from agent.policies.reply import action_lines
from tests.agent.command_line import refusal
from tests.fake_openai import FakeOpenAIServer

SEARCH_FORM = ('<radio id=8 Return checked/>\n<radio id=9 One way/>\n<input id=10 text From/>\n'
               '<button id=16>Search flights</button>\n<link id=3>Find booking</link>')
RESULTS = "<radio id=24 Select 7:33am SEA CR6465/>\n<radio id=33 Select 7:06am SAT CR3330/>\n<button id=41>Checkout</button>"


def step(observation, action, error=None):
    return {"observation": observation, "action": action, "error": error}


def test_a_turn_ends_after_a_click_that_changes_the_page_or_a_failed_action():
    steps = [step(SEARCH_FORM, "CLICK 9"), step(SEARCH_FORM, 'TYPE 10 "SEA"'), step(SEARCH_FORM, "CLICK Search flights"),
             step(RESULTS, "CLICK 24"), step(RESULTS, "CLICK 99", error="no element 99"),
             step("ERROR: CLICK 99 failed\n" + RESULTS, "CLICK 33"), step(RESULTS, "CLICK 41"),
             step("<text id=50>Booking confirmed</text>", "STOP [done]")]
    turns = split_turns(steps)
    assert [t.actions for t in turns] == [["CLICK 9", 'TYPE 10 "SEA"', "CLICK Search flights"],
                                         ["CLICK 24", "CLICK 99"], ["CLICK 33", "CLICK 41"], ["STOP [done]"]]
    assert turns[2].page == RESULTS  # the ERROR line is not part of the page


def test_successful_episodes_of_a_run_become_exemplars(tmp_path):
    run = tmp_path / "oracle-run"
    for seed, success in ((0, 1), (1, 0)):
        path = run / "oracle" / "TASK_CANCEL_FLIGHT" / f"seed{seed}-trial0.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"complete": True, "task": "TASK_CANCEL_FLIGHT", "seed": seed,
                                    "scenario": {"instruction": f"Cancel booking ABC12{seed}."},
                                    "metrics": {"success": success}, "steps": [step(SEARCH_FORM, "CLICK 3")]}))
    (exemplar,) = successful_episodes(run)
    assert exemplar.id == "oracle-run/oracle/TASK_CANCEL_FLIGHT/seed0-trial0" and exemplar.task == "Cancel booking ABC120."
    assert exemplar.task_type == "TASK_CANCEL_FLIGHT" and exemplar.turns[0].actions == ["CLICK 3"]


def exemplar(ident, task_type, task, state):
    return Exemplar(ident, task_type, task, "src", [Turn("page", ["CLICK 1"], state)])


@pytest.fixture
def memory(tmp_path):
    store = ExemplarMemory(tmp_path / "memory", [
        exemplar("book-1", "TASK_BOOK_FLIGHT", "Book a return flight from Seattle (SEA) to Denver (DEN) for Ada.",
                 "Flight search form, nothing filled in."),
        exemplar("cancel-1", "TASK_CANCEL_FLIGHT", "Cancel the booking with confirmation code QWERTY.",
                 "Search form; open Find booking."),
        exemplar("cancel-2", "TASK_CANCEL_FLIGHT", "Find booking ZXCVBN and cancel it.", "Search form; open Find booking."),
        exemplar("find-1", "TASK_FIND_BOOKING", "Look up booking ASDFGH.", "Search form; open Find booking.")],
        {"from": ["runs/oracle"]})
    store.save()
    return ExemplarMemory.load(store.folder)


def test_embedding_retrieval_takes_the_majority_type_of_the_top_k(memory):
    with FakeOpenAIServer([]) as server:
        calls = ModelCalls(LLMClient("chat", base_url=server.base_url, api_key="k"))
        ranker = EmbeddingRanker(memory, "fake-embedding", calls)
        found = retrieve(ranker, memory, "Cancel the booking with confirmation code PLMOKN.", "Search form; open Find booking.",
                         top_k=3)
        again = retrieve(ranker, memory, "Cancel the booking with confirmation code QWERTY.", "Search form.", top_k=1)
    assert found.retriever == "embeddings (fake-embedding)" and found.task_type == "TASK_CANCEL_FLIGHT"
    assert [e.id for e, _ in found.top][0] == "cancel-1" and [e.id for e in found.exemplars] == ["cancel-1", "cancel-2"]
    scores = [score for _, score in found.top]
    assert scores == sorted(scores, reverse=True) and 0 < scores[-1] < scores[0] <= 1.0001
    assert "cancel-1" not in [e.id for e, _ in again.top]  # the very scenario being played is never retrieved
    # the keys were embedded once (no vectors stored), then one query per retrieval
    assert [len(r["input"]) for r in server.embedding_requests] == [4, 1, 1]
    assert calls.usage()["embedding_calls"] == 3 and calls.usage()["embedding_tokens"] == server.usage["embedding_tokens"]
    record = found.record()
    assert record["retriever"] == found.retriever and record["exemplars"] == ["cancel-1", "cancel-2"]


def test_stored_key_vectors_spare_the_embedding_calls(memory):
    with FakeOpenAIServer([]) as server:
        calls = ModelCalls(LLMClient("chat", base_url=server.base_url, api_key="k"))
        memory.save_vectors("fake-embedding", {e.id: calls.embed([e.key], "fake-embedding").vectors[0]
                                               for e in memory.exemplars})
        reloaded = ExemplarMemory.load(memory.folder)
        assert reloaded.embedding_models() == ["fake-embedding"]
        before = len(server.embedding_requests)
        retrieve(EmbeddingRanker(reloaded, "fake-embedding", calls), reloaded, "Book a flight", "Search form")
    assert len(server.embedding_requests) - before == 1


def test_bm25_retrieval_without_an_embedding_model(memory):
    found = retrieve(BM25Ranker(memory), memory, "Book a return flight from Boston (BOS) to Denver (DEN).",
                     "Flight search form.", top_k=3)
    assert found.retriever.startswith("bm25 (bm25s ") and found.top[0][0].id == "book-1"
    assert found.task_type == "TASK_BOOK_FLIGHT" and [e.id for e in found.exemplars] == ["book-1"]


def test_majority_ties_go_to_the_best_ranked_type():
    assert majority(["A", "B", "B"]) == "B" and majority(["A", "B"]) == "A" and majority([]) == ""


def test_a_folder_without_a_memory_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(MemoryFolderError, match="build one with: python -m agent memory build"):
        ExemplarMemory.load(tmp_path)
    _, err = refusal(main, ["memory", "show", str(tmp_path)], capsys)
    assert "holds no exemplar memory" in err
    _, err = refusal(main, ["memory", "build", "--from", str(tmp_path / "nowhere"), "--out", str(tmp_path / "m"),
                            "--model", "m"], capsys)
    assert "no such folder" in err


def test_memory_show_lists_the_exemplars(memory, capsys):
    assert main(["memory", "show", str(memory.folder), "--full"]) == 0
    shown = capsys.readouterr().out
    assert "4 exemplars from runs/oracle" in shown and "TASK_CANCEL_FLIGHT  2" in shown
    assert "== cancel-2 (TASK_CANCEL_FLIGHT)\nTASK: Find booking ZXCVBN and cancel it.\nSTATE:\n" in shown


def test_several_actions_are_read_from_one_reply():
    reply = "ACTIONS:\n```\nTYPE 10 \"SEA\"\n- TYPE 11 \"DEN\"\n2. CLICK 16\n```"
    assert action_lines(reply) == ['TYPE 10 "SEA"', 'TYPE 11 "DEN"', "CLICK 16"]
    assert action_lines('TYPE 4 "x"\nCLICK 5\nSTATE:\nimagined page\nACTIONS:\nCLICK 9') == ['TYPE 4 "x"', "CLICK 5"]
    assert action_lines("STATE:\n<button id=3>Go</button>\nACTIONS: CLICK 3") == ["CLICK 3"]
    assert action_lines("") == []
