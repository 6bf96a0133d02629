"""Image modes: the viewport's screenshot, and the set-of-marks picture drawn over it.

The marks are drawn on the PNG with Pillow, not in the page, so the page (and what it records) is
never touched and no script or style is injected (the CRM's Content-Security-Policy allows none).
"""
from __future__ import annotations

import base64
from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont


MARK_COLORS = {"text": (90, 90, 200)}  # controls in red, text lines in blue
CONTROL_COLOR = (220, 30, 30)
LABEL_SIZE = 12


def screenshot(snapshot) -> bytes:
    return snapshot.screenshot


def capture_viewport(snapshot) -> bytes:
    """PNG of the viewport, straight from the DevTools protocol with fast compression (half the
    time of Playwright's page.screenshot, which also waits for fonts and hides the caret)."""
    answer = snapshot.devtools.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
    return base64.b64decode(answer["data"])


def set_of_marks(snapshot) -> bytes:
    image = Image.open(BytesIO(snapshot.screenshot)).convert("RGB")
    viewport = snapshot.observation.viewport or {"width": image.width}
    draw_marks(image, snapshot.observation.elements, image.width / viewport["width"])
    out = BytesIO()
    image.save(out, "PNG", compress_level=1)  # fast: the size hardly matters, the time does
    return out.getvalue()


def draw_marks(image: Image.Image, elements: list[dict], scale: float = 1.0) -> None:
    """A box around every element that is on screen, its id in a tag at the box's top-left corner."""
    draw = ImageDraw.Draw(image)
    font = _font()
    for element in elements:
        box = element.get("box")
        if not box or box["width"] <= 0 or box["height"] <= 0:
            continue
        left, top = box["x"] * scale, box["y"] * scale
        right, bottom = left + box["width"] * scale, top + box["height"] * scale
        if right < 0 or bottom < 0 or left >= image.width or top >= image.height:
            continue
        color = MARK_COLORS.get(element["kind"], CONTROL_COLOR)
        draw.rectangle([left, top, right - 1, bottom - 1], outline=color, width=2)
        label = str(element["id"])
        text_left, text_top, text_right, text_bottom = draw.textbbox((0, 0), label, font=font)
        width, height = text_right - text_left + 4, text_bottom - text_top + 3
        tag_top = top - height if top - height >= 0 else top  # above the box when there is room
        draw.rectangle([left, tag_top, left + width, tag_top + height], fill=color)
        draw.text((left + 2 - text_left, tag_top + 1 - text_top), label, fill=(255, 255, 255), font=font)


@lru_cache(maxsize=1)
def _font():
    return ImageFont.load_default(size=LABEL_SIZE)
