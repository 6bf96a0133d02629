"""The server of `python run.py`: gunicorn, with worker processes of threads.

What it adds to gunicorn's own threaded worker:
- the HTTP server's limits and answers of the development server (crm_app/server.py), so that
  every error is the API's JSON error shape: a request line over 64 KB is a JSON 414, a header
  line over 64 KB or more than 100 headers a JSON 431, any other malformed request a JSON 400;
- requests are read in the worker's poller: a connection goes to a thread only once its whole
  request is there (crm_app/request_framing.py), so a client that sends nothing, half a request
  or a slow one holds no thread (gunicorn hands every new connection to a thread, which then waits
  for the request);
- a request time-out: a request (head and body) must arrive in full within `request_timeout`
  seconds of its first byte, or it is answered with a JSON 408 and its connection closed;
  connections that send nothing are closed after `keep_alive` seconds, as are idle kept-alive
  connections.
- the app works on one request at a time per worker, its threads reading requests and sending
  answers meanwhile (crm_app/app_turns.py): threads running the app at once only fight over the GIL.

The app is made once, before the workers are forked (so that the schema and the base data are
made once, and the operator token printed once); each worker opens its own database connections.
SIGTERM stops gracefully (requests in flight are answered, for up to `graceful_timeout` seconds);
Ctrl+C (SIGINT) stops at once, as gunicorn does.
"""
from __future__ import annotations

import argparse
import errno
import gc
import json
import selectors
import time
from dataclasses import dataclass
from functools import partial

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.http.errors import (ExpectationFailed, LimitRequestHeaders, LimitRequestLine, ParseException,
                                  UnsupportedTransferCoding)
from gunicorn.http.message import Request
from gunicorn.http.parser import RequestParser
from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers.gthread import TConn, ThreadWorker
from werkzeug.exceptions import RequestTimeout

from .app_turns import TakingTurns
from .request_framing import request_is_complete
from .security_headers import SECURITY_HEADERS
from .worker_balance import ConnectionShares
from .server import MAX_HEADER_BYTES, MAX_HEADERS, MAX_REQUEST_LINE_BYTES, SERVER_MESSAGES

READ_SIZE = 65536  # bytes read from a connection per readable event
# How much of a request head the poller keeps before a thread takes over the connection (and its
# parser refuses a head over the limits, or reads the rest): a bound on each connection's buffer.
HEAD_LIMIT = 4 * MAX_HEADER_BYTES


@dataclass(frozen=True)
class ServerOptions:
    workers: int = 1
    threads: int = 8
    max_connections: int = 4000  # per worker: more clients wait in the listen queue
    keep_alive: int = 5  # seconds, as all three
    request_timeout: float = 10
    graceful_timeout: int = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = ServerOptions()
    group = parser.add_argument_group("serving (gunicorn)")
    group.add_argument("--workers", type=_positive, default=defaults.workers,
                       help=f"server processes (default {defaults.workers}); more use more cores")
    group.add_argument("--threads", type=_positive, default=defaults.threads,
                       help=f"requests each process parses and answers at once, once they have arrived; "
                            f"the app works on one at a time (default {defaults.threads})")
    group.add_argument("--max-connections", type=_positive, default=defaults.max_connections,
                       help=f"connections each process holds open at once; more wait to be accepted "
                            f"(default {defaults.max_connections})")
    group.add_argument("--keep-alive", type=int, default=defaults.keep_alive, metavar="SECONDS",
                       help=f"how long a connection that sends nothing (new or idle) is kept open "
                            f"(default {defaults.keep_alive:g})")
    group.add_argument("--request-timeout", type=float, default=defaults.request_timeout, metavar="SECONDS",
                       help=f"a request must arrive in full within this time of its first byte, else "
                            f"it gets a 408 (default {defaults.request_timeout:g})")
    group.add_argument("--graceful-timeout", type=int, default=defaults.graceful_timeout, metavar="SECONDS",
                       help=f"on SIGTERM, how long requests in flight may take to finish "
                            f"(default {defaults.graceful_timeout:g})")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def options_from(args: argparse.Namespace) -> ServerOptions:
    return ServerOptions(args.workers, args.threads, args.max_connections, args.keep_alive,
                         args.request_timeout, args.graceful_timeout)


def serve(app: Flask, host: str, port: int, options: ServerOptions) -> None:
    """Serve in the foreground until stopped."""
    ProductionServer(app, host, port, options).run()


