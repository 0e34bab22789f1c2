"""
A headless wallet in a process of its own, for the fault tests to stop with
SIGSTOP: ``python -m tests.byoa.fault_wallet <link> <ping seconds>``. It
answers audio.transcribe with "Peru", prints "connected" once welcomed, and
serves until the site closes.
"""

import asyncio
import sys

from testwallet.direct import DirectWallet, ScriptedBackend


async def serve(link, ping_seconds):
    """Open the link and serve it until the connection ends; return the exit status."""
    wallet = DirectWallet(
        ScriptedBackend({"audio.transcribe": {"text": "Peru"}}), dev_local=True, ping_seconds=ping_seconds
    )
    if not await wallet.open(link):
        print("refused", *wallet.activity, sep="\n", flush=True)
        return 1
    print("connected", flush=True)
    await wallet.closed.wait()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(serve(sys.argv[1], float(sys.argv[2]))))
