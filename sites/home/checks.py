"""The project's own system checks on its settings (sites/config/settings.py)."""

from pathlib import Path

from django.conf import settings
from django.core.checks import Error, register


@register
def var_dir_exists(app_configs: object = None, **kwargs: object) -> list[Error]:
    """home.E001: the SQLite database's directory, VISITOR_AI_VAR_DIR, must exist."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.dummy":
        return []
    var_dir = Path(settings.VAR_DIR)
    if var_dir.is_dir():
        return []
    return [
        Error(
            f"VISITOR_AI_VAR_DIR ({var_dir}) does not exist, and the SQLite database lives there.",
            hint=f"Create it (mkdir -p {var_dir}), writable by the server's user, or set DATABASE_URL.",
            id="home.E001",
        )
    ]