class ProductionServer(BaseApplication):
    def __init__(self, app: Flask, host: str, port: int, options: ServerOptions):
        self.app, self.options = app, options
        self.settings = {
            "bind": f"{host}:{port}",
            "workers": options.workers,
            "worker_class": JsonErrorWorker,
            "threads": options.threads,
            "worker_connections": options.max_connections,
            "keepalive": options.keep_alive,
            "graceful_timeout": options.graceful_timeout,
            "preload_app": True,
            "proc_name": "airlinecrm",
            "http_parser": "python",  # the one whose request-line limit JsonErrorWorker raises
            "limit_request_fields": MAX_HEADERS,
            "limit_request_field_size": MAX_HEADER_BYTES,
            "forwarded_allow_ips": "",  # X-Forwarded-* change nothing, as on the development server
            "control_socket_disable": True,
            "when_ready": self._say_where,
        }
        self.shares = ConnectionShares(options.workers) if options.workers > 1 else None
        if self.shares:
            self.settings.update(pre_fork=self.shares.assign, child_exit=self.shares.release)
        super().__init__(prog="run.py")

    def load_config(self) -> None:
        for name, value in self.settings.items():
            self.cfg.set(name, value)

    def load(self) -> Flask:
        """The app, in the master process before the workers are forked from it."""
        JsonErrorWorker.request_timeout = self.options.request_timeout
        JsonErrorWorker.shares = self.shares
        # Connections opened so far (making the schema) would be shared by every forked worker:
        # close them, so that each worker opens its own.
        self.app.extensions["engine"].dispose()
        # What exists now (the app, its libraries) lives as long as the workers: keep it out of
        # the garbage collector's full passes, which would otherwise walk it all and pause a
        # worker for tens of milliseconds (and copy the shared pages into each worker).
        gc.freeze()
        return self.app

    def _say_where(self, arbiter) -> None:
        host, port = arbiter.LISTENERS[0].sock.getsockname()[:2]
        print(f"AirlineCRM is serving at http://{host}:{port}/ with {self.options.workers} worker(s) of "
              f"{self.options.threads} threads  (Ctrl+C to stop)", flush=True)


class RequestTimedOut(RequestTimeout):
    """A request that did not arrive in full in time: a 408, from gunicorn or from inside the app
    (while it reads the body), in both cases as JSON."""

    @classmethod
    def after(cls, timeout: float) -> RequestTimedOut:
        return cls(f"The request did not arrive in full within {timeout:g} seconds")


class DeadlineUnreader(SocketUnreader):
    """Reads a connection's bytes for the parser, each request within its deadline."""

    def __init__(self, sock, timeout: float):
        super().__init__(sock)
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout

    def restart(self) -> None:
        self.deadline = time.monotonic() + self.timeout

    def chunk(self, size_hint=None):
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise RequestTimedOut.after(self.timeout)
        previous = self.sock.gettimeout()
        self.sock.settimeout(remaining)
        try:
            return super().chunk(size_hint)
        except TimeoutError:
            raise RequestTimedOut.after(self.timeout) from None
        finally:
            self.sock.settimeout(previous)


class LongLineRequest(Request):
    """gunicorn's request, with the request-line limit of the development server (gunicorn caps
    its own setting at 8,190 bytes)."""

    def parse(self, unreader):
        self.limit_request_line = MAX_REQUEST_LINE_BYTES
        return super().parse(unreader)


class TimedRequestParser(RequestParser):
    mesg_class = LongLineRequest

    def __init__(self, cfg, sock, client, timeout: float):
        super().__init__(cfg, sock, client)
        self.unreader = DeadlineUnreader(sock, timeout)


class ReadingConn(TConn):
    """A connection with the bytes of its next request read so far."""

    def __init__(self, *args):
        super().__init__(*args)
        self.received = b""


