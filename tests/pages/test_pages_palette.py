"""The colours the stylesheets set keep text readable (WCAG's 4.5:1) in the light and the dark
theme: page text, labels, links, buttons, messages, banners, and every tile's number."""

import re
from pathlib import Path

import pytest

from webapp.pages import app_shell

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
DARK = "@media (prefers-color-scheme: dark)"
#: (text, background) custom properties that the stylesheets put together.
PAIRS = [
    ("ink", "page"), ("ink", "panel"), ("muted", "page"), ("muted", "panel"),
    ("accent", "page"), ("accent", "panel"), ("accent-ink", "accent"), ("alert-ink", "alert"),
]
#: (text, translucent veil) of the overlays, seen over the board's frame and its empty cells.
VEILS = [("ink", "veil"), ("won-ink", "won-veil")]


def root_properties(css: str, theme: str) -> dict[str, str]:
    """Custom properties set on :root, in the light theme or with the dark theme's overrides."""
    dark_at = css.find(DARK)
    light, dark = (css[:dark_at], css[dark_at:]) if dark_at >= 0 else (css, "")
    found = {}
    for part in (light, dark) if theme == "dark" else (light,):
        for block in re.findall(r":root\s*{([^}]*)}", part):
            found.update(re.findall(r"--([\w-]+):\s*([^;]+);", block))
    return found


def palette(theme: str) -> dict[str, str]:
    found = {}
    for name in ("base.css", "tiles.css", "game.css"):
        found.update(root_properties((CSS / name).read_text(), theme))
    return found


def rgba(colour: str) -> tuple[float, float, float, float]:
    """#rgb, #rrggbb or rgb(r g b / a) as 0-255 channels and an alpha."""
    if colour.startswith("#"):
        digits = colour[1:] if len(colour) == 7 else "".join(c * 2 for c in colour[1:])
        return (*(int(digits[i:i + 2], 16) for i in (0, 2, 4)), 1.0)
    r, g, b, a = re.fullmatch(r"rgb\((\d+) (\d+) (\d+) / ([\d.]+)\)", colour).groups()
    return int(r), int(g), int(b), float(a)


def over(top: str, bottom: str) -> tuple[float, float, float]:
    *rgb, alpha = rgba(top)
    return tuple(alpha * c + (1 - alpha) * b for c, b in zip(rgb, rgba(bottom)[:3]))


def luminance(rgb) -> float:
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
              for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("text, background", PAIRS)
def test_text_on_its_background(theme, text, background):
    colours = palette(theme)
    pair = (over(colours[text], "#000000"), over(colours[background], "#000000"))
    assert contrast(*pair) >= 4.5, (theme, text, background, round(contrast(*pair), 2))


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("text, veil", VEILS)
def test_overlay_text_on_the_board(theme, text, veil):
    colours = palette(theme)
    for beneath in ("board-frame", "board-empty"):
        seen = over(colours[veil], colours[beneath])
        assert contrast(over(colours[text], "#000000"), seen) >= 4.5, (theme, text, beneath)


def tile_colours(theme: str) -> dict[str, tuple[str, str]]:
    """Each tile value's (number, background) colours in the theme: the light rules, then the
    dark theme's own for the tiles it changes."""
    css = (CSS / "tiles.css").read_text()
    light = css[css.index(".tile {"):css.rindex(DARK)]  # the tile rules outside any theme
    default_text = re.search(r"\.tile { background: #\w+; color: (#\w+); }", light).group(1)
    dark_text_values = re.search(r"\.tile:is\(([^)]*)\) { color: (#\w+); }", light)
    dark_values = set(re.findall(r'data-value="(\d+)"', dark_text_values.group(1)))
    colours = {value: (dark_text_values.group(2) if value in dark_values else default_text,
                       background) for value, background in re.findall(
                           r'\.tile\[data-value="(\d+)"\] { background: (#\w+)', light)}
    if theme == "dark":
        themed = css[css.rindex(DARK):]
        colours |= {value: (text, background) for value, background, text in re.findall(
            r'\.tile\[data-value="(\d+)"\] { background: (#\w+); color: (#\w+); }', themed)}
    return colours


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_tile_number_on_its_tile(theme):
    colours = tile_colours(theme)
    assert list(map(int, colours)) == [2 ** k for k in range(1, 18)]
    for value, (text, background) in colours.items():
        ratio = contrast(over(text, "#000000"), over(background, "#000000"))
        assert ratio >= 4.5, (theme, value, text, background, round(ratio, 2))


def test_the_dark_theme_darkens_every_pale_tile_and_keeps_it_apart_from_empty_cells():
    """The dark board's tiles that were pale (a dark number in the light theme) each take a
    dark colour of their own, lighter than an empty cell so it still reads as a tile."""
    empty = palette("dark")["board-empty"]
    light, dark = tile_colours("light"), tile_colours("dark")
    pale = [value for value, (text, background) in light.items()
            if luminance(over(text, "#000000")) < luminance(over(background, "#000000"))]
    changed = [value for value in dark if dark[value] != light[value]]
    assert changed == pale == ["2", "4", "8", "16", "32", "128", "256", "512", "1024", "2048",
                               "4096"]
    for value in changed:
        text, background = dark[value]
        assert luminance(over(background, "#000000")) < luminance(over(text, "#000000"))
        assert contrast(over(background, "#000000"), over(empty, "#000000")) >= 1.4


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_installed_apps_colours_are_the_pages(theme):
    assert palette(theme)["page"] == app_shell.THEME_COLOURS[theme]
