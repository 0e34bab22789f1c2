"""
The project's one ASGI application: Django pages, the MCP endpoint, and the
WebSocket routes, served together by daphne (`make run`) or uvicorn, built as
any site builds its own (visitor_ai/asgi.py says the Origin policy of each route).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")

from django.conf import settings

from visitor_ai.asgi import get_asgi_application
from visitor_ai.limits import BodyLimit

# With DEBUG on, the readable files from the apps; with DEBUG off, WhiteNoise
# serves collectstatic's output (settings.STORAGES), or a proxy does when
# DJANGO_SERVE_STATIC=0.
# Start-up's objects are frozen out of the garbage collector's way once this is built, and again when
# a lifespan's start-up completes (visitor_ai.collector).
# BodyLimit: a body past DATA_UPLOAD_MAX_MEMORY_SIZE is refused (413) as it arrives, not spooled
# to disk in full before any view runs (visitor_ai/limits.py).
application = BodyLimit(get_asgi_application(serve_static=settings.DEBUG and settings.SERVE_STATIC))
