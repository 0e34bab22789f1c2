"""
Delivery: how a call's events travel between the caller and the wallet's
connection (``events``), what one connection has in flight (``inflight``)
and may send (``allowance``), the signature on events between processes
(``signing``) and the receipts of calls (``receipts``). The connection
itself is ``byoa.consumers``; the API a site calls is ``byoa.calls``.
"""
