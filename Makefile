# Two entry points: `make run` (play on the embedded default store) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000

.PHONY: run test setup setup-test system-deps

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

setup: $(BIN)/activate
	$(BIN)/pip install --quiet -e .

setup-test: $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'

# Debian's Chromium drives the browser tests; redis-server backs the Redis session tests.
system-deps:
	@command -v chromium >/dev/null && command -v redis-server >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium redis-server fonts-noto-cjk; }

run: setup
	PORT=$(PORT) $(BIN)/python -m webapp

test: system-deps setup-test
	$(BIN)/python -m pytest -n 2

.PHONY: translations bench
# Re-extract interface strings into the catalogs and compile them (translate the .po files in between).
translations: setup-test
	$(BIN)/pybabel extract -w 100 -F babel.cfg -k lazy_gettext --no-location --omit-header -o translations/messages.pot .
	$(BIN)/pybabel update -w 100 -i translations/messages.pot -d translations
	$(BIN)/pybabel compile -d translations

# The quick benchmarks; the solver's strength run and the load run are long, see README.
bench: setup-test
	$(BIN)/python bench/engine_speed.py
	$(BIN)/python bench/page_weight.py
