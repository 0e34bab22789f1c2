"""
The relay's views. Each refuses, in this order: DEBUG off (404, as if it did not
exist), a client not on this machine (403: the client's address, and every
address a proxy forwarded, must be loopback), another site (Sec-Fetch-Site,
Origin: 403), another browser (the relay token the base template gave this
browser's pages: 403), a body over its bound (413). Django's CSRF middleware has
refused a request without the page's CSRF token before that.

Loopback only, because the other checks stop only a browser: a script sets
``Origin`` and ``Sec-Fetch-Site`` as it likes and copies the token from the page.
"""

import base64
import binascii
import ipaddress
import json
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_POST

from testwallet.relay import recorded, token, upstream, wallet
from testwallet.relay.conf import relay_settings
from testwallet.relay.exceptions import RelayError

#: A chat with its tools and a few tool results; far more than the demos send.
MAX_CHAT_BYTES = 512 * 1024
#: A 15 s, 16 kHz mono 16-bit clip is 480 KB, 640 KB in base64.
MAX_TRANSCRIBE_BYTES = 1024 * 1024


def _error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"message": message, "status": status}}, status=status)


async def _refusal(request: HttpRequest, max_bytes: int) -> JsonResponse | None:
    """Return the response that refuses this request, or None when the relay may serve it."""
    if not settings.DEBUG:
        raise Http404("The test-wallet relay exists only with DEBUG on")
    if not _from_this_machine(request):
        return _error("The test-wallet relay serves only a browser on this machine (loopback)", 403)
    own = f"{request.scheme}://{request.get_host()}"
    fetch_site = request.headers.get("Sec-Fetch-Site", "same-origin")
    if fetch_site != "same-origin" or request.headers.get("Origin") != own:
        return _error("The test-wallet relay serves only this site's own pages", 403)
    if not await token.carries_session_token(request):
        return _error(
            "The test-wallet relay serves only the pages of the browser that turned the test wallet on", 403
        )
    try:
        length = int(request.headers.get("Content-Length", ""))
    except ValueError:
        return _error("The test-wallet relay needs the request's Content-Length", 411)
    if length > max_bytes:
        return _error(f"The request is {length} bytes; the test-wallet relay takes at most {max_bytes}", 413)
    return None


def _from_this_machine(request: HttpRequest) -> bool:
    """Return True when the client and every address a proxy forwarded for it are loopback addresses."""
    # A client may write its own X-Forwarded-For, but a proxy appends the address it saw: a
    # client elsewhere is in the list however it starts.
    forwarded = request.headers.get("X-Forwarded-For", "")
    addresses = [request.META.get("REMOTE_ADDR", ""), *filter(None, map(str.strip, forwarded.split(",")))]
    try:
        return all(ipaddress.ip_address(address).is_loopback for address in addresses)
    except ValueError:  # not an address (a unix socket's "", a proxy's "unknown")
        return False


def _json_body(request: HttpRequest) -> dict[str, Any]:
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise RelayError("The request body is not JSON", 400) from None
    if not isinstance(body, dict):
        raise RelayError("The request body must be a JSON object", 400)
    return body


@require_POST
async def chat(request: HttpRequest) -> HttpResponseBase:
    """
    Answer one AI Wallet chat (its params, as the page gave the wallet them) with the wallet's
    events, as JSON Lines while the model streams (testwallet.relay.wallet says the wire).
    """
    refused = await _refusal(request, MAX_CHAT_BYTES)
    if refused:
        return refused
    try:
        params = wallet.chat_params(_json_body(request))
        events = await wallet.chat(relay_settings(), params)
    except RelayError as error:
        return _error(error.message, error.status)
    response = StreamingHttpResponse(wallet.lines(events), content_type=wallet.EVENTS_TYPE)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must not hold the stream back
    return response


@require_POST
async def generate(request: HttpRequest) -> HttpResponseBase:
    """Answer one ``text.generate`` (``{input, params}``, as window.byoa got them) with ``{text}``."""
    refused = await _refusal(request, MAX_CHAT_BYTES)
    if refused:
        return refused
    try:
        return JsonResponse({"text": await wallet.generate(relay_settings(), _json_body(request))})
    except RelayError as error:
        return _error(error.message, error.status)


@require_POST
async def transcribe(request: HttpRequest) -> HttpResponseBase:
    """Transcribe one WAV clip (`{audio: {mime, base64}, language?}`) with the developer's server."""
    refused = await _refusal(request, MAX_TRANSCRIBE_BYTES)
    if refused:
        return refused
    conf = relay_settings()
    try:
        if not conf.transcribe_url and not conf.cassette:
            raise RelayError("No transcription server is named (TESTWALLET_TRANSCRIBE_URL)", 404)
        body = _json_body(request)
        audio = body.get("audio")
        if (
            not isinstance(audio, dict)
            or audio.get("mime") != "audio/wav"
            or not isinstance(audio.get("base64"), str)
        ):
            raise RelayError("A transcription request carries audio: {mime: 'audio/wav', base64}", 400)
        try:
            wav = base64.b64decode(audio["base64"], validate=True)
        except (binascii.Error, ValueError):
            raise RelayError("The audio is not base64", 400) from None
        language = body.get("language") if isinstance(body.get("language"), str) else None
        if conf.cassette:
            return JsonResponse(await recorded.transcribe(conf, wav, language))
        return JsonResponse(await upstream.transcribe(conf, wav, language))
    except RelayError as error:
        return _error(error.message, error.status)
