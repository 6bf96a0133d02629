"""A rep's line as the sentences a person hears: the text out of a JSON wrapper, markdown taken
out (emphasis, headings, quotes, tables), list items and lines apart, each line cut at the end of
every sentence."""
from __future__ import annotations

import json
import re

_WRAPPER_KEYS = ("message", "content", "text", "response", "reply", "answer")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`+|~~)")
_LINE_MARKS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+•·▪‣]\s+|\(?\d{1,2}[.)]\s+|\(?[a-z][.)]\s+(?=[A-Z])|\|)+")
# "(for example, ABC123)", "(it looks like 'sara_doe_496')": examples of a format, not values said
_EXAMPLES = re.compile(r"\s*\((?:for example|for instance|e\.g\.?|eg|i\.e\.?|like|such as|it should (?:be|look)|"
                       r"something like|it looks like)\b[^)]*\)", re.I)
_TABLE_RULE = re.compile(r"^[\s|:-]+$")
_ABBREVIATIONS = ("mr", "mrs", "ms", "dr", "st", "no", "vs", "etc", "e.g", "i.e", "approx", "a.m", "p.m", "jan",
                  "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "min", "hrs", "u.s")
_END = re.compile(r"(?<=[?!])\s+|(?<=[.])\s+(?=[\"'“(\[A-Za-z0-9])|(?<=[.?!][\"'”)])\s+")


def sentences(line: str) -> list[str]:
    """The sentences of `line`, in order, each stripped of markdown; empty ones left out. A list
    item is heard with the sentence that led into it ("Could you confirm the following: ...")."""
    found, lead = [], ""
    for text_line in unwrapped(line).splitlines():
        if _TABLE_RULE.match(text_line) or not text_line.strip():
            continue
        item = bool(_LINE_MARKS.match(text_line))
        plain = _EXAMPLES.sub("", _EMPHASIS.sub("", _LINE_MARKS.sub("", text_line))).replace("|", " ").strip()
        parts = [part for part in _split(plain) if part]
        if item and lead and parts:
            parts[0] = f"{lead} {parts[0]}"
        elif not item:
            lead = parts[-1] if parts and parts[-1].endswith(":") else ""
        found.extend(parts)
    return found


def unwrapped(line: str) -> str:
    """The text of a line an agent wrapped in JSON ({"message": "..."}), else the line."""
    text = line.strip()
    if not text.startswith("{"):
        return line
    try:
        body = json.loads(text)
    except ValueError:
        match = re.search(r'"(?:%s)"\s*:\s*"((?:[^"\\]|\\.)*)' % "|".join(_WRAPPER_KEYS), text)
        return _unescaped(match.group(1)) if match else line
    said = _said_in(body)
    return said if said is not None else line


def _said_in(body) -> str | None:
    """The first text under a wrapper key, looked for in nested objects too."""
    if not isinstance(body, dict):
        return None
    for key in _WRAPPER_KEYS:
        value = body.get(key)
        found = value if isinstance(value, str) else _said_in(value)
        if found is not None:
            return found
    return None


def _unescaped(text: str) -> str:
    try:
        return json.loads(f'"{text}"')
    except ValueError:
        return text.replace("\\n", "\n").replace('\\"', '"')


def _split(text: str) -> list[str]:
    """One line cut into sentences at . ? ! (not after an abbreviation or inside a number)."""
    parts, start = [], 0
    for match in _END.finditer(text):
        before = text[start:match.start()]
        word = re.search(r"([A-Za-z.]+)\.$", before)
        if word and word.group(1).lower().rstrip(".") in _ABBREVIATIONS and not before.endswith(("?", "!")):
            continue
        parts.append(before.strip())
        start = match.end()
    parts.append(text[start:].strip())
    return parts
