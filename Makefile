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
# Every pytest worker and every server process a test starts imports the project: with
# PYTHONDONTWRITEBYTECODE set (some shells and CI images set it) each compiles it anew and
# pytest rewrites every test module again, seconds of CPU per process. Python treats empty as unset.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: run test test-main test-examples test-frontend test-lts test-quick matrix cluster frontend-deps debian-packages lock lock-upgrade check check-lock check-django check-lint check-format check-types \
	check-js clean vendor-if-npm

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

# The main session runs on one pytest-xdist worker more than the cores (at most 4 workers: each
# starts its own servers and Chromium), each worker with its own daphne processes, databases,
# ports and temporary directories (testwallet/plugin.py). Under `--dist loadgroup` the suite's
# scheduler (tests/scheduling.py) hands out a whole module at a time, or a whole xdist_group (the
# multi-process fault and cluster tests, the five ASGI servers, the wheel, the tests that play
# speech into a microphone), the groups and the costliest modules first: each module's servers
# and browsers start on one worker, not on each. The extra worker fills the time the others wait
# on a real clock (a 15 s recording, a PostgreSQL restart, a rate limit's minute). What each
# choice measured is on the docs' performance page ("The test suite on two cores").
# PYTEST_WORKERS=0 runs it in one process, for pdb, -s or -p no:xdist.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST_XDIST = $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --maxprocesses 4 --dist loadgroup)

# `make check` first, its steps at once: a lint or type error fails the run before the suites
# start. Then the suites run at once (`make -j`; each one's output is printed whole when it
# ends): the main session's workers spend much of their time waiting on servers and browsers,
# and the others fill that time rather than queue behind it. The main session prints its ten
# slowest tests.
#   test-main      the main session (pytest, every test under tests/)
#   test-examples  examples/pytest-sync, the test wallet's sync example (pytest-playwright: its
#                  own session, since it cannot load beside pytest-playwright-asyncio), and
#                  examples/script/bookshop_check.py, the same wallet from a plain script
#   test-frontend  the frontend's node tests (`make check` ran its tsc), and `npm run e2e`, the
#                  Playwright Test example (frontend/e2e) on Debian's Chromium and this venv
#   test-lts       the framework's tests on Django 5.2 LTS and Channels 4.2 (`make matrix` runs
#                  every supported Python, Django and Channels)
test:
	@# The installs and `make check` in one run of make, at once: each step starts when what it
	@# needs is there (mypy, the longest, as soon as the venv is, while npm still installs).
	@# The docs site is built by tests/test_docs.py exactly as `make docs` builds it (-W -n): once.
	@$(MAKE) --no-print-directory -j6 --output-sync=target check $(VENDOR) debian-packages
	@$(MAKE) --no-print-directory -j4 --output-sync=target test-main test-examples test-frontend test-lts

test-main: $(VENV)/.installed-test debian-packages
	$(BIN)/python -m pytest $(PYTEST_XDIST) --durations=10 $(PYTEST_ARGS)

# The loop of a developer at work, not part of `make test`: the in-process tests only (no browser,
# no live server, no PostgreSQL or Redis, no wheel), on test-main's workers, in about a minute.
# `make test` before a push runs the rest.
test-quick: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_XDIST) -q -m "not browser and not live and not slow" $(PYTEST_ARGS)

test-examples: $(VENV)/.installed-test debian-packages
	$(BIN)/python -m pytest examples/pytest-sync
	$(BIN)/python examples/script/bookshop_check.py

# The framework's apps on Django 5.2 LTS (the oldest Django upstream supports, where most sites
# are) and Channels 4.2, in a venv of their own (scripts/matrix.py: the row 3.12-5.2-4.2): the
# in-process tests of byoa, mcp_server and visitor_ai, and the packaging test, whose new
# startproject site then runs on Django 5.2 with a BYOA round trip. What drives real servers and
# browsers, and testwallet's tests, run once in test-main (on every row with `make matrix`):
# the whole set beside the main session made `make test` minutes longer on 2 cores. In one process,
# not on xdist workers: each worker would collect and set up the whole selection again, and the
# row ends long before the main session however it runs (the performance page has both figures).
# The row's set is chosen in scripts/matrix.py (its Django and Channels, the lock's versions of
# the rest), so the lean-install test installs the wheel on Django 5.2 here.
PYTEST_LTS_ARGS ?= -p no:xdist -q -m "(not browser and not live) or slow" \
	tests/byoa tests/mcp_server tests/visitor_ai tests/test_packaging.py
test-lts: $(VENV)/.installed-test debian-packages
	$(BIN)/python scripts/matrix.py 3.12-5.2-4.2 -- $(PYTEST_LTS_ARGS)

# Every supported Python, Django and Channels (scripts/matrix.py says which rows, and why make),
# with test-lts's selection: MATRIX_ARGS= runs the browser tests on each row too.
MATRIX_ROWS ?=
MATRIX_ARGS ?= -m "not browser or slow"
matrix: $(VENV)/.installed-test debian-packages
	$(BIN)/python scripts/matrix.py $(MATRIX_ROWS) -- $(PYTEST_XDIST) -q $(MATRIX_ARGS) $(PYTEST_ARGS)

