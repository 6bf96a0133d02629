"""One request at a time in the app, per server process, with the other threads still reading
requests and writing answers.

A worker's threads are there so that a slow client (an answer read slowly; requests themselves
are read in the worker's poller until they are whole) never holds up the others. Running the app
itself on several threads at once gains
nothing on a CPU-bound machine and costs a lot: under load, the threads of one process fight
over Python's GIL, and each request took about 70% more CPU with 8 threads at work than with
one (benchmarks/server_throughput.py). So a thread first reads the whole request body (bounded
by the body limit and the request time-out), then waits for its turn (turns go in the order the
requests came), runs the app and collects the whole answer, and sends it after its turn.
"""
from __future__ import annotations

import io
import threading
from collections import deque
from collections.abc import Callable, Iterable

from gunicorn.http.errors import NoMoreData


class FairTurn:
    """A lock handed to its waiters in the order they came (threading.Lock wakes any of them)."""

    def __init__(self):
        self.guard = threading.Lock()
        self.waiting: deque[threading.Lock] = deque()
        self.taken = False

    def __enter__(self):
        with self.guard:
            if not self.taken:
                self.taken = True
                return
            baton = threading.Lock()
            baton.acquire()
            self.waiting.append(baton)
        baton.acquire()  # released by the holder before us, which hands the turn over

    def __exit__(self, *_exc):
        with self.guard:
            if self.waiting:
                self.waiting.popleft().release()
            else:
                self.taken = False


class TakingTurns:
    """A WSGI app wrapped so that it works on one request at a time."""

    def __init__(self, app: Callable, body_limit: int):
        self.app, self.body_limit = app, body_limit
        self.turn = FairTurn()

    def __call__(self, environ: dict, start_response) -> Iterable[bytes]:
        if not self._read_whole_body(environ):
            _close_after_answer(start_response)
        with self.turn:
            answer = self.app(environ, start_response)
            if isinstance(answer, environ.get("wsgi.file_wrapper", ())):
                return answer  # a static file: the server sends it after the turn
            try:
                return list(answer)
            finally:
                if hasattr(answer, "close"):
                    answer.close()

    def _read_whole_body(self, environ: dict) -> bool:
        """Read the body as far as the app may; False when some of it is left unread. A declared
        length over the limit is left unread (the app answers 413 from the header); a body of
        unknown length (chunked) is read to one byte past the limit and given its length, so that
        one too large is refused the same way. A body cut short by the client leaving ends the
        request unanswered (gunicorn closes it)."""
        declared = environ.get("CONTENT_LENGTH")
        length = int(declared) if declared and declared.isdigit() else None
        if length is not None and length > self.body_limit:
            return False
        body = environ["wsgi.input"].read(self.body_limit + 1 if length is None else length)
        if length is not None and len(body) < length:
            raise NoMoreData(body)  # the client went away half-way: nothing of it reaches the app
        environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)  # read and de-chunked: it now has a length
        return len(body) <= self.body_limit


def _close_after_answer(start_response) -> None:
    """Make the answer say `Connection: close` and end the connection after it: the rest of the
    body is still on its way, so the connection cannot carry another request (gunicorn drains at
    most 64 KB of it, and would otherwise close a connection its answer said was kept alive).
    gunicorn's start_response is a method of its response, which can be told to close."""
    response = getattr(start_response, "__self__", None)
    if hasattr(response, "force_close"):
        response.force_close()
