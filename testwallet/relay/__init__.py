"""
The by-hand stand-in wallets' model relay, in DEBUG only.

The stand-ins of `?testwallet=1` (frontend/testwallet/, turned on per browser,
in a cookie, by middleware.TestWalletMiddleware) run inside the page,
whose Content-Security-Policy lets it reach only its own origin. This relay
forwards their chat and transcription requests to the OpenAI-compatible server
the developer named (settings.TESTWALLET), or answers them with a scripted
player when none is named (scripted.py: each installed app's players.py plays
its own demo). It is not routed at all when DEBUG is off.

A site that wants `?testwallet=1` adds "testwallet.relay" to INSTALLED_APPS,
"testwallet.relay.middleware.TestWalletMiddleware" to MIDDLEWARE (after the
session and CSRF middleware), "testwallet.relay.finders.StandInFinder" to
STATICFILES_FINDERS (after Django's two; it finds the stand-ins' scripts with
DEBUG on only, so production collects none), when DEBUG is on
``path("testwallet/relay/", include("testwallet.relay.urls"))`` to its URLs, and
``{% load testwallet %}{% testwallet_scripts %}`` to the ``<head>`` of its base
template (templatetags/testwallet.py), which loads the stand-ins.
"""
