"""A local OpenAI-compatible server for tests: serves chat completions from a script of replies.

Each reply is a string (answered as the assistant's message), a dict {"status": 429, "error": "..."}
(answered as that HTTP error), or a dict {"tool_calls": [{"name": ..., "arguments": {...}}], "content":
...} (answered as the assistant calling those tools; `arguments` given as a string are sent as they
are, so a test can script arguments that are not JSON). Usage is reported per reply so tests can
check token totals. A request offering `tools`, or holding tool calls and results, must be well formed
as OpenAI requires (`tool_problem`), else it is refused with a 400.
`/embeddings` answers deterministic vectors (see `embedding_vector`): texts sharing words get
similar vectors, so retrieval by cosine similarity behaves as with a real embedding model.
A message's content may be a list of content parts, text and images (base64 PNG data URLs); an
image that is not a valid PNG data URL is refused with a 400, as OpenAI does, and each image counts
IMAGE_TOKENS prompt tokens. `delay_seconds` makes every chat completion take that long (a slow
model); requests are answered in parallel, so several clients wait at the same time (the most chat
requests the server had in hand at once is `most_in_flight`).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
import struct
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jsonschema import Draft202012Validator, SchemaError

Reply = str | dict
EMBEDDING_DIMENSIONS = 256


def embedding_vector(text: str) -> list[float]:
    """A unit vector of hashed word counts (each lower-cased word adds 1 to one dimension picked by
    its hash): the same text always gives the same vector, and shared words raise the cosine."""
    vector = [0.0] * EMBEDDING_DIMENSIONS
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % EMBEDDING_DIMENSIONS] += 1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def tool_problem(body: dict) -> str | None:
    """What is wrong with the request's tools or tool messages, as OpenAI would refuse it; None when
    nothing is: every tool a function with a valid name, a description and a JSON schema of an
    object; every assistant tool call answered by a tool message with its id before the next turn;
    no tool message that answers no call."""
    for tool in body.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if tool.get("type") != "function" or not isinstance(function, dict):
            return f"a tool must be {{'type': 'function', 'function': {{...}}}}, not {tool!r:.80}"
        if not TOOL_NAME.match(str(function.get("name", ""))) or not function.get("description"):
            return f"tool {function.get('name')!r} needs a name of [a-zA-Z0-9_-] and a description"
        parameters = function.get("parameters")
        try:
            Draft202012Validator.check_schema(parameters)
        except SchemaError as error:
            return f"the parameters of {function['name']} are not a JSON schema: {error.message}"
        if parameters.get("type") != "object":
            return f"the parameters of {function['name']} must be a JSON schema of an object"
    waiting: set[str] = set()
    for message in body.get("messages", []):
        if message.get("role") == "tool":
            if message.get("tool_call_id") not in waiting:
                return f"a tool message answers {message.get('tool_call_id')!r}, which no preceding tool call has"
            waiting.discard(message["tool_call_id"])
            continue
        if waiting:
            return f"the tool calls {sorted(waiting)} have no tool message answering them"
        if message.get("role") == "assistant":
            waiting = {call["id"] for call in message.get("tool_calls") or []}
    return None


def tool_call_message(reply: dict, number: int) -> dict:
    """The assistant message calling the scripted tools; ids are call_<request>_<index>."""
    calls = [{"id": f"call_{number}_{index}", "type": "function",
              "function": {"name": call["name"], "arguments": call["arguments"] if isinstance(call["arguments"], str)
                           else json.dumps(call["arguments"])}}
             for index, call in enumerate(reply["tool_calls"])]
    return {"role": "assistant", "content": reply.get("content"), "tool_calls": calls}


IMAGE_TOKENS = 765  # what OpenAI charges a 1280x900 image at high detail (4 tiles)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def content_parts(message: dict) -> list[dict]:
    """A message's content as content parts (plain text content is one text part)."""
    content = message.get("content") or ""
    return content if isinstance(content, list) else [{"type": "text", "text": str(content)}]


