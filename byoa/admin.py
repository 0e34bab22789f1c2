"""
The admin of BYOA pairings: who is paired for which site and browser session,
when the wallet was last seen, what it granted, and the receipts of its calls.

Pausing or revoking a pairing also closes its live connection (the wallet gets
``bye``), and a paused or revoked pairing cannot come back with its token.
"""

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from byoa.models import CallLog, Pairing
from byoa.pairing.pairings import stop_pairings

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


@admin.register(CallLog)
class CallLogAdmin(CallLogAdminBase):
    list_display = ("at", "pairing", "skill", "model", "ok", "duration_ms", "cost", "provider")
    list_filter = ("skill", "ok", "provider")
    readonly_fields = ("pairing", "skill", "model", "ok", "duration_ms", "cost", "provider", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: CallLog | None = None) -> bool:
        return False
