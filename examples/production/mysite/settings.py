"""
A site of your own in production: startproject's settings with Visitor AI, read from the
environment. docs/howto/deploy.md shows its parts; tests/deploy/test_own_site.py runs
``check --deploy`` on it and serves it on two processes behind nginx.
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

# One key and one host list for every process: a cookie signed by one is valid on all.
SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = os.environ["DJANGO_ALLOWED_HOSTS"].split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "visitor_ai",
    "mcp_server",
    "byoa",
]

# -- static files --
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # right after SecurityMiddleware, as WhiteNoise asks
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
STATIC_URL = "static/"
STATIC_ROOT = os.environ["STATIC_ROOT"]  # collectstatic writes here; nginx (or WhiteNoise) serves it
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "visitor_ai.storage.MinifiedManifestStaticFilesStorage",
        "OPTIONS": {"esbuild": os.environ.get("ESBUILD", "esbuild")},  # `npm install esbuild`
    },
}
# -- end static files --

ROOT_URLCONF = "mysite.urls"
ASGI_APPLICATION = "mysite.asgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# -- database --
# PostgreSQL through psycopg's pool (the scale extra installs it), one per process:
# each connection is checked before a request gets it, and a request waits at most 5 s for one.
DATABASES = {"default": dj_database_url.config(conn_max_age=0, conn_health_checks=True)}
DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 1, "max_size": 10, "timeout": 5.0}}
# -- end database --

# -- channel layer --
# Calls to a wallet connected to another process travel on it (channels-redis: the scale extra).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [os.environ["REDIS_URL"]]},
    }
}
# -- end channel layer --

# -- security behind a TLS proxy --
# nginx ends TLS and says so in X-Forwarded-Proto; only a proxy that sets it itself may be trusted.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 31536000  # a year of https only; start lower while you try it
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
# Preloading binds the whole domain to https for good: opt in knowingly (then drop the silence).
SILENCED_SYSTEM_CHECKS = ["security.W021"]
# -- end security --

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
