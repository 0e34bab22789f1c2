"""
Bring your own agent, the server side: a reusable Django app.

- ``manifests``: the site's manifests, checked, and the exact bytes links carry
- ``views`` (``POST /byoa/code``, ``GET /byoa/wait``): codes and links for the page
- ``invitations``: the ``bringyourownagent://`` link and the endpoint it names
- ``endpoints``: the wallet's host rules for the endpoint a link carries
- ``consumers`` (``/byoa/ws``): the wallet's WebSocket
- ``calls``: ``call_wallet`` / ``stream_wallet``, the server -> wallet API;
  ``deadlines``: a call's time limits (timeout, acceptance window, hold)
- ``pairings``: pairings in the database
- ``hub``: what one process runs for BYOA, started and closed as one:
  ``connections`` (its live wallet connections: same-process calls skip the
  channel layer), ``transport`` (its inbox and the channel-layer path to other
  processes), ``processes`` (liveness records, beat and sweep), ``receipts``
  (call receipts, written in batches)
- ``conf``: the ``BYOA`` settings, each declared once; ``checks``: the system
  checks generated from them, and the manifests'
- ``admin``: pairings, pause and revoke, call receipts
- ``wallet``: a headless wallet that speaks the direct link, for tests and CI

The wire behaviour follows specs/byoa-sites.md; see ``byoa.protocol``.
"""
