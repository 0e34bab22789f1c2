# The two commands (see README.md):
#   make run    serve the demo site on http://127.0.0.1:8000 (SQLite, nothing else to start)
#   make test   run every test: pytest (unit, real daphne, Chromium), the frontend's node tests
#               and the test wallet's sync, Playwright Test and plain-script examples
#
# Both create .venv with Python >= 3.12 and install what they need; the second
# time they only check that nothing changed.

SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# The wallet's frames are up to 4 MB (DESIGN.md); uvicorn's default is 16 MiB, daphne's 1 MiB.
WS_MAX := 4194304

VENDOR := frontend/vendor/openai.js
# Playwright drives Debian's Chromium (scripts/ensure-debian-packages): no install ever downloads a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run test cluster frontend-deps debian-packages check clean vendor-if-npm

# `make run` is a development server on loopback, so DEBUG is on unless you say
# DJANGO_DEBUG=0: the BYOA direct link then builds ws://localhost links (a wallet
# accepts those only with its developer switch, BYOA_WALLET_DEV_LOCAL=1) and
# ?testwallet=1 offers the labelled stand-in wallets.
run: export DJANGO_DEBUG ?= 1
run: $(VENV)/.installed vendor-if-npm
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_catalog
	@# DEBUG off serves collectstatic's output (minified by esbuild: needs `npm`, see README "Deployment").
	@if ! $(BIN)/python -c 'from byoa.environment import env_flag; raise SystemExit(not env_flag("DJANGO_DEBUG"))'; \
		then $(BIN)/python manage.py collectstatic --noinput --verbosity 0; fi
	$(BIN)/uvicorn --host $(HOST) --port $(PORT) --ws websockets-sansio --ws-max-size $(WS_MAX) \
		--lifespan on sites.config.asgi:application

# The server: uvicorn with websockets' sans-I/O implementation (and uvloop and
# httptools, picked up when installed) spent the least CPU per BYOA call and
# memory per idle wallet of the servers we measured (benchmarks/byoa_calls.py);
# daphne still serves `manage.py runserver` and the test fixtures. Either takes
# sites.config.asgi:application as it is.

# examples/pytest-sync is the test wallet's sync example (pytest-playwright): its own session,
# since pytest-playwright cannot load beside pytest-playwright-asyncio.
# `npm run e2e` is its Playwright Test example (frontend/e2e), on Debian's Chromium and this venv.
# examples/script/bookshop_check.py drives the same wallet from a plain script, no test runner.
test: $(VENV)/.installed-test frontend-deps $(VENDOR) debian-packages
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	$(BIN)/python -m pytest examples/pytest-sync
	$(BIN)/python examples/script/bookshop_check.py
	cd frontend && npm test
	cd frontend && npm run e2e

$(VENV)/bin/python:
	@python=$$(scripts/find-python) && "$$python" -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[dev]'  # [test] and every extra the suite tests
	@touch $@

frontend-deps: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# The published openai SDK, bundled for the bookshop's "use the SDK you already
# have" feature (pages have no bundler). Without npm the page says it is missing.
$(VENDOR): frontend/vendor-src/openai.js frontend/vendor-src/openai.d.ts frontend/node_modules/.package-lock.json
	cd frontend && npm run --silent build:vendor

vendor-if-npm:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(VENDOR); \
	else echo "npm not found: the bookshop's SDK feature stays off (install Node.js 20+ to turn it on)."; fi

debian-packages:
	@scripts/ensure-debian-packages

# The deployment on this machine (README.md, "Deployment"): PostgreSQL, Redis, uvicorn
# processes (PROCESSES=N, default one per core) and nginx on http://127.0.0.1:8080 until Ctrl-C.
cluster: $(VENV)/.installed-test debian-packages
	$(BIN)/python -m deploy.cluster up $(if $(PROCESSES),--processes $(PROCESSES))

check: $(VENV)/.installed
	$(BIN)/python manage.py check

clean:
	rm -rf $(VENV) var frontend/node_modules frontend/vendor test-artifacts
