"""
The headless test wallet for CI.

- ``testwallet.server``: a real daphne process on a free port, for tests that
  need WebSockets and real HTTP (pytest-django's ``live_server`` has neither).
- ``testwallet.aiwallet`` / ``testwallet.extension``: the drivers of the in-page
  stub wallets in ``stubs/`` (``frontend/testwallet/``): ``window.aiwallet`` and ``window.byoa``.
- ``testwallet.plugin``: the pytest plugin (a ``pytest11`` entry point), giving
  a site's tests the ``daphne_server``, ``aiwallet``, ``byoa_extension`` and
  ``direct_wallet`` fixtures and Chromium launch settings.
"""
