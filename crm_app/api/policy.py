from __future__ import annotations

from ..services.policy import policy_text
from .blueprint import api


@api.get("/policy")
def policy():
    return {"policy": policy_text()}