test-frontend: $(VENV)/.installed-test frontend-deps $(VENDOR) debian-packages
	cd frontend && npm run --silent test:unit
	cd frontend && npm run e2e

# The venv's packages are the lock's (uv.lock, uv's project lock: every extra, each version and
# its hashes): a clone installs next month what it installs today, whatever PyPI has released
# since. `uv sync --locked` installs them, and refuses a lock that no longer matches
# pyproject.toml rather than resolving anew; the lock is uv's own format, read by uv's own
# installer, so no exported requirements file can drift from it. The sync is exact for `make
# test` (a package the lock dropped leaves the venv) and keeps what it does not manage, the
# venv's pip and uv. --python names the venv's own interpreter: without it uv would remake the
# venv with the Python that .python-version names. uv reads its own settings, not pip's.
# pyproject.toml keeps ranges: a site that installs the package resolves its own versions.
UV_VERSION := 0.13.9
UV := $(BIN)/uv
UV_SYNC := $(UV) sync --locked --quiet --python $(BIN)/python

$(VENV)/bin/python:
	@python=$$(scripts/find-python) && "$$python" -m venv $(VENV)

# uv itself, at the version this Makefile names (the lock's format is uv's: one version reads
# and checks it everywhere), into the venv with its pip. A stamp per version: a venv made with
# another uv gets this one.
$(VENV)/.uv-$(UV_VERSION): $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"
	@rm -f $(VENV)/.uv-* && touch $@

# uv.lock matches pyproject.toml, or every install and `make check` stop here and say so.
# Order-only (after |) for the installs: it runs once per make, and never makes them reinstall.
LOCK_STALE := uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock
check-lock: $(VENV)/.uv-$(UV_VERSION)
	@$(UV) lock --check --quiet || { echo "$(LOCK_STALE)" >&2; exit 1; }

# `make lock` after editing pyproject.toml's requirements: the lock follows the edit and keeps
# every other version. `make lock-upgrade`: every package to the newest release pyproject.toml
# allows (review the diff of uv.lock, then run `make test`).
lock: $(VENV)/.uv-$(UV_VERSION)
	$(UV) lock
lock-upgrade: $(VENV)/.uv-$(UV_VERSION)
	$(UV) lock --upgrade

# `make run`: the package, and what the demo project adds to it (its server, daphne's runserver,
# the demos' own needs); a site's own install is the package alone (docs: "Installation").
# --inexact: `make run` after `make test` leaves the test extras in place.
$(VENV)/.installed: pyproject.toml uv.lock $(VENV)/.uv-$(UV_VERSION) | check-lock
	$(UV_SYNC) --inexact --extra uvicorn --extra daphne --extra demos
	@touch $@

# The project with [dev] is a superset of .installed, so it stands for both: one uv run, not
# two in a row at the start of a fresh clone's `make test`.
$(VENV)/.installed-test: pyproject.toml uv.lock $(VENV)/.uv-$(UV_VERSION) | check-lock
	$(UV_SYNC) --extra dev  # [test] and every extra the suite tests
	@touch $(VENV)/.installed $@

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

# The deployment on this machine (docs/howto/deploy.md): PostgreSQL, Redis, uvicorn
# processes (PROCESSES=N, default one per core) and nginx on http://127.0.0.1:8080 until Ctrl-C.
cluster: $(VENV)/.installed-test debian-packages
	$(BIN)/python -m deploy.cluster up $(if $(PROCESSES),--processes $(PROCESSES))

# The quick loop: Django's system checks, ruff's lint and format check, mypy, tsc.
# Each step is a target of its own (`make check-types`); `make -k check` runs them all
# and reports every one that fails.
check: check-lock check-django check-lint check-format check-types check-js

# On .installed-test as the other checks are: two installs must never run into one venv at once.
check-django: $(VENV)/.installed-test
	$(BIN)/python manage.py check

check-lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

check-format: $(VENV)/.installed-test
	$(BIN)/ruff format --check .

# The four packages a site imports; [tool.mypy] in pyproject.toml says how strict. mypy's parallel
# mode (experimental in mypy 2, documented): one worker per core, at most 4. On a fresh 2-core clone
# 11 s against 17 s, for 3 s more CPU; in `make test` it ends the check while the other core is idle.
MYPY_WORKERS ?= $(shell n=$$(nproc); echo $$(( n < 4 ? n : 4 )))
check-types: $(VENV)/.installed-test
	$(BIN)/mypy --num-workers $(MYPY_WORKERS) byoa visitor_ai mcp_server testwallet

check-js: frontend-deps $(VENDOR)
	cd frontend && npm run --silent typecheck

# The documentation site (docs/): Sphinx, warnings as errors (-W; --keep-going reports them all),
# every internal reference checked (-n). Open docs/_build/html/index.html: no server needed.
.PHONY: docs
docs: $(VENV)/.installed-test
	$(BIN)/python -m sphinx -b html -W --keep-going -n -q docs docs/_build/html

clean:
	rm -rf $(VENV) var frontend/node_modules frontend/vendor test-artifacts
