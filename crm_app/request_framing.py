"""Whether the bytes a connection has sent so far hold a whole HTTP/1.1 request.

run.py's server (crm_app/production_server.py) reads what clients send in its poller and hands a
connection to a thread only once its request is all there, so that a client that sends half a
request, or sends it slowly, holds no thread. "All there" is judged loosely: whenever parsing can
go on without waiting, also for a request the parser or the app will refuse (a body over the
limit, a head this buffer does not hold), which is then answered as soon as it can be.
"""
from __future__ import annotations

import re

HEAD_END = b"\r\n\r\n"
CHUNKED_END = b"0\r\n\r\n"
_LENGTH = re.compile(rb"^content-length:[ \t]*([0-9]{1,19})[ \t]*$", re.I | re.M)
_CHUNKED = re.compile(rb"^transfer-encoding:[^\r\n]*chunked", re.I | re.M)
_EXPECT_CONTINUE = re.compile(rb"^expect:[ \t]*100-continue", re.I | re.M)


def request_is_complete(data: bytes, head_limit: int, body_limit: int) -> bool:
    """True when `data` starts with a whole request head and its whole body (or enough of either
    for the parser or the app to refuse it without reading more)."""
    end = data.find(HEAD_END)
    if end < 0:
        return len(data) > head_limit  # the parser takes it from here (and refuses it when over its limits)
    head, body = data[:end], data[end + len(HEAD_END):]
    if _EXPECT_CONTINUE.search(head):
        return True  # the client sends its body once told to go on, which the thread does
    if _CHUNKED.search(head):
        return body.startswith(CHUNKED_END) or b"\r\n" + CHUNKED_END in body or len(body) > body_limit
    lengths = _LENGTH.findall(head)
    if not lengths:
        return True  # no body (or a malformed length, which the parser refuses)
    length = int(lengths[0])
    return length > body_limit or len(body) >= length
