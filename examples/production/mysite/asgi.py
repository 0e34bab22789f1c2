"""The site's one ASGI application: pages, the MCP endpoint and the wallet route."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")

from visitor_ai.asgi import get_asgi_application
from visitor_ai.limits import BodyLimit

# A body past DATA_UPLOAD_MAX_MEMORY_SIZE is refused as it arrives (nginx refuses it first).
application = BodyLimit(get_asgi_application())
