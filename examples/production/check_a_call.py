"""
Call a connected wallet from a process that holds no wallet socket: ``manage.py shell`` is
one, so an answer here crossed the channel layer to the process that holds it. Run it on a
server machine, with the processes' environment, once a wallet is connected:

    PAIRING=<id> python manage.py shell < check_a_call.py

``PAIRING`` is the pairing's id, as the admin's BYOA pairings list shows it.
"""

import asyncio
import os

from byoa import WalletCallError, call_wallet

ASKED = {"messages": [{"role": "user", "content": "Say hello in three words."}]}

try:
    output = asyncio.run(call_wallet(int(os.environ["PAIRING"]), "text.generate", ASKED, timeout=30))
except WalletCallError as error:  # WalletProcessGone, WalletOffline ...: the name says what failed
    print(f"No answer: {type(error).__name__}: {error}")
else:
    print(f"The wallet answered across processes: {output}")
