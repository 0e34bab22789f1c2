"""
The demos the home page lists: every installed app whose AppConfig says what it
shows, with a `demo_title` and a `demo_description` (and an `index` URL in its
namespace), in INSTALLED_APPS order. The home page imports none of them.
"""

from typing import TypedDict

from django.apps import apps
from django.urls import reverse


class Demo(TypedDict):
    title: str
    description: str
    url: str
    #: Whether the demo offers the BYOA direct link (the home page says how to try it).
    direct_link: bool


def installed_demos() -> list[Demo]:
    """Return [{title, description, url, direct_link}] for the demo apps that are installed."""
    return [
        {
            "title": config.demo_title,
            "description": config.demo_description,
            "url": reverse(f"{config.label}:index"),
            "direct_link": getattr(config, "demo_direct_link", False),
        }
        for config in apps.get_app_configs()
        if getattr(config, "demo_title", None) and getattr(config, "demo_description", None)
    ]
