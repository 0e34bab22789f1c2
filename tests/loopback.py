"""
HTTP clients for the live servers the tests start on loopback.

httpx reads its whole CA bundle into a new SSL context for each client it makes, and that
costs more CPU than the plain-http requests a test then sends; the clients made here share
one context, made once.
"""

import functools

import httpx


@functools.cache
def tls():
    """Return the one SSL context (an ``ssl.SSLContext``, so any client's ``verify=`` takes it)."""
    return httpx.create_ssl_context()


def get(url, **options):
    """``httpx.get`` with the shared context; options as httpx's."""
    return httpx.get(url, verify=tls(), **options)


def client(base_url="", **options):
    """Return an ``httpx.AsyncClient`` for ``base_url`` (a live server's ``url``); options as httpx's."""
    return httpx.AsyncClient(base_url=base_url, verify=tls(), **options)
