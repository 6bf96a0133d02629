"""AirlineCRM's OpenEnv environment as a verifiers taskset (`vf-eval airlinecrm-verifiers`): verifiers
finds the taskset, its task and its harness through `__all__`."""
from .taskset import AirlineCrmHarness, AirlineCrmTaskset

__all__ = ["AirlineCrmTaskset", "AirlineCrmHarness"]
