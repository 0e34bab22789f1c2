"""
The exceptions of ``byoa`` that need no Django: the root and the errors of
reading what arrives on the wire (a frame, a clip).

They live apart from ``byoa.exceptions``, which imports Django for
``ImproperlyConfigured``, so that the Django-free modules (``byoa.wire.protocol``,
``byoa.wire.wav``, ``byoa.wire.endpoints``) and a wallet that imports them never load
Django. Import them from ``byoa`` or ``byoa.exceptions``; the tree of every
exception is drawn in ``byoa.exceptions``.
"""


class ByoaError(Exception):
    """Raised by nothing itself: the root of every exception ``byoa`` raises, for one ``except``."""


class NotJSON(ByoaError, ValueError):
    """Raised when a text frame of the direct link is not JSON."""


class NotAClip(ByoaError, ValueError):
    """Raised when bytes are not a WAV file, or not the 16 kHz mono 16-bit PCM WAV a clip must be."""
