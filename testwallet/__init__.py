"""
The headless test wallet for CI.

- ``testwallet.server``: a real daphne process on a free port, for tests that
  need WebSockets and real HTTP (pytest-django's ``live_server`` has neither).
- ``testwallet.plugin``: the pytest plugin (a ``pytest11`` entry point), giving
  a site's tests the ``daphne_server`` fixture and Chromium launch settings.
"""
