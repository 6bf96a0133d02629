"""Reading WebWISE's filtered page (agent/policies/webwise_page.py) back into its elements: how the
tests and the scripted model see what the policy showed the model."""
from __future__ import annotations

import json
import re

from agent.policies.webwise_page import ATTRIBUTES, FLAGS

_STRING = r'"(?:[^"\\]|\\.)*"'
_LINE = re.compile(rf'^\[(\d+)\] (\w+) ({_STRING})((?: (?:{"|".join(ATTRIBUTES)})={_STRING})*)((?: (?:{"|".join(FLAGS)}))*)$')
_ATTRIBUTE = re.compile(rf"(\w+)=({_STRING})")


def parse_page_line(line: str) -> dict | None:
    """A filtered-page line back to {id, tag, text, value, ..., flags}; None for any other line."""
    match = _LINE.match(line)
    if not match:
        return None
    ident, tag, text, attributes, flags = match.groups()
    item = {"id": int(ident), "tag": tag, "text": json.loads(text), "flags": flags.split()}
    item.update({key: json.loads(value) for key, value in _ATTRIBUTE.findall(attributes)})
    return item


def parse_page(text: str) -> list[dict]:
    return [item for item in map(parse_page_line, text.splitlines()) if item]
