"""The settings autodoc imports the framework's apps with: theirs alone, no demo site's."""

SECRET_KEY = "the docs build serves nothing"
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
    "testwallet.relay",
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
USE_TZ = True
