"""The ways a scenario can vary besides its task and seed: the CRM's look (UI variants,
crm_app/ui_variants/) and the caller's manner (customer variants, scenarios/customer/variants/).
Both are asked for, recorded and broken down the same way: `--ui-variant` / `--customer-variant`
take a number, `random` or `all`; the scenario, the run's settings and the trajectory's label
(`oracle-ui3`, `oracle-caller2`) record it; `summarize --by-variant` breaks results down by it.
One Dimension describes each, so that every piece of code handles both at once."""
from __future__ import annotations

import re
from dataclasses import dataclass

from crm_app.services.variant_choice import RANDOM
from crm_app.ui_variants import VARIANTS as UI_VARIANTS
from scenarios.customer.variants import VARIANTS as CUSTOMER_VARIANTS

ALL = "all"


@dataclass(frozen=True)
class Dimension:
    field: str  # the scenario's field, the request's parameter and the result setting: "ui_variant"
    option: str  # the command line's option: "--ui-variant"
    tag: str  # what a label adds: "ui" -> "-ui3", "-ui-random"
    noun: str  # "UI variant"
    names: tuple[str, ...]  # each variant's name by number ("" where variants have none)
    defined_in: str  # where the variants are described, for --help

    @property
    def numbers(self) -> range:
        return range(len(self.names))

    @property
    def pattern(self) -> str:
        """What `suffix` adds, as a regular expression."""
        return rf"-{self.tag}(?:\d+|-{RANDOM})"

    def suffix(self, value: str) -> str:
        """What a label of episodes played in `value` ("3", "random"; "": none) ends with."""
        if not value:
            return ""
        return f"-{self.tag}{value}" if value.isdigit() else f"-{self.tag}-{value}"

    def of(self, scenario: dict | None) -> int:
        """The variant a scenario was played in (0 where it names none: made before, or not asked)."""
        return int((scenario or {}).get(self.field) or 0)

    def names_one(self, scenario: dict | None) -> bool:
        """Whether the scenario was asked for in a variant of this dimension (0 included)."""
        return self.field in (scenario or {})

    def describe(self, number: int) -> str:
        """A variant in words: "ui 3", "caller 2 (vague)"."""
        name = self.names[number] if 0 <= number < len(self.names) else ""
        return f"{self.tag} {number}" + (f" ({name})" if name else "")

    def asked(self, value: str) -> tuple[str, ...]:
        """The variants an option's value asks for: ("",) for none, every one for `all`; ValueError
        saying the choices for anything else."""
        text = value.strip().lower()
        if not text:
            return ("",)
        if text == ALL:
            return tuple(str(number) for number in self.numbers)
        if text == RANDOM or (text.isdigit() and int(text) < len(self.names)):
            return (text if text == RANDOM else str(int(text)),)
        raise ValueError(f"{self.option} takes a number from 0 to {len(self.names) - 1}, {RANDOM} or {ALL}, "
                         f"not {value!r}")


UI = Dimension("ui_variant", "--ui-variant", "ui", "UI variant", ("",) * len(UI_VARIANTS),
               "crm_app/ui_variants/")
CUSTOMER = Dimension("customer_variant", "--customer-variant", "caller", "customer variant",
                     tuple(variant.name for variant in CUSTOMER_VARIANTS), "scenarios/customer/variants/")
DIMENSIONS = (UI, CUSTOMER)  # in the order a label names them: oracle-ui3-caller2
SUFFIXES = re.compile("".join(f"(?:{dimension.pattern})?" for dimension in DIMENSIONS) + "$")


def labelled(label: str, values: dict[str, str]) -> str:
    """`label` with the suffix of each variant asked for (`values` by field; "" or missing: none)."""
    return label + "".join(dimension.suffix(values.get(dimension.field, "")) for dimension in DIMENSIONS)


def base_label(label: str) -> str:
    """A label without the variants' suffixes: `oracle-ui3-caller2` -> `oracle`."""
    return SUFFIXES.sub("", label)