class JsonErrorWorker(ThreadWorker):
    """gunicorn's threaded worker, reading requests in its poller and handing a connection to a
    thread once its request is whole, answering the errors it finds before the app (and a request
    time-out) in the API's JSON error shape, and taking its share of new connections only (see
    crm_app/worker_balance.py)."""

    request_timeout = ServerOptions.request_timeout
    shares: ConnectionShares | None = None  # set before the workers are forked
    share_slot: int | None = None  # this worker's counter in `shares`, set by ConnectionShares.assign
    body_limit = 0  # the app's, set in load_wsgi

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading: set[ReadingConn] = set()  # connections whose request the poller is reading

    @property
    def worker_connections(self) -> int:
        """gunicorn's worker accepts while it holds fewer connections than this."""
        limit = self.cfg.worker_connections
        if self.shares is None or self.shares.may_accept(self.share_slot, self.nr_conns):
            return limit
        return self.nr_conns

    @worker_connections.setter
    def worker_connections(self, _value) -> None:
        pass  # gunicorn sets it once from the settings, which the getter reads

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.body_limit = self.wsgi.config["MAX_CONTENT_LENGTH"]
        self.wsgi = TakingTurns(self.wsgi, self.body_limit)

    # ---- in the poller (the worker's main thread): reading requests until they are whole ----

    def accept(self, listener) -> None:
        try:
            sock, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = ReadingConn(self.cfg, sock, address, listener.getsockname())
        conn.timeout = time.monotonic() + self.cfg.keepalive  # to send its first byte
        self._wait(conn)

    def on_client_socket_readable(self, conn, client) -> None:
        """A kept-alive connection sent something: its request is read here too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        conn.sock.setblocking(False)
        self._on_bytes(conn)

    def _wait(self, conn: ReadingConn) -> None:
        """Leave the connection in the poller until it sends more (or its `timeout` passes)."""
        self.reading.add(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_bytes, conn))

    def _on_bytes(self, conn: ReadingConn, _sock=None) -> None:
        try:
            data = conn.sock.recv(READ_SIZE)
        except BlockingIOError:
            data = None
        except OSError:
            data = b""
        if data == b"":  # the client closed the connection
            self._stop_reading(conn)
            self._close(conn)
            return
        if data and not conn.received:  # the request must arrive in full within request_timeout of its first byte
            conn.timeout = time.monotonic() + self.request_timeout
        conn.received += data or b""
        if request_is_complete(conn.received, HEAD_LIMIT, self.body_limit):
            self._stop_reading(conn)
            conn.data_ready = True
            self.enqueue_req(conn)
        elif conn not in self.reading:
            self._wait(conn)

    def _stop_reading(self, conn: ReadingConn) -> None:
        if conn in self.reading:
            self.reading.remove(conn)
            self.poller.unregister(conn.sock)

    def murder_pending(self) -> None:
        """Close the connections whose time ran out: silently when they sent nothing, with a
        JSON 408 when their request did not arrive in full. A stopping worker closes the ones
        that sent nothing at once: no request is in flight on them. (gunicorn's own pending
        connections, which this replaces, stay empty: no connection is handed back to the poller.)"""
        now = time.monotonic()
        for conn in [conn for conn in self.reading if conn.timeout <= now or not (self.alive or conn.received)]:
            self._stop_reading(conn)
            if conn.received:
                # What fits into the socket's buffer now: a client that does not read gets no more.
                try:
                    conn.sock.send(json_error_bytes(*_error_answer(RequestTimedOut.after(self.request_timeout))))
                except OSError:
                    pass
            self._close(conn)

    def _close(self, conn: ReadingConn) -> None:
        self.nr_conns -= 1
        conn.close()

    # ---- on a thread: one whole request ----

    def handle(self, conn):
        if conn.parser is None:  # a new connection: gunicorn then keeps this parser for it
            conn.parser = TimedRequestParser(self.cfg, conn.sock, conn.client, self.request_timeout)
        if conn.received:  # what the poller read, for the parser
            conn.parser.unreader.unread(conn.received)
            conn.received = b""
        conn.parser.unreader.restart()
        return super().handle(conn)

    def handle_error(self, req, client, addr, exc) -> None:
        status, reason, message = _error_answer(exc)
        if status >= 500:
            self.log.exception("Error handling request")
        else:
            self.log.warning("Invalid request from %s: %s", (addr or ("",))[0], message)
        try:
            client.settimeout(5)  # a client that does not read its answer does not keep the thread
            client.sendall(json_error_bytes(status, reason, message))
        except OSError:
            self.log.debug("Failed to send the error answer")


def _error_answer(exc: Exception) -> tuple[int, str, str]:
    """(status, reason, message) for an error gunicorn meets while reading a request."""
    if isinstance(exc, LimitRequestLine):
        return 414, "URI Too Long", SERVER_MESSAGES[414]
    if isinstance(exc, LimitRequestHeaders):
        return 431, "Request Header Fields Too Large", SERVER_MESSAGES[431]
    if isinstance(exc, RequestTimedOut):
        return 408, "Request Timeout", exc.description
    if isinstance(exc, UnsupportedTransferCoding):
        return 501, "Not Implemented", "This Transfer-Encoding is not supported: send chunked or a Content-Length"
    if isinstance(exc, ExpectationFailed):
        return 417, "Expectation Failed", "Only 'Expect: 100-continue' is understood"
    if isinstance(exc, ParseException):
        return 400, "Bad Request", f"The request is not valid HTTP/1.1 ({type(exc).__name__}: {str(exc)[:100]})"
    return 500, "Internal Server Error", "Something went wrong on the server"


def json_error_bytes(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP response carrying {"error": message}, that closes the connection."""
    body = json.dumps({"error": message}).encode()
    headers = {"Connection": "close", "Content-Type": "application/json", "Content-Length": str(len(body)),
               **SECURITY_HEADERS}
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return (head + "\r\n").encode("latin-1") + body
