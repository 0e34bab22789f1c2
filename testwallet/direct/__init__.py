"""
A headless BYOA wallet for tests and CI: it takes a ``bringyourownagent://``
link, applies the wallet's checks, "asks" the visitor (a consent you choose),
connects to the site's WebSocket and answers its calls from a backend.

    python -m testwallet.direct '<link>' --consent allow --script audio.transcribe='{"text":"Peru"}'
    python -m testwallet.direct '<link>' --transcriber pocketsphinx --vocabulary countries.txt
    python -m testwallet.direct '<link>' --transcriber whisper --vocabulary ru=countries-ru.txt
"""

from testwallet._consents import Consents
from testwallet.direct.backends import Backend, OpenAICompatibleBackend, ScriptedBackend, SkillBackend
from testwallet.direct.exceptions import BackendError, LinkRefused
from testwallet.direct.link_checks import Link, check_link
from testwallet.direct.recorded import RecordedBackend
from testwallet.direct.states import Consent, State, reconnect_delays
from testwallet.direct.transcriber import PocketSphinxBackend  # imports pocketsphinx only when built
from testwallet.direct.wallet import DirectWallet
from testwallet.direct.whisper import WhisperBackend  # imports faster-whisper only when built

__all__ = [
    "Backend",
    "BackendError",
    "Consent",
    "Consents",
    "DirectWallet",
    "Link",
    "LinkRefused",
    "OpenAICompatibleBackend",
    "PocketSphinxBackend",
    "RecordedBackend",
    "ScriptedBackend",
    "SkillBackend",
    "State",
    "WhisperBackend",
    "check_link",
    "reconnect_delays",
]
