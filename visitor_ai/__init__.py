"""
The browser library of Visitor AI as a Django app, and the ASGI application builder.

Add ``"visitor_ai"`` to ``INSTALLED_APPS`` and ``{% static %}`` serves the
library's plain ES modules at the layout the pages import from:
``/static/aiconnect/`` (AI Wallet), ``/static/ui/`` (the connect widget),
``/static/byoa/`` (BYOA) and ``/static/ways/`` (the way chooser). The in-page
stand-in wallets are the test wallet's (``testwallet.relay.finders``), DEBUG only.
``visitor_ai.asgi.get_asgi_application()`` builds a site's ASGI application.
"""
