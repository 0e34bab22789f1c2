"""
The admin of BYOA pairings: who is paired for which site and browser session,
when the wallet was last seen, what it granted, and the receipts of its calls.

Pausing or revoking a pairing also closes its live connection (the wallet gets
``bye``), and a paused or revoked pairing cannot come back with its token.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from byoa import events
from byoa.hub import current_hub
from byoa.models import CallLog, Pairing

# django-stubs makes the admin's classes generic in their model; Django's own are
# not subscriptable at run time (django_stubs_ext.monkeypatch would make them so,
# at the price of a run-time dependency).
if TYPE_CHECKING:
    CallLogInlineBase = admin.TabularInline[CallLog, Pairing]
    PairingAdminBase = admin.ModelAdmin[Pairing]
    CallLogAdminBase = admin.ModelAdmin[CallLog]
else:
    CallLogInlineBase = admin.TabularInline
    PairingAdminBase = CallLogAdminBase = admin.ModelAdmin


class CallLogInline(CallLogInlineBase):
    model = CallLog
    fields = ("at", "skill", "model", "ok", "duration_ms", "cost", "provider")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    ordering = ("-at",)
    show_change_link = False


@admin.register(Pairing)
class PairingAdmin(PairingAdminBase):
    list_display = ("id", "manifest_name", "visitor", "status", "is_live", "last_seen", "created_at")
    list_filter = ("manifest_name", "status")
    search_fields = ("visitor",)
    readonly_fields = (
        "manifest_name",
        "visitor",
        "grant",
        "wallet",
        "channel_name",
        "created_at",
        "last_seen",
    )
    exclude = ("token_digest",)
    inlines = [CallLogInline]
    actions = ["pause", "revoke", "resume"]

    @admin.display(boolean=True, description="live")
    def is_live(self, pairing: Pairing) -> bool:
        return pairing.is_live

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # pairings are made by wallets, never by hand

    @admin.action(description="Pause the selected pairings (and close their connections)")
    def pause(self, request: HttpRequest, queryset: QuerySet[Pairing]) -> None:
        self._set_status(request, queryset, Pairing.Status.PAUSED)

    @admin.action(description="Revoke the selected pairings (and close their connections)")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Pairing]) -> None:
        self._set_status(request, queryset, Pairing.Status.REVOKED)

    @admin.action(description="Resume the selected paused pairings")
    def resume(self, request: HttpRequest, queryset: QuerySet[Pairing]) -> None:
        count = queryset.filter(status=Pairing.Status.PAUSED).update(status=Pairing.Status.ACTIVE)
        self.message_user(request, f"{count} pairing(s) resumed.", messages.SUCCESS)

    def _set_status(self, request: HttpRequest, queryset: QuerySet[Pairing], status: Pairing.Status) -> None:
        count, closed = stop_pairings(queryset, status)
        self.message_user(request, f"{count} pairing(s) {status}; {closed} live connection(s) closed.")


def stop_pairings(queryset: QuerySet[Pairing], status: Pairing.Status) -> tuple[int, int]:
    """Pause or revoke pairings, then close their live connections; return (pairings, connections)."""
    # Read before the update changes what the queryset matches.
    rows = list(queryset.values_list("pk", "channel_name"))
    # The status first: a wallet coming back between the two steps is then
    # refused, and a closed connection's pairing is never left active.
    count = Pairing.objects.filter(pk__in=[pk for pk, _channel in rows]).update(status=status)
    current_hub().connections.drop(pk for pk, _channel in rows)
    return count, _send_close([channel for _pk, channel in rows if channel])


def close_connections(queryset: QuerySet[Pairing]) -> int:
    """Tell the live connection of each pairing to say bye and close; return how many."""
    return _send_close([name for name in queryset.values_list("channel_name", flat=True) if name])


def _send_close(addresses: Sequence[str]) -> int:
    # At most once: a lost close is caught by the connection's own periodic
    # status check (byoa.consumers.TOUCH_SECONDS).
    notify = async_to_sync(current_hub().transport.notify)
    for address in addresses:
        notify(address, {"type": events.CLOSE})
    return len(addresses)


@admin.register(CallLog)
class CallLogAdmin(CallLogAdminBase):
    list_display = ("at", "pairing", "skill", "model", "ok", "duration_ms", "cost", "provider")
    list_filter = ("skill", "ok", "provider")
    readonly_fields = ("pairing", "skill", "model", "ok", "duration_ms", "cost", "provider", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: CallLog | None = None) -> bool:
        return False
