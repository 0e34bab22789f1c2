"""
Compress the pages: Django's GZipMiddleware for whole responses only.

Static files come compressed already (WhiteNoise serves collectstatic's gzip and
brotli copies). Django's gzip adds random bytes to each response against BREACH,
which matters here: the pages carry CSRF tokens.
"""

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class PageGZipMiddleware(GZipMiddleware):
    """Gzip whole responses; leave streamed ones (a move's events, /byoa/wait) as they go."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        # A streamed answer must reach the page chunk by chunk, at once; its chunks are small.
        if response.streaming:
            return response
        return super().process_response(request, response)
