"""
``{% testwallet_scripts %}``: the in-page stand-ins on a site's own pages, by hand.

In the ``<head>`` of a base template, with DEBUG on, ``?testwallet=1`` (kept in a cookie,
``?testwallet=0`` to stop) gives each page the stand-ins of ``window.aiwallet``, ``window.byoa``
and ``LanguageModel``; otherwise it renders nothing. What it needs: docs/howto/stand-ins.md.
"""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join, json_script
from django.utils.safestring import SafeString

register = template.Library()

#: The stand-ins' scripts, in the order a page loads them: the panel first (they ask there), the
#: relay before the stand-ins that answer through it, each BYOA helper before byoa.js.
SCRIPTS = (
    "panel.js",
    "relay.js",
    "aiwallet.js",
    "byoa-clip.js",
    "byoa-skills.js",
    "byoa-manifest.js",
    "byoa-consent.js",
    "byoa-checks.js",
    "byoa.js",
    "languagemodel.js",
)


@register.simple_tag(takes_context=True)
def testwallet_scripts(context: template.Context) -> SafeString:
    """Return the stand-ins' script tags when the request has the test wallet on, else nothing."""
    request = context.get("request")
    if request is None or not getattr(request, "testwallet", False):
        return SafeString("")
    relay = getattr(request, "testwallet_relay", None)
    # The relay's paths and this browser's token, as data relay.js reads: no inline script (strict CSP).
    config = json_script(relay, "testwallet-relay") if relay else ""
    tags = format_html_join(
        "\n", '<script src="{}"></script>', ((static(f"testwallet/{name}"),) for name in SCRIPTS)
    )
    return format_html("{}\n{}", config, tags)
