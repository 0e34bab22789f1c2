"""The site's own page, beside the relay's URLs (DEBUG only, as a site adds them)."""

from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="own_site/page.html")),
    path("testwallet/relay/", include("testwallet.relay.urls")),
]
