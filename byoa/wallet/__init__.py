"""
A headless BYOA wallet for tests and CI: it takes a ``bringyourownagent://``
link, applies the wallet's checks, "asks" the visitor (a consent you choose),
connects to the site's WebSocket and answers its calls from a backend.

    python -m byoa.wallet '<link>' --consent allow --script audio.transcribe='{"text":"Peru"}'
    python -m byoa.wallet '<link>' --transcriber pocketsphinx --vocabulary countries.txt
"""

from byoa.exceptions import BackendError
from byoa.wallet.backends import Backend, OpenAICompatibleBackend, ScriptedBackend
from byoa.wallet.client import Consent, DirectWallet, State, reconnect_delays
from byoa.wallet.link_checks import Link, check_link
from byoa.wallet.transcriber import PocketSphinxBackend  # imports pocketsphinx only when built
from byoa.wallet.whisper import WhisperBackend  # imports faster-whisper only when built

__all__ = [
    "Backend",
    "BackendError",
    "Consent",
    "DirectWallet",
    "Link",
    "OpenAICompatibleBackend",
    "PocketSphinxBackend",
    "ScriptedBackend",
    "State",
    "WhisperBackend",
    "check_link",
    "reconnect_delays",
]
