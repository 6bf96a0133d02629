"""The expert suite (issue 49): calls of several requests composed from request kinds (kinds/),
by templates (templates.py) through the composer (composer.py); each template is a task."""
from __future__ import annotations

from .templates import SPLITS, TEMPLATES

EXPERT = tuple(template.task() for template in TEMPLATES)
TEMPLATE_BY_NAME = {template.name: template for template in TEMPLATES}
__all__ = ["EXPERT", "SPLITS", "TEMPLATES", "TEMPLATE_BY_NAME"]
