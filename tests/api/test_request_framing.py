"""When run.py's server hands a connection to a thread: once the bytes read so far hold a whole
request, or enough of one for the parser or the app to refuse it without waiting."""
from __future__ import annotations

import pytest

from crm_app.request_framing import request_is_complete

HEAD_LIMIT, BODY_LIMIT = 1_000, 100
POST = b"POST /api/bookings HTTP/1.1\r\nHost: x\r\n"


@pytest.mark.parametrize("data, whole", [
    (b"", False),
    (b"GET /api/airports?q=JF HT", False),  # half a request line
    (b"GET /api/config HTTP/1.1\r\nHost: x\r\n", False),  # the head has not ended
    (b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n", True),
    (b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\nGET /next", True),  # pipelined: the first is whole
    (b"GET /" + b"a" * 1_001, True),  # a head over the limit: refused as it is
    (POST + b"Content-Length: 10\r\n\r\n{\"a\": ", False),
    (POST + b"content-length: 10\r\n\r\n{\"a\": 123}", True),
    (POST + b"Content-Length: 5000\r\n\r\n{", True),  # over the body limit: the app answers 413 at once
    (POST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", False),
    (POST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", True),
    (POST + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", True),
    (POST + b"Transfer-Encoding: chunked\r\n\r\n" + b"x" * 101, True),  # past the body limit
    (POST + b"Expect: 100-continue\r\nContent-Length: 10\r\n\r\n", True),  # waits to be told to go on
])
def test_a_request_is_handed_on_once_it_is_whole(data, whole):
    assert request_is_complete(data, HEAD_LIMIT, BODY_LIMIT) is whole
