"""
Bring your own agent, the server side: a reusable Django app.

- ``manifests``: the site's manifests, checked, and the exact bytes links carry
- ``views`` (``POST /byoa/code``, ``GET /byoa/wait``): codes and links for the page
- ``invitations``: the ``bringyourownagent://`` link and the endpoint it names
- ``endpoints``: the wallet's host rules for the endpoint a link carries
- ``consumers`` (``/byoa/ws``): the wallet's WebSocket
- ``calls``: ``call_wallet`` / ``stream_wallet``, the server -> wallet API
- ``pairings``: pairings in the database; ``live``: this process's live
  connections (same-process calls skip the channel layer); ``receipts``: call
  receipts, written in batches
- ``admin``: pairings, pause and revoke, call receipts
- ``wallet``: a headless wallet that speaks the direct link, for tests and CI

The wire behaviour follows specs/byoa-sites.md; see ``byoa.protocol``.
"""
