"""The relay's settings (settings.TESTWALLET), read when used."""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

#: What the banner and the stand-ins' `start` event name when no model is set.
SCRIPTED = "scripted"


@dataclass(frozen=True)
class RelaySettings:
    model_url: str
    model: str
    model_key: str
    transcribe_url: str
    transcribe_model: str
    timeout: float
    #: The cassette of recorded answers (testwallet.cassette), its mode, and whether to keep the pace.
    cassette: str = ""
    record: str = "none"
    pacing: bool = False

    @property
    def scripted(self) -> bool:
        """Whether a scripted player answers instead of a model: never when a cassette is named."""
        return not self.model_url and not self.cassette

    @property
    def label(self) -> str:
        """Return who answers chats, as the banner says it: a model at a host, a cassette, or 'scripted'."""
        if self.scripted:
            return SCRIPTED
        if self.cassette and self.record == "none":
            return f"the answers recorded in {Path(self.cassette).name}"
        model = f"{self.model or 'the default model'} at {host_and_port(urlsplit(self.model_url))}"
        return f"{model}, recorded into {Path(self.cassette).name}" if self.cassette else model


def host_and_port(url: SplitResult) -> str:
    """Return the URL's host and port as a URL writes them: never the user and password before them."""
    host = f"[{url.hostname}]" if url.hostname and ":" in url.hostname else url.hostname or ""
    return f"{host}:{url.port}" if url.port is not None else host


def has_credentials(url: str) -> bool:
    """Whether the URL carries a user name or password (user:pw@host)."""
    return "@" in urlsplit(url).netloc


def without_credentials(url: str) -> str:
    """
    Return the URL without its user and password: httpx would send them as Basic
    auth in place of the key's bearer (the check testwallet.E002 reports them).
    """
    parts = urlsplit(url)
    return parts._replace(netloc=host_and_port(parts)).geturl() if has_credentials(url) else url


#: The TESTWALLET keys and the environment variables sites/config/settings.py reads them from.
ENVIRONMENT = {
    "MODEL_URL": "TESTWALLET_MODEL_URL",
    "MODEL": "TESTWALLET_MODEL",
    "MODEL_KEY": "TESTWALLET_MODEL_KEY",
    "TRANSCRIBE_URL": "TESTWALLET_TRANSCRIBE_URL",
    "TRANSCRIBE_MODEL": "TESTWALLET_TRANSCRIBE_MODEL",
    "TIMEOUT": "TESTWALLET_MODEL_TIMEOUT",
    "PACING": "TESTWALLET_PACING",
}


def relay_settings() -> RelaySettings:
    """Return the relay's settings (settings.TESTWALLET), with every key's default."""
    return settings_from(getattr(settings, "TESTWALLET", {}) or {})


def environment_settings(
    environ: Mapping[str, str] = os.environ, *, cassette: str = "", record: str = "none"
) -> RelaySettings:
    """
    Return the settings the environment's TESTWALLET_* variables give (as sites/config/settings.py
    reads them), with this cassette and mode, for what asks a model outside Django: the
    test-driven stand-ins' recorded models, and ``python -m testwallet.cassette serve``. Raises
    ValueError for a value that cannot be used.
    """
    given = {key: environ[variable] for key, variable in ENVIRONMENT.items() if environ.get(variable)}
    try:
        return settings_from({**given, "CASSETTE": cassette, "RECORD": record})
    except ImproperlyConfigured as error:
        raise ValueError(str(error)) from None


def settings_from(given: Mapping[str, Any]) -> RelaySettings:
    """Return the settings of a TESTWALLET dict, with every key's default; ImproperlyConfigured for a bad value."""
    try:
        timeout = float(given.get("TIMEOUT", 120))
    except (TypeError, ValueError):
        raise ImproperlyConfigured(
            "TESTWALLET['TIMEOUT'] (TESTWALLET_MODEL_TIMEOUT) must be a number of seconds, "
            f"not {given.get('TIMEOUT')!r}"
        ) from None
    if not timeout > 0:
        raise ImproperlyConfigured(
            "TESTWALLET['TIMEOUT'] (TESTWALLET_MODEL_TIMEOUT) must be more than 0 seconds"
        )
    for key in ("MODEL_URL", "TRANSCRIBE_URL"):
        url = given.get(key) or ""
        if url and urlsplit(url).scheme not in ("http", "https"):
            # Not the URL itself: it may carry a user name and password.
            raise ImproperlyConfigured(f"TESTWALLET['{key}'] must be an http:// or https:// URL")
    record = str(given.get("RECORD") or "none").strip().lower()
    if record not in ("all", "new", "none"):
        raise ImproperlyConfigured(
            f"TESTWALLET['RECORD'] (TESTWALLET_RECORD) must be all, new or none, not {given.get('RECORD')!r}"
        )
    return RelaySettings(
        model_url=without_credentials(given.get("MODEL_URL") or "").rstrip("/"),
        model=given.get("MODEL") or "",
        model_key=given.get("MODEL_KEY") or "",
        transcribe_url=without_credentials(given.get("TRANSCRIBE_URL") or "").rstrip("/"),
        transcribe_model=given.get("TRANSCRIBE_MODEL") or "whisper-1",
        timeout=timeout,
        cassette=str(given.get("CASSETTE") or ""),
        record=record,
        pacing=str(given.get("PACING") or "") not in ("", "0"),
    )
