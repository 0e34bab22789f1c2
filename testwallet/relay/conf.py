"""The relay's settings (settings.TESTWALLET), read when used."""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
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


def relay_settings() -> RelaySettings:
    """Return the relay's settings, with every key's default."""
    given = getattr(settings, "TESTWALLET", {}) or {}
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
            raise ImproperlyConfigured(f"TESTWALLET['{key}'] must be an http:// or https:// URL, not {url!r}")
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


def environment_settings(
    environ: Mapping[str, str] = os.environ, *, cassette: str = "", record: str = "none"
) -> RelaySettings:
    """
    Return the settings of a model server named by the environment (TESTWALLET_MODEL_URL,
    TESTWALLET_MODEL, TESTWALLET_MODEL_KEY, TESTWALLET_MODEL_TIMEOUT), as the relay's
    settings.py reads them, for what asks a model outside Django: the aiwallet driver's
    recorded model, and ``python -m testwallet.cassette serve``.
    """
    try:
        timeout = float(environ.get("TESTWALLET_MODEL_TIMEOUT") or 120)
    except ValueError:
        raise ValueError(
            f"TESTWALLET_MODEL_TIMEOUT must be a number of seconds, not {environ['TESTWALLET_MODEL_TIMEOUT']!r}"
        ) from None
    url = environ.get("TESTWALLET_MODEL_URL") or ""
    if url and urlsplit(url).scheme not in ("http", "https"):
        # Not the URL itself: it may carry a user and password.
        raise ValueError("TESTWALLET_MODEL_URL must be an http:// or https:// URL")
    return RelaySettings(
        model_url=without_credentials(url).rstrip("/"),
        model=environ.get("TESTWALLET_MODEL") or "",
        model_key=environ.get("TESTWALLET_MODEL_KEY") or "",
        transcribe_url="",
        transcribe_model="",
        timeout=timeout,
        cassette=cassette,
        record=record,
    )
