"""
Settings for the Visitor AI demo project.

Everything that differs between a laptop and a deployment comes from the
environment, with defaults that are safe to run on one machine:

    DJANGO_DEBUG          "1" to turn DEBUG on (off unless asked)
    DJANGO_SECRET_KEY     the secret key; without it one is generated once into
                          var/secret_key (git-ignored) and reused
    DJANGO_ALLOWED_HOSTS  comma-separated hosts (default: 127.0.0.1,localhost,[::1])
    DATABASE_URL          e.g. postgres://user:pass@host/db (default: SQLite in var/)
    REDIS_URL             e.g. redis://127.0.0.1:6379/0 for BYOA's calls and the channel
                          layer across processes (default: in-memory, one process);
                          comma-separated URLs shard it over several Redis servers
    REDIS_CHANNEL_LAYER   "core" for channels-redis's core layer instead of its pub/sub
                          layer (the default)
    DJANGO_SERVE_STATIC   "0" when a proxy or CDN serves /static/ (default: the ASGI
                          app serves them, with DEBUG off collectstatic's output
                          through WhiteNoise)
    DJANGO_BEHIND_TLS_PROXY  "1" behind a proxy that terminates TLS and sets
                          X-Forwarded-Proto (run daphne with --proxy-headers):
                          requests count as https and cookies are secure
    DJANGO_SECURE_COOKIES "1" for secure session and CSRF cookies (on by default
                          with DJANGO_BEHIND_TLS_PROXY)
    DJANGO_SSL_REDIRECT   "1" to redirect http:// requests to https:// (on by default
                          with DJANGO_BEHIND_TLS_PROXY)
    DJANGO_HSTS_SECONDS   Strict-Transport-Security max-age (default 0: no header)
    DJANGO_HSTS_PRELOAD   "1" to add includeSubDomains and preload to that header
    DATABASE_POOL_SIZE    PostgreSQL connections per server process at most (default 10)

docs/howto/try-the-demos.md ("The demo project's environment") and
docs/howto/deploy.md say which of these a production-like deployment sets.
"""

import os
import secrets
import warnings
from pathlib import Path

import dj_database_url
import django
from django.core.exceptions import ImproperlyConfigured

from byoa.environment import env_flag
from byoa.wire.protocol import MAX_FRAME_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# Local state (the SQLite database, a generated secret key) lives here, never in git.
VAR_DIR = Path(os.environ.get("VISITOR_AI_VAR_DIR", BASE_DIR / "var"))


def _env_list(name, default):
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def _env_int(name, default):
    value = os.environ.get(name, str(default))
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def _local_secret_key():
    """Return the key stored in var/secret_key, creating it on first use."""
    path = VAR_DIR / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        # O_EXCL: when two processes start together, one writes and both read it.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return path.read_text().strip()
        with os.fdopen(fd, "w") as handle:
            handle.write(key)
        return key


DEBUG = env_flag("DJANGO_DEBUG")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
SERVE_STATIC = env_flag("DJANGO_SERVE_STATIC", default=True)

INSTALLED_APPS = [
    # daphne, first, so that `runserver` is daphne's (WebSockets included), as Channels' docs say.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "visitor_ai",  # the browser library: /static/aiconnect/, /static/ui/, /static/byoa/ ...
    "mcp_server",
    "byoa",
    "sites.home",
    "sites.bookshop",
    "sites.geography",
    "sites.twentyq",
    "testwallet.relay",  # `?testwallet=1`, DEBUG only: the stand-ins' model relay and its scripted players
]

# Django's own classes, as startproject writes them, and three of the demos' own.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything that writes the body; after WhiteNoise (inserted below), so static files skip it.
    "sites.config.compression.PageGZipMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # The admin's login (admin.E408); the demo pages never read request.user.
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The admin's messages (admin.E409), and Twenty Questions' errors after a plain form post.
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "testwallet.relay.middleware.TestWalletMiddleware",
    # Last, so that its process_exception sees a view's database error first.
    "sites.config.unavailable.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "sites.config.urls"
