"""Running a command-line entry point that must refuse its arguments."""
from __future__ import annotations

import pytest


def refusal(command, argv: list[str], capsys) -> tuple[int, str]:
    """(exit code, what it wrote to stderr) of `command(argv)`, which must stop with SystemExit."""
    with pytest.raises(SystemExit) as stopped:
        command(argv)
    return stopped.value.code, capsys.readouterr().err
