"""
The headless test wallet for CI: stand-in wallets for a site's own tests and for browsing by hand.

The pytest plugin and its fixtures (``testwallet.plugin``), the drivers of the in-page stubs of
AI Wallet, the BYOA extension and Chrome's built-in model (``testwallet.aiwallet``,
``testwallet.extension``, ``testwallet.languagemodel``) and their sync faces
(``testwallet.sync_api``), the headless direct-link wallet (``testwallet.direct``), recorded
model answers (``testwallet.cassette``), real servers (``testwallet.server``,
``testwallet.serve``) and the stand-ins' model relay (``testwallet.relay``).
"""
