"""
System checks of the stand-ins' model relay, run by ``manage.py check``.

    testwallet.E001  settings.TESTWALLET has a value the relay cannot use
"""

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from sites.home.relay.conf import relay_settings


@checks.register("testwallet")
def check_relay_settings(app_configs, **kwargs):
    """Report a TESTWALLET setting (TESTWALLET_MODEL_* variable) the relay cannot use."""
    try:
        relay_settings()
    except ImproperlyConfigured as error:
        return [
            checks.Error(
                str(error),
                hint="Fix the TESTWALLET_MODEL_* environment variable (README, Configuration), or unset it.",
                id="testwallet.E001",
            )
        ]
    return []
