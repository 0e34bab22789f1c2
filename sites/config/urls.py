from django.conf import settings
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("sites.home.urls")),
    path("bookshop/", include("sites.bookshop.urls")),
    path("geography/", include("sites.geography.urls")),
    path("twentyq/", include("sites.twentyq.urls")),
    path("byoa/", include("byoa.urls")),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    # The by-hand stand-ins' model relay (testwallet.relay) does not exist without DEBUG.
    urlpatterns.append(path("testwallet/relay/", include("testwallet.relay.urls")))
    # The docs site `make docs` builds, for the demos' links to their how-to pages (sites/config/docs.py).
    urlpatterns.append(path("docs/", include("sites.config.docs")))
