"""
Manifests, codes, links and pairings: what the site asks for (``manifests``,
``describe``), the one-time code and the link a page hands the wallet
(``codes``, ``invitations``, ``route_ids``), and the pairing a wallet's hello
opens, with its grant (``pairings``, ``session_pairings``, ``grants``).
"""
