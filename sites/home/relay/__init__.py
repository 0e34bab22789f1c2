"""
The by-hand stand-in wallets' model relay, in DEBUG only.

The stand-ins of `?testwallet=1` (frontend/testwallet/) run inside the page,
whose Content-Security-Policy lets it reach only its own origin. This relay
forwards their chat and transcription requests to the OpenAI-compatible server
the developer named (settings.TESTWALLET), or answers them with a scripted
player when none is named. It is not routed at all when DEBUG is off.
"""
