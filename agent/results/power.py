"""How many paired scenarios a comparison needs: the sample size of McNemar's test (Connor 1987,
Biometrics 43:207) for a given success rate, the difference to detect, power and level.

Only the pairs whose success differs inform the test; their share is `discordance`. Without a
pilot it is taken as if the two methods failed independently, p_a (1 - p_b) + p_b (1 - p_a), which
is the most a pair of methods of those rates usually disagree (methods that fail on the same hard
scenarios disagree less and need fewer); a pilot run gives the measured share instead."""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

POWER, LEVEL = 0.80, 0.05


@dataclass(frozen=True)
class Plan:
    rate: float  # success rate of A
    difference: float  # the difference B - A to detect
    discordance: float  # the share of pairs whose success differs
    pairs: int  # paired scenarios needed (one task's test)
    power: float = POWER
    level: float = LEVEL


def independent_discordance(rate: float, difference: float) -> float:
    other = rate + difference
    return rate * (1 - other) + other * (1 - rate)


def plan(rate: float, difference: float, discordance: float | None = None, power: float = POWER,
         level: float = LEVEL) -> Plan:
    """The paired scenarios needed to find `difference` with `power` at two-sided `level`. ValueError
    when the numbers cannot describe two success rates."""
    if not 0 <= rate <= 1 or not 0 < abs(difference) or not 0 <= rate + difference <= 1:
        raise ValueError("--rate and --rate + --difference must both be success rates from 0 to 1, "
                         "and --difference not 0")
    psi = independent_discordance(rate, difference) if discordance is None else discordance
    if not abs(difference) < psi <= 1:
        raise ValueError(f"a discordance of {psi:.3f} cannot hold a difference of {difference:.3f}: "
                         "the pairs that differ must outnumber the difference")
    normal = NormalDist()
    z_level, z_power = normal.inv_cdf(1 - level / 2), normal.inv_cdf(power)
    root = z_level * math.sqrt(psi) + z_power * math.sqrt(psi - difference ** 2)
    return Plan(rate, difference, psi, math.ceil(root ** 2 / difference ** 2), power, level)


def describe(found: Plan, tasks: int = 1) -> str:
    lines = [f"To find a success difference of {found.difference:+.3f} from a rate of {found.rate:.3f} with "
             f"{found.power:.0%} power at the {found.level:.0%} level (two-sided McNemar test), with "
             f"{found.discordance:.1%} of pairs disagreeing:",
             f"  {found.pairs} paired seeds per task, for a test on one task;"]
    if tasks > 1:
        lines.append(f"  {math.ceil(found.pairs / tasks)} paired seeds per task, for the test over all {tasks} "
                     "tasks together (when the tasks' rates are alike).")
    return "\n".join(lines)
