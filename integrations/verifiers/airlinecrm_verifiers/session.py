"""One OpenEnv session over the server's WebSocket (/ws), in OpenEnv's own wire messages
({"type": "reset" | "step" | "close", "data": ...}), without importing openenv (its server side
needs mcp 1, verifiers pins mcp 2). Each answer is {"observation": ..., "reward": ..., "done": ...}.

    async with OpenEnvSession("http://127.0.0.1:8000") as env:
        first = await env.reset(suite="hard", task="TASK_POLICY_CANCEL", seed=0)
        tools = await env.tools()
        result = await env.call_tool("get_booking", {"code": "ABC123"})
"""
from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import ClientConnection, connect

MESSAGE_TIMEOUT_S = 120.0  # a step under a trainer's full load (docs/openenv.md: p99 8 s at 256 sessions)
MAX_MESSAGE_BYTES = 16 * 1024 * 1024  # the server's own ws_max_size


class OpenEnvError(RuntimeError):
    """The server answered a message with an error frame."""


def ws_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    for plain, secure in (("http://", "ws://"), ("https://", "wss://")):
        if base.startswith(plain):
            base = secure + base[len(plain):]
    return f"{base}/ws"


class OpenEnvSession:
    def __init__(self, base_url: str):
        self.url = ws_url(base_url)
        self._ws: ClientConnection | None = None

    async def __aenter__(self) -> OpenEnvSession:
        self._ws = await connect(self.url, max_size=MAX_MESSAGE_BYTES, open_timeout=MESSAGE_TIMEOUT_S)
        return self

    async def __aexit__(self, *exc) -> None:
        if self._ws is not None:
            try:
                await self._ws.send(json.dumps({"type": "close"}))
            finally:
                await self._ws.close()

    async def _exchange(self, message: dict) -> dict:
        assert self._ws is not None, "enter the session first"
        await self._ws.send(json.dumps(message))
        answer = json.loads(await asyncio.wait_for(self._ws.recv(), MESSAGE_TIMEOUT_S))
        if answer.get("type") == "error":
            raise OpenEnvError(str(answer.get("data", {}).get("message", answer))[:2000])
        return answer.get("data", {})

    async def reset(self, **arguments) -> dict:
        return await self._exchange({"type": "reset", "data": arguments})

    async def step(self, action: dict) -> dict:
        return await self._exchange({"type": "step", "data": action})

    async def tools(self) -> list[dict]:
        """The running episode's tools ({"name", "description", "input_schema"}), stop among them."""
        return (await self.step({"type": "list_tools"}))["observation"]["tools"]

    async def call_tool(self, name: str, arguments: dict) -> dict:
        return await self.step({"type": "call_tool", "tool_name": name, "arguments": arguments})
