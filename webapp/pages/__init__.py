"""The long-form pages: rules, strategy and the solver, one template per language, with the
example boards (computed by the engine), the tile ladder, and the solver's measured strength
(``solver_strength.json``, which bench/solver_strength.py writes and the app ships) as a table
and a chart. Beside them ``app_shell``: the installable app's manifest, service worker and
offline page."""
