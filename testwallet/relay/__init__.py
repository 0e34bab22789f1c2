"""
The by-hand stand-in wallets' model relay, in DEBUG only.

The stand-ins of ``?testwallet=1`` (frontend/testwallet/) may reach only the page's own origin:
this Django app forwards their chat and transcription requests to the OpenAI-compatible server
the developer named (settings.TESTWALLET), or answers with the scripted player (scripted.py).
It is not routed when DEBUG is off; its finder (finders.StandInFinder) finds the stand-ins' scripts
with DEBUG on only. What a site adds to use it: docs/howto/stand-ins.md.
"""
