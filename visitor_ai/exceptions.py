"""
The errors of the browser library's static files::

    ImproperlyConfigured
    └── MinifierNotFound
    RuntimeError
    ├── MinifierFailed
    └── UnhashedImport
"""

from django.core.exceptions import ImproperlyConfigured

__all__ = ["MinifierFailed", "MinifierNotFound", "UnhashedImport"]


class MinifierNotFound(ImproperlyConfigured):
    """Raised by collectstatic when the esbuild it minifies scripts with is not there."""


class MinifierFailed(RuntimeError):
    """Raised by collectstatic when esbuild could not start or could not minify a script."""


class UnhashedImport(RuntimeError):
    """Raised by collectstatic when a collected module still imports a file by its unhashed name.

    The page would then load that file twice, under two names (two copies of its state).
    """
