"""
Opening the headless wallet's WebSocket to a site: to the public address the link's host
resolved to (``link_checks.resolve_public``), never through a proxy or where a redirect points,
with the protocol's frame size, and with websockets' frame log kept above DEBUG (frames carry
the session code and the pairing token).
"""

import logging
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as _connect

from byoa.wire import protocol
from testwallet.direct import link_checks

# websockets logs every frame at DEBUG, and the frames carry the session code
# and the pairing token: its connections log here, never below INFO.
frame_logger = logging.getLogger("testwallet.direct.frames")
frame_logger.setLevel(logging.INFO)


class _NoRedirects(_connect):
    # The wallet connects to the address it checked: never where a 3xx points.
    def process_redirect(self, exc: Exception) -> Exception:
        return exc


async def open_socket(endpoint: str, *, dev_local: bool, open_timeout: float) -> ClientConnection:
    """Return a WebSocket open to ``endpoint``, a wallet route a checked link named.

    Raises OSError, LinkRefused (an address that is not public), websockets.InvalidHandshake or
    TimeoutError.
    """
    parts = urlsplit(endpoint)
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    assert parts.hostname is not None  # check_link refuses an endpoint without a host
    address = await link_checks.resolve_public(parts.hostname, port, dev_local=dev_local)
    return await _NoRedirects(
        endpoint,
        host=address,
        port=port,
        proxy=None,
        max_size=protocol.MAX_FRAME_BYTES,
        open_timeout=open_timeout,
        compression=None,
        logger=frame_logger,
    )
