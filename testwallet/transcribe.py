"""
A small OpenAI-compatible transcription server on this machine, with the headless wallet's Whisper.
It is what ``TESTWALLET_TRANSCRIBE_URL`` names so that ``?testwallet=1`` hears a visitor with no
extension and no model server of their own (``pip install 'visitor-ai[whisper]'``, then
``python -m testwallet.transcribe --port 8765``). It answers ``POST /v1/audio/transcriptions``
as OpenAI's API does, for WAV clips of 16 kHz mono 16-bit PCM, on loopback unless ``--host``
says otherwise. Its form fields and options: docs/explanation/testwallet.md.
"""

from __future__ import annotations

import argparse
import base64
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from testwallet.direct.exceptions import BackendError
from visitor_ai.limits import BodyLimit

if TYPE_CHECKING:  # starlette comes with mcp; the backend needs the whisper extra
    from testwallet.direct.backends import Backend

__all__ = ["application", "main"]

#: A 15 s clip is 480 kB; a minute of the same audio is under 2 MB.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: The largest request body read: the file and the form's other fields and boundaries.
MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024
FORMATS = ("json", "text")


def application(backend: Backend) -> BodyLimit:
    """Return the ASGI application answering transcriptions with ``backend`` (a ``WhisperBackend``).

    A body over ``MAX_BODY_BYTES`` is refused with 413 as it arrives (``visitor_ai.limits``): the
    multipart parser would otherwise spool a chunked body of any size to the temporary directory.
    """
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    def refuse(message: str, status: int = 400) -> Response:
        # OpenAI's error shape, which its SDK turns into an APIStatusError carrying this message.
        return JSONResponse(
            {"error": {"message": message, "type": "invalid_request_error"}}, status_code=status
        )

    async def transcriptions(request: Request) -> Response:
        try:
            form = await request.form(max_files=1, max_fields=10)
        except Exception:  # starlette raises its own and python-multipart's errors for a bad form
            return refuse("Send a multipart/form-data body with a file field.")
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            return refuse("The form has no file: send the clip as the file field.")
        data = await upload.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            return refuse(f"The file is over {MAX_FILE_BYTES} bytes.", 413)
        language = form.get("language") or None
        response_format = form.get("response_format") or "json"
        if response_format not in FORMATS:
            return refuse(f"response_format is one of {', '.join(FORMATS)}; this server gives no other.")
        clip = {"audio": {"mime": "audio/wav", "base64": base64.b64encode(data).decode("ascii")}}
        try:
            output = await backend.run("audio.transcribe", clip, {"language": language} if language else {})
        except BackendError as exc:
            return refuse(f"{exc}. The file must be a WAV of 16 kHz mono 16-bit PCM.")
        if response_format == "text":
            return PlainTextResponse(output["text"])
        return JSONResponse({"text": output["text"]})

    routes = [Route("/v1/audio/transcriptions", transcriptions, methods=["POST"])]
    # Starlette's own signature is narrower than asgiref's ASGI3Application, which it serves.
    return BodyLimit(Starlette(routes=routes), max_bytes=MAX_BODY_BYTES)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    """Serve transcriptions until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m testwallet.transcribe", description=__doc__.splitlines()[1]
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--model", default=None, help="tiny.en, base, or a CTranslate2 Whisper model directory"
    )
    parser.add_argument(
        "--vocabulary",
        action="append",
        metavar="[LANG=]FILE",
        help="phrases, one a line: an answer in LANG (any language without LANG=) is one of them or empty",
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="CPU threads for the model (0: CTranslate2's default)"
    )
    args = parser.parse_args(argv)
    from testwallet.direct.whisper import DEFAULT_MODEL, WhisperBackend, read_vocabularies

    try:
        backend = WhisperBackend(
            args.model or DEFAULT_MODEL,
            vocabulary=read_vocabularies(args.vocabulary) if args.vocabulary else None,
            cpu_threads=args.threads,
        )
    except (ImportError, OSError, ValueError) as exc:
        print(f"python -m testwallet.transcribe: error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    print(f"transcriptions at http://{args.host}:{args.port}/v1 (TESTWALLET_TRANSCRIBE_URL)", flush=True)
    uvicorn.run(application(backend), host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
