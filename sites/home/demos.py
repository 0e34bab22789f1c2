"""The demos the home page lists: one entry per demo app that is installed."""

from django.apps import apps
from django.urls import reverse

# app label -> (title, what it shows, whether it offers the BYOA direct link)
DEMOS = {
    "bookshop": (
        "Bookshop",
        "The visitor's AI (through AI Wallet) recommends books with the shop's own MCP tools.",
        False,
    ),
    "geography": (
        "Voice geography game",
        "Answer out loud: the visitor's agent wallet turns speech into text (BYOA audio.transcribe).",
        True,
    ),
    "twentyq": (
        "Twenty Questions",
        "Play against the visitor's own model (BYOA text.generate, or AI Wallet chat).",
        True,
    ),
}


def installed_demos():
    """Return [{title, description, url, direct_link}] for the demo apps that are installed."""
    return [
        {"title": title, "description": description, "url": reverse(f"{label}:index"), "direct_link": direct_link}
        for label, (title, description, direct_link) in DEMOS.items()
        if apps.is_installed(f"sites.{label}")
    ]
