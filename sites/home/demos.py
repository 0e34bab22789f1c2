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
    #: The demo's picture of itself in each theme: static paths of the screenshots the suite makes
    #: from its real page (tests/home/test_previews.py), `<label>/preview-light.png` and `-dark.png`.
    preview_light: str
    preview_dark: str
    #: The demo's own picture in the demos' shared style (`demo_picture`, a static path under home/art/), or "".
    picture: str


def installed_demos() -> list[Demo]:
    """Return [{title, description, url, direct_link, preview_*, picture}] for the demo apps that are installed."""
    return [
        {
            "title": config.demo_title,
            "description": config.demo_description,
            "url": reverse(f"{config.label}:index"),
            "direct_link": getattr(config, "demo_direct_link", False),
            "preview_light": f"{config.label}/preview-light.png",
            "preview_dark": f"{config.label}/preview-dark.png",
            "picture": getattr(config, "demo_picture", ""),
        }
        for config in apps.get_app_configs()
        if getattr(config, "demo_title", None) and getattr(config, "demo_description", None)
    ]
