"""The accessibility tree mode: Chromium's own tree (over the DevTools protocol), one node per
line, indented by depth, with the element list's ids on the nodes of its elements:

    RootWebArea "AirlineCRM"
      navigation "Main"
        [3] link "Home"
      [5] heading "Find flights" level=1
      [9] combobox "From" value="JFK" expanded=false

Nodes the tree itself ignores, and unnamed generic containers, are left out (their children move
up); a text node that only repeats its parent's name is folded into the parent.
"""
from __future__ import annotations

from ..observation import quote_value, call_page

SKIPPED_ROLES = {"none", "generic", "InlineTextBox", "LineBreak", "presentation", "ignored"}
VALUED_STATES = ("checked", "expanded", "level")  # shown as name=value
FLAG_STATES = ("selected", "disabled", "focused", "required", "modal")  # shown by name when true
ELEMENT_NODE, TEXT_NODE = 1, 3


def accessibility_tree(snapshot) -> str:
    paths = call_page(snapshot.page, "observedPaths")
    nodes = snapshot.devtools.send("Accessibility.getFullAXTree")["nodes"]
    document = snapshot.devtools.send("DOM.getDocument", {"depth": -1})["root"]
    return flatten(nodes, agent_ids(document, paths))


def agent_ids(document: dict, paths: list) -> dict[int, int]:
    """backendNodeId -> element-list id, found by following each element's path (element
    indices from the document down) in the protocol's DOM tree; a text line by its first text node.
    Two round trips in all, whatever the number of elements."""
    found = {}
    for ident, path, text_index in paths:
        node = document
        for index in path:
            children = [c for c in node.get("children", []) if c["nodeType"] == ELEMENT_NODE]
            node = children[index] if index < len(children) else None
            if node is None:
                break
        if node is not None and text_index >= 0:
            texts = [c for c in node.get("children", []) if c["nodeType"] == TEXT_NODE and c["nodeValue"].strip()]
            node = texts[text_index] if text_index < len(texts) else None
        if node is not None:
            found[node["backendNodeId"]] = ident
    return found


def flatten(nodes: list[dict], ids: dict[int, int]) -> str:
    by_id = {node["nodeId"]: node for node in nodes}
    lines: list[str] = []

    def visit(node: dict, depth: int, parent_text: str) -> None:
        role, name = _value(node.get("role")), _value(node.get("name"))
        ident = ids.get(node.get("backendDOMNodeId"))
        children = [by_id[c] for c in node.get("childIds", []) if c in by_id]
        named = not node.get("ignored") and role not in SKIPPED_ROLES and bool(name)
        folded = _repeating_text(children, name, ids) if ident is None and named else None
        if folded is not None:
            ident = ids[folded["backendDOMNodeId"]]
            children = [c for c in children if c is not folded]
        shown = not node.get("ignored") and (
            ident is not None or (role not in SKIPPED_ROLES and not (role == "StaticText" and name in parent_text)))
        if shown:
            lines.append("  " * depth + _line(node, role, name, ident))
        said = f"{name} {_value(node.get('value'))}" if shown else parent_text
        for child in children:
            visit(child, depth + shown, said)

    if nodes:
        visit(nodes[0], 0, "")
    return "\n".join(lines)


def _repeating_text(children: list[dict], name: str, ids: dict[int, int]) -> dict | None:
    """The child text node with an element id that only repeats its parent's name."""
    for child in children:
        if (_value(child.get("role")) == "StaticText" and _value(child.get("name")) == name
                and child.get("backendDOMNodeId") in ids):
            return child
    return None


def _line(node: dict, role: str, name: str, ident: int | None) -> str:
    parts = [f"[{ident}]"] if ident is not None else []
    parts.append(role)
    if name:
        parts.append(f'"{quote_value(name)}"')
    value = _value(node.get("value"))
    if value not in ("", None):
        parts.append(f'value="{quote_value(value)}"')
    parts += _states(node)
    return " ".join(parts)


def _states(node: dict) -> list[str]:
    states = {prop["name"]: _value(prop.get("value")) for prop in node.get("properties", [])}
    shown = [f"{name}={str(states[name]).lower()}" for name in VALUED_STATES if name in states]
    shown += [name for name in FLAG_STATES if states.get(name) in (True, "true")]
    if states.get("invalid") not in (None, "", False, "false"):
        shown.append("invalid")
    return shown


def _value(field: dict | None):
    return field.get("value", "") if isinstance(field, dict) else ""
