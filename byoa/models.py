"""
What BYOA keeps in the database, so that any server process can check a code,
find a wallet's live connection and show the admin what happened.

Secrets are never stored: codes and pairing tokens are kept as SHA-256 digests
(both are random with 192 bits or more, so a plain digest cannot be reversed).
Call content is never stored either: a call row is a receipt.
"""

from django.db import models


class SessionCode(models.Model):
    """A one-time code of a link: single use, short-lived, bound to a browser session."""

    code_digest = models.CharField(max_length=64, unique=True)
    # The handle the page polls /byoa/wait with. It is not the code: daphne
    # logs query strings, and a code in a log could be used to pair a stranger.
    wait_id = models.CharField(max_length=64, unique=True)
    visitor = models.CharField(max_length=64, db_index=True, help_text="The browser session's BYOA id.")
    client_digest = models.CharField(
        max_length=64, db_index=True, help_text="Keyed digest of the client address."
    )
    manifest_name = models.CharField(max_length=100, help_text="The name of the manifest of the page.")
    # The manifest text of the link, echoed byte for byte in the welcome.
    manifest = models.TextField()
    created_at = models.DateTimeField(db_index=True)
    expires_at = models.DateTimeField(db_index=True)  # the clean-up on every issue() filters by it
    used_at = models.DateTimeField(null=True, blank=True)
    pairing = models.ForeignKey("Pairing", null=True, blank=True, on_delete=models.SET_NULL)

    def __str__(self) -> str:
        return f"code for {self.manifest_name} at {self.created_at:%Y-%m-%d %H:%M:%S}"


class Pairing(models.Model):
    """A visitor's wallet, paired with this site for one browser session."""

    class Status(models.TextChoices):
        ACTIVE = "active"  # calls go through; the wallet may come back with its token
        PAUSED = "paused"  # no calls and no reconnection until resumed in the admin
        REVOKED = "revoked"  # gone for good: the wallet needs a new link

    token_digest = models.CharField(max_length=64, unique=True)
    visitor = models.CharField(max_length=64, db_index=True, help_text="The browser session's BYOA id.")
    manifest_name = models.CharField(max_length=100, help_text="The name of the manifest it was paired for.")
    status = models.CharField(max_length=10, choices=Status, default=Status.ACTIVE)
    grant = models.JSONField(default=dict, help_text="The wallet's grant: skills, expiry, limits, models.")
    wallet = models.JSONField(default=dict, help_text="The wallet's name and version, as it said.")
    # The channel name of the live connection (its consumer's), or empty while the wallet is away.
    channel_name = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["visitor", "manifest_name"])]

    def __str__(self) -> str:
        return f"{self.manifest_name} pairing #{self.pk} ({self.status})"

    @property
    def is_live(self) -> bool:
        return bool(self.channel_name)


class CallLog(models.Model):
    """The receipt of one server -> wallet call; never its input or output."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="calls")
    skill = models.CharField(max_length=64)
    model = models.CharField(max_length=32, blank=True)
    ok = models.BooleanField()
    duration_ms = models.PositiveIntegerField()
    cost = models.CharField(max_length=40, blank=True)
    provider = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-at", "-id"]  # a batch of receipts shares its time (byoa.delivery.receipts)

    def __str__(self) -> str:
        return f"{self.skill} {'ok' if self.ok else 'failed'} in {self.duration_ms} ms"