# The docs site `make docs` builds; with DEBUG on the demos serve it at /docs/ (sites/config/docs.py).
DOCS_ROOT = BASE_DIR / "docs" / "_build" / "html"
ASGI_APPLICATION = "sites.config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "sites" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "sites.config.docs.docs_url",  # the demos link to the docs where they are served
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=0,
    )
}
# Under Django's own ASGI handler each request runs its queries in a new thread,
# so persistent connections would never be reused (Django's docs: disable them
# under ASGI, use a pool). On PostgreSQL,
# psycopg's pool, one per process: it checks a connection before handing it
# out, so after a database restart the next request gets a fresh connection
# rather than a dead one; a request waits at most the pool's timeout for one,
# then fails with a 503 (sites/config/errors.py) instead of hanging.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django checks each pooled connection before handing it out with CONN_HEALTH_CHECKS
    # (psycopg_pool's check_connection), on 5.2 as on 6.x.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": _env_int("DATABASE_POOL_SIZE", 10),
        "timeout": 5.0,
        # The pool retries a failed connection with a doubling delay (1, 2, 4, 8 s ...)
        # for this long, then leaves the next request to start again at once: a
        # database back after a long gap is found within seconds, not a delay's length.
        "reconnect_timeout": 4.0,
    }
if "DATABASE_URL" not in os.environ and not VAR_DIR.is_dir():
    # The SQLite file would go into a directory that is not there, and connecting
    # fails inside Django's own system checks with a traceback. No database, then:
    # the check home.E001 (sites/home/checks.py) says what to create, and a query
    # fails with Django's "settings.DATABASES is improperly configured".
    DATABASES = {"default": {"ENGINE": "django.db.backends.dummy"}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Beyond one process, channels-redis's pub/sub layer: BYOA's calls between processes travel on
# it (byoa/delivery/events.py), one PUBLISH each way. Several URLs shard the channels over several
# Redis servers (channels-redis hashes each channel to one). REDIS_CHANNEL_LAYER=core keeps
# channels-redis's core layer (lists and blocking pops, several commands an event: the deploy
# page says what it costs).
if os.environ.get("REDIS_URL"):
    _REDIS_LAYERS = {
        "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "core": "channels_redis.core.RedisChannelLayer",
    }
    _REDIS_LAYER = os.environ.get("REDIS_CHANNEL_LAYER", "pubsub")
    if _REDIS_LAYER not in _REDIS_LAYERS:
        raise ImproperlyConfigured(
            f"REDIS_CHANNEL_LAYER is {_REDIS_LAYER!r}: 'pubsub' (the default) or 'core'."
        )
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _REDIS_LAYERS[_REDIS_LAYER],
            "CONFIG": {
                "hosts": [
                    {
                        "address": url.strip(),
                        # redis-py 8 gives up on a read after 5 s by default, as long as
                        # the core layer blocks in BZPOPMIN on an idle channel (5 s): an
                        # idle receive would then fail. Twice that wait still notices a
                        # Redis gone silent; a refused connection fails within 2 s.
                        "socket_timeout": 10,
                        "socket_connect_timeout": 2,
                    }
                    for url in os.environ["REDIS_URL"].split(",")
                ],
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The wallet sends frames of up to 4 MB (DESIGN.md, "Security rules"); daphne's
# default is 1 MiB. These two are read by daphne's `runserver`; the `daphne`
# command takes --websocket-max-message-size (see the Makefile).
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = MAX_FRAME_BYTES
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = MAX_FRAME_BYTES

# A strict policy: scripts and styles only from our own files, nothing inline,
# no frames, no plugins. Pages that need more say so in their own views.
# Django 6.0 brought the policy's middleware: the demos need it. The framework's
# tests run these settings on Django 5.2 too (`make matrix`), without a policy.
if django.VERSION >= (6, 0):
    from django.utils.csp import CSP
else:
    MIDDLEWARE.remove("django.middleware.csp.ContentSecurityPolicyMiddleware")
    TEMPLATES[0]["OPTIONS"]["context_processors"].remove("django.template.context_processors.csp")

    class CSP:  # the policy's keywords, as django.utils.csp spells them (the policy is unused on 5.2)
        SELF = "'self'"
        NONE = "'none'"


SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
if env_flag("DJANGO_BEHIND_TLS_PROXY"):
    # Only behind a proxy that sets this header itself: a client could send it too.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", default=env_flag("DJANGO_BEHIND_TLS_PROXY"))
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind the TLS proxy a plain-http request reached the site some other way:
# send it to https:// (nginx redirects port 80 itself; this covers the rest).
SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", default=env_flag("DJANGO_BEHIND_TLS_PROXY"))
# HSTS binds the browser to https:// for max-age, and preload the whole domain
# for good: a deployment opts in knowingly (docs/howto/deploy.md).
SECURE_HSTS_SECONDS = _env_int("DJANGO_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD")

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# The browser library (plain ES modules, no build step) is the static files of
# the visitor_ai app, as in any site; visitor_ai/static/ links to frontend/.
# The bookshop's bundled openai SDK is the demo's own, once `make` has built it.
VENDOR_DIR = BASE_DIR / "frontend" / "vendor"
STATICFILES_DIRS = [("vendor", VENDOR_DIR)] if VENDOR_DIR.is_dir() else []
# The stand-ins' scripts (testwallet/relay/): found with DEBUG on only, so production collects no test code.
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "testwallet.relay.finders.StandInFinder",
]
# In production `collectstatic` writes minified scripts (esbuild, with source maps)
# under content-hashed names, with gzip and brotli copies (visitor_ai/storage.py),
# and WhiteNoise serves them from STATIC_ROOT: hashed names cached for a year,
# immutable. With DEBUG on, {% static %} names the readable files and the ASGI
# application serves them from the apps themselves (sites/config/asgi.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "visitor_ai.storage.MinifiedManifestStaticFilesStorage",
        "OPTIONS": {
            "esbuild": BASE_DIR / "frontend" / "node_modules" / ".bin" / "esbuild",
            # Bundled and minified by `make` already (frontend/package.json, build:vendor).
            "minify_skip": ["*.min.js", "vendor/*"],
        },
    },
}
if SERVE_STATIC and not DEBUG:
    # WhiteNoise, right after SecurityMiddleware as WhiteNoise asks: static files skip the rest.
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
        "whitenoise.middleware.WhiteNoiseMiddleware",
    )
