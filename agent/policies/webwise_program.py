"""WebWISE programs: read with the `ast` module, never executed.

A program is a sequence of calls of the API, one expression statement each, with literal arguments:

    enter_text(10, "SEA")
    click("Search flights")
    done()

Anything else (an assignment, a loop, an attribute, a name that is not in the API, an argument
that is not a literal string or integer, `exec`, `__import__`, a lambda...) makes the whole program
a reply problem; nothing of it runs. Each accepted call becomes one action of the action grammar
(agent/env/actions.py) and so one environment step.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..env.actions import SCROLL_DIRECTIONS, Action
from .reply import fenced_code

# name -> (parameter names, how many are required)
API: dict[str, tuple[tuple[str, ...], int]] = {
    "click": (("id_or_text",), 1),
    "enter_text": (("id", "text"), 2),
    "scroll": (("direction",), 1),
    "say": (("text",), 1),  # to the customer on the line (the hard protocol)
    "transfer": (("summary",), 1),  # the call to a supervisor (the hard protocol): it ends the episode
    "done": (("answer",), 0),
}
ENDING = ("done", "transfer")  # calls after which nothing of the episode is left
_STATEMENTS = {ast.Assign: "an assignment", ast.AugAssign: "an assignment", ast.AnnAssign: "an assignment",
               ast.For: "a for loop", ast.While: "a while loop", ast.If: "an if statement",
               ast.Import: "an import", ast.ImportFrom: "an import", ast.FunctionDef: "a function definition",
               ast.ClassDef: "a class definition", ast.With: "a with statement", ast.Try: "a try statement",
               ast.Return: "a return", ast.Delete: "a del statement", ast.Global: "a global statement"}


class ProgramError(ValueError):
    """Why a reply is not an acceptable program; shown to the model and kept in the trajectory."""


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[str | int, ...]

    def __str__(self) -> str:
        return f"{self.name}({', '.join(_literal(arg) for arg in self.args)})"

    def action(self) -> str:
        """The call as one action of the action grammar (written as Action writes every action)."""
        if self.name == "click":
            return str(Action("click", self.args[0]))
        if self.name == "enter_text":
            return str(Action("type", self.args[0], str(self.args[1])))
        if self.name == "scroll":
            return str(Action("scroll", value=str(self.args[0])))
        if self.name in ("say", "transfer"):
            return str(Action(self.name, value=str(self.args[0])))
        return str(Action("stop", value=str(self.args[0]) if self.args else "done"))


def parse_program(reply: str) -> list[Call]:
    """The calls of the program in a reply (a ```-fenced block, or the whole reply)."""
    code = re.sub(r"^\s*PROGRAM\s*:\s*$", "", fenced_code(reply), count=1, flags=re.IGNORECASE | re.MULTILINE)
    try:
        tree = ast.parse(code.strip("\n"), mode="exec")
    except SyntaxError as error:
        raise ProgramError(f"line {error.lineno}: this is not a program of API calls ({error.msg})") from None
    calls = [_call(statement) for statement in tree.body]
    if not calls:
        raise ProgramError("the reply holds no program: write calls of " + ", ".join(API))
    ending = next((call.name for call in calls[:-1] if call.name in ENDING), None)
    if ending:
        raise ProgramError(f"{ending}() must be the last call of a program")
    return calls


def _call(statement: ast.stmt) -> Call:
    where = f"line {statement.lineno}"
    if not isinstance(statement, ast.Expr):
        raise ProgramError(f"{where}: {_STATEMENTS.get(type(statement), 'this statement')} is not allowed; "
                           f"write one API call per line")
    node = statement.value
    if not isinstance(node, ast.Call):
        raise ProgramError(f"{where}: {_expression(node)} is not allowed; write one API call per line")
    if not isinstance(node.func, ast.Name) or node.func.id not in API:
        raise ProgramError(f"{where}: {ast.unparse(node.func)} is not an API function; use only "
                           + ", ".join(API))
    name = node.func.id
    parameters, required = API[name]
    if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
        raise ProgramError(f"{where}: pass the arguments of {name} by position, as literals")
    if not required <= len(node.args) <= len(parameters):
        raise ProgramError(f"{where}: {name} takes {', '.join(parameters) or 'no arguments'}; "
                           f"got {len(node.args)} argument(s)")
    args = tuple(_literal_argument(arg, where) for arg in node.args)
    if name == "scroll" and args[0] not in SCROLL_DIRECTIONS:
        raise ProgramError(f"{where}: scroll takes 'down' or 'up', not {args[0]!r}")
    return Call(name, args)


def _literal_argument(node: ast.expr, where: str) -> str | int:
    if isinstance(node, ast.Constant) and type(node.value) in (str, int):
        return node.value
    raise ProgramError(f"{where}: arguments must be literal strings or integers, not {ast.unparse(node)}")


def _expression(node: ast.expr) -> str:
    if isinstance(node, ast.Lambda):
        return "a lambda"
    if isinstance(node, ast.Constant):
        return f"the bare value {ast.unparse(node)}"
    return f"the expression {ast.unparse(node)[:60]}"


def _literal(value: str | int) -> str:
    return repr(value) if isinstance(value, int) else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
