"""The wallet's tests against a real site: the BYOA tests' daphne with their test manifests, and a visitor's browser."""

from tests.byoa.conftest import byoa_server, byoa_settings, visitor  # noqa: F401  (fixtures, shared by import)
