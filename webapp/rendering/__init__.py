"""How the app's templates are compiled and rendered: Flask's Jinja environment, made to do less
work per answer (`jinja`, which says why)."""
