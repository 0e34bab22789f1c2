"""
The headless test wallet for CI.

- ``testwallet.server``: a real daphne process on a free port, for tests that
  need WebSockets and real HTTP (pytest-django's ``live_server`` has neither).
- ``testwallet.aiwallet`` / ``testwallet.extension``: the drivers of the in-page
  stub wallets in ``stubs/`` (``frontend/testwallet/``): ``window.aiwallet`` and ``window.byoa``.
- ``testwallet.direct``: the headless direct-link wallet (``python -m
  testwallet.direct '<link>'``), which needs no Django: it takes a
  ``bringyourownagent://`` link and answers the site's calls from a backend.
- ``testwallet.cassette``: recorded answers of a real model, replayed in CI
  (``TESTWALLET_CASSETTE``, ``TESTWALLET_RECORD``), for the relay and the headless wallet.
- ``testwallet.sync_api``: the sync faces of those drivers, for pytest-playwright
  (sync) suites and plain scripts.
- ``testwallet.serve``: ``python -m testwallet.serve``, the project served as
  ``daphne_server`` serves it, for test runners in other languages.
- ``testwallet.plugin``: the pytest plugin (a ``pytest11`` entry point), giving
  a site's tests the ``daphne_server``, ``aiwallet``, ``byoa_extension``
  and ``direct_wallet`` fixtures and Chromium launch settings.
"""
