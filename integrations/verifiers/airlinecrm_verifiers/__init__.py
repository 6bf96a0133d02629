"""AirlineCRM's OpenEnv environment as a verifiers taskset (`vf-eval airlinecrm-verifiers`): verifiers
finds the taskset, its harness and its env through `__all__`."""
from .taskset import AirlineCrmEnv, AirlineCrmHarness, AirlineCrmTaskset

__all__ = ["AirlineCrmTaskset", "AirlineCrmHarness", "AirlineCrmEnv"]
