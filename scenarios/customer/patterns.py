"""The customer's own regular expressions, each compiled once.

The vocabulary (vocabulary.py) holds some 560 patterns, more than the re module keeps compiled (512
in its cache): read one after the other on every line, each was compiled again on every use, which
took a third of a reply's time (measured). Only the customer's patterns, a set fixed by its code,
go through here; the cache never holds a text that a rep wrote.
"""
from __future__ import annotations

import functools
import re

compiled = functools.cache(re.compile)  # (pattern, flags=0) -> re.Pattern, as re.compile