# Before the first collectstatic (tests rendering pages in-process, a server
# started without it) pages name the readable files and WhiteNoise serves them
# from the apps, as DEBUG does; `make run` collects whenever DEBUG is off.
WHITENOISE_USE_FINDERS = not (STATIC_ROOT / "staticfiles.json").is_file()
if WHITENOISE_USE_FINDERS:
    # Then no STATIC_ROOT is expected yet: WhiteNoise's warning about it says nothing.
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")
# Only the hashed names stay in STATIC_ROOT: a page that named a file by its plain
# name would get a 404 in tests rather than a second copy of a module.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
# Same-origin module scripts need no CORS header; no wildcard anywhere (DESIGN.md).
WHITENOISE_ALLOW_ALL_ORIGINS = False

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own default gives "django" a console handler of its own (DEBUG only)
        # and lets it propagate to root's too, so each warning (a 404, a 403) was
        # printed twice: here it keeps no handler, and root prints it once.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # The MCP SDK logs every request at INFO; keep the console readable.
        "mcp": {"level": "WARNING"},
    },
}

# The site's MCP tool server (see mcp_server/conf.py for every key and its default).
MCP_SERVER = {
    "NAME": "Visitor AI demo shop",
    "INSTRUCTIONS": "Tools of the Visitor AI demo bookshop: search the catalog, read a book's "
    "details, and manage the visitor's own basket.",
}

# BYOA, the direct link between a visitor's agent wallet and this server (see
# byoa/conf.py for every key and its default). Manifests are each demo app's
# manifest.json; the timings are the spec's.
BYOA = {
    "CODE_SECONDS": 120,
    "HELLO_SECONDS": 10,
    "MAX_FRAME_BYTES": DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE,
}

# The model of the by-hand stand-in wallets (`?testwallet=1`, DEBUG only; see
# testwallet/relay/): an OpenAI-compatible server the developer runs. Without
# a URL the stand-ins answer with a scripted player, labelled as such.
TESTWALLET = {
    "MODEL_URL": os.environ.get("TESTWALLET_MODEL_URL", ""),
    "MODEL": os.environ.get("TESTWALLET_MODEL", ""),
    "MODEL_KEY": os.environ.get("TESTWALLET_MODEL_KEY", ""),
    "TRANSCRIBE_URL": os.environ.get("TESTWALLET_TRANSCRIBE_URL", ""),
    "TRANSCRIBE_MODEL": os.environ.get("TESTWALLET_TRANSCRIBE_MODEL", ""),
    "TIMEOUT": os.environ.get("TESTWALLET_MODEL_TIMEOUT", "120"),
    # Recorded answers (testwallet.cassette): replay them, or record the model's into the file.
    "CASSETTE": os.environ.get("TESTWALLET_CASSETTE", ""),
    "RECORD": os.environ.get("TESTWALLET_RECORD", "none"),
    "PACING": os.environ.get("TESTWALLET_PACING", ""),
}
