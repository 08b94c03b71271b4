# Two entry points: `make run` (play on the embedded default store) and `make test` (every test);
# `make test-quick` is the tier without a browser, a redis-server or the slowest tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000

.PHONY: run test test-quick setup setup-test system-deps

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

setup: $(BIN)/activate
	$(BIN)/pip install --quiet -e .

setup-test: $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'

# Debian's Chromium drives the browser tests; redis-server backs the Redis session tests (and
# their replicas, Sentinels and cluster); nginx runs the shipped front door (deploy/nginx);
# openssl makes the certificates of the HTTPS tests. Debian's nginx package does not start a
# server where no init system runs; where one does, `systemctl disable --now nginx` stops it.
system-deps:
	@command -v chromium >/dev/null && command -v redis-server >/dev/null && command -v openssl >/dev/null \
	  && { command -v nginx || test -x /usr/sbin/nginx; } >/dev/null || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium redis-server nginx openssl fonts-noto-cjk; }

# Served as in production (gunicorn with gunicorn.conf.py, whose hooks start the review thread in
# the worker), with development settings: the secret key and the games in instance/, plain-HTTP
# cookies, one worker; PORT and the app's environment variables apply.
run: setup
	$(BIN)/gunicorn -c gunicorn.conf.py --bind 127.0.0.1:$(PORT) --workers 1 --threads 4 \
	  --access-logfile - 'webapp:create_app()'

test: system-deps setup-test
	$(BIN)/python -m pytest -n 2

# Under two minutes on two cores; the markers are pyproject.toml's, and tests/conftest.py refuses a
# test that reaches a browser or a redis-server without its marker.
QUICK = not browser and not redis and not slow
test-quick: setup-test
	$(BIN)/python -m pytest -n 2 -m "$(QUICK)" --hypothesis-profile=quick

.PHONY: backup
# A copy of the live game database (SQLITE_PATH, else instance/games.sqlite3) made while the game
# runs, then checked with PRAGMA integrity_check; BACKUP=path names the copy.
BACKUP ?= backups/games-$(shell date -u +%Y%m%dT%H%M%SZ).sqlite3
backup:
	SOLVER_WARM_UP=0 $(BIN)/flask --app webapp backup-database $(BACKUP)

.PHONY: translations bench lighthouse icons train
# Re-extract interface strings into the catalogs and compile them (translate the .po files in between).
translations: setup-test
	$(BIN)/pybabel extract -w 100 -F babel.cfg -k lazy_gettext -k markup_ngettext:1,2 --no-location --omit-header -o translations/messages.pot .
	$(BIN)/pybabel update -w 100 -i translations/messages.pot -d translations
	$(BIN)/pybabel compile -d translations

# The quick benchmarks; the solver's strength run and the load run are long, see bench/README.md.
bench: setup-test
	$(BIN)/python -m bench.engine_speed
	$(BIN)/python -m bench.page_weight

# A million more games of training for the solver's network, from the committed weights file (or
# a local checkpoint that got further), on every core at the lowest priority; see docs/training.md.
TRAIN_GAMES ?= 1000000
train: setup-test
	nice -n 19 $(BIN)/python -m training.trainer --games $(TRAIN_GAMES)

# Lighthouse (pinned in bench/lighthouse/package.json) on every page, phone and desktop; slow.
lighthouse: setup-test
	cd bench/lighthouse && npm ci --no-audit --no-fund --silent
	$(BIN)/python -m bench.lighthouse

# The app's PNG icons, drawn from their SVG sources by Debian's Chromium.
ICON_SHOT = chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
	--default-background-color=00000000
icons:
	cd static/icons && \
	$(ICON_SHOT) --window-size=192,192 --screenshot=$$PWD/icon-192.png file://$$PWD/icon.svg && \
	$(ICON_SHOT) --window-size=512,512 --screenshot=$$PWD/icon-512.png file://$$PWD/icon.svg && \
	$(ICON_SHOT) --window-size=512,512 --screenshot=$$PWD/icon-maskable-512.png \
	  file://$$PWD/icon-maskable.svg