def image_bytes(part: dict) -> bytes:
    """The PNG of an image part; ValueError saying what is wrong with it."""
    url = (part.get("image_url") or {}).get("url", "")
    prefix = "data:image/png;base64,"
    if not url.startswith(prefix):
        raise ValueError("image_url must be a data:image/png;base64 URL")
    try:
        data = base64.b64decode(url[len(prefix):], validate=True)
    except binascii.Error:
        raise ValueError("the image is not valid base64") from None
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("the image is not a PNG")
    return data


def prompt_tokens(messages: list[dict]) -> int:
    """Characters of text / 4, plus IMAGE_TOKENS per image; raises ValueError on a bad image."""
    text, images = 0, 0
    for message in messages:
        for part in content_parts(message):
            if part.get("type") == "image_url":
                image_bytes(part)
                images += 1
            else:
                text += len(part.get("text", ""))
    return text // 4 + 1 + images * IMAGE_TOKENS


class FakeOpenAIServer:
    def __init__(self, replies: list[Reply] | Callable[[dict], Reply], embedding_errors: list[dict] | None = None,
                 delay_seconds: float = 0.0):
        self._script = replies
        self.delay_seconds = delay_seconds
        self.in_flight = self.most_in_flight = 0
        self._embedding_errors = list(embedding_errors or [])  # answered, in order, before any vectors
        self._lock = threading.Lock()
        self.requests: list[dict] = []
        self.embedding_requests: list[dict] = []
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "embedding_tokens": 0}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.base_url = f"http://127.0.0.1:{self._server.server_port}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_reply(self, request: dict) -> Reply:
        with self._lock:
            self.requests.append(request)
            if callable(self._script):
                return self._script(request)
            if not self._script:
                return {"status": 500, "error": "the fake server's script has no more replies"}
            return self._script.pop(0)

    def slow_reply(self, request: dict) -> Reply:
        """The next reply after `delay_seconds`, counting the requests waiting meanwhile."""
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        time.sleep(self.delay_seconds)
        with self._lock:
            self.in_flight -= 1
        return self.next_reply(request)

    def record_usage(self, prompt: int, completion: int) -> None:
        with self._lock:
            self.usage["prompt_tokens"] += prompt
            self.usage["completion_tokens"] += completion

    def embedding_error(self) -> dict | None:
        with self._lock:
            return self._embedding_errors.pop(0) if self._embedding_errors else None

    def embeddings(self, body: dict) -> dict:
        """The /embeddings answer: one vector per input, as floats or as base64 float32."""
        texts = [body["input"]] if isinstance(body["input"], str) else list(body["input"])
        tokens = sum(len(text) for text in texts) // 4 + 1
        with self._lock:
            self.embedding_requests.append(body)
            self.usage["embedding_tokens"] += tokens
        data = []
        for index, text in enumerate(texts):
            vector = embedding_vector(text)
            if body.get("encoding_format") == "base64":
                vector = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
            data.append({"object": "embedding", "index": index, "embedding": vector})
        return {"object": "list", "data": data, "model": body.get("model", "fake-embedding"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                if self.path.endswith("/embeddings"):
                    error = fake.embedding_error()
                    if error:
                        return self._send(error["status"], {"error": {"message": error.get("error", "scripted error")}})
                    return self._send(200, fake.embeddings(body))
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                try:
                    prompt = prompt_tokens(body.get("messages", [])) + len(json.dumps(body.get("tools", ""))) // 4
                except ValueError as error:
                    return self._send(400, {"error": {"message": f"Invalid image: {error}"}})
                problem = tool_problem(body)
                if problem:
                    return self._send(400, {"error": {"message": f"Invalid tools: {problem}"}})
                reply = fake.slow_reply(body)
                if isinstance(reply, dict) and "tool_calls" not in reply:
                    return self._send(reply["status"], {"error": {"message": reply.get("error", "scripted error")}})
                if isinstance(reply, dict):
                    message, finish = tool_call_message(reply, len(fake.requests)), "tool_calls"
                else:
                    message, finish = {"role": "assistant", "content": reply}, "stop"
                completion = len(json.dumps(message)) // 4 + 1 if finish == "tool_calls" else len(reply) // 4 + 1
                fake.record_usage(prompt, completion)
                self._send(200, {
                    "id": f"chatcmpl-{len(fake.requests)}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": finish, "message": message}],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion},
                })

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
