"""
``python -m testwallet.direct '<link>'``: take one link and serve the site until it says bye,
the connection ends for good, or Ctrl-C, printing a line as it connects, answers each call and
stops (never a code, a pairing token or what a call carried). With ``--controls`` it applies the
visitor's controls read from standard input. Its options and examples: docs/reference/commands.md.
"""

import argparse
import asyncio
import contextlib
import json
import os
import sys
import threading
from collections.abc import Sequence

from testwallet._consents import Consents
from testwallet.cassette import Cassette
from testwallet.direct.backends import OpenAICompatibleBackend, ScriptedBackend, SkillBackend
from testwallet.direct.recorded import RecordedBackend
from testwallet.direct.states import Consent
from testwallet.direct.wallet import DirectWallet


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m testwallet.direct", description="A headless BYOA direct-link wallet."
    )
    parser.add_argument("link", help="the bringyourownagent://connect link")
    parser.add_argument("--consent", choices=[c.value for c in Consent], default=Consent.ALLOW.value)
    parser.add_argument(
        "--script", action="append", default=[], metavar="SKILL=JSON", help="a scripted answer"
    )
    parser.add_argument(
        "--openai-url", help="base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1"
    )
    parser.add_argument("--model", action="append", default=[], metavar="CODE=NAME", help="e.g. m1=llama3.2")
    parser.add_argument(
        "--api-key-env", default="OPENAI_API_KEY", help="environment variable with the API key"
    )
    parser.add_argument("--provider-kind", default="local-model", help="local-model, api-key, ...")
    parser.add_argument(
        "--transcriber", choices=["pocketsphinx", "whisper"], help="answer audio.transcribe offline"
    )
    parser.add_argument(
        "--vocabulary",
        action="append",
        metavar="[LANG=]FILE",
        help="phrases to hear, one a line (pocketsphinx: only these; whisper: biased toward them, per LANG)",
    )
    parser.add_argument(
        "--whisper-model", metavar="PATH", help="tiny.en, base, or a CTranslate2 Whisper model directory"
    )
    parser.add_argument(
        "--dev-local", action="store_true", help="allow ws://localhost (like BYOA_WALLET_DEV_LOCAL=1)"
    )
    parser.add_argument(
        "--consents",
        metavar="FILE",
        help="the visitor's consents shared with the extension's driver (JSON): read at start, written as they change",
    )
    parser.add_argument(
        "--controls",
        action="store_true",
        help="read the visitor's controls from standard input, one a line: pause, resume, bye, "
        'or grant {"skills": [...], "models": [...], "limits": {...}} (sent as a grant frame)',
    )
    args = parser.parse_args(argv)
    if args.vocabulary and not args.transcriber:
        parser.error("--vocabulary needs --transcriber")
    if args.whisper_model and args.transcriber != "whisper":
        parser.error("--whisper-model needs --transcriber whisper")
    if (
        args.transcriber == "pocketsphinx"
        and args.vocabulary
        and (len(args.vocabulary) > 1 or "=" in args.vocabulary[0])
    ):
        parser.error("--transcriber pocketsphinx takes one --vocabulary FILE (English only)")
    if args.transcriber and (args.openai_url or args.script):
        parser.error("--transcriber answers alone: drop --openai-url and --script")
    return args


def model_from_environment(args: argparse.Namespace) -> argparse.Namespace:
    """Fill --openai-url, --model and the key from TESTWALLET_MODEL_* when the command names no backend."""
    url = os.environ.get("TESTWALLET_MODEL_URL")
    if args.openai_url or args.transcriber or args.script or not url:
        return args
    args.openai_url = url
    if not args.model and os.environ.get("TESTWALLET_MODEL"):
        args.model = [f"m1={os.environ['TESTWALLET_MODEL']}"]
    if not os.environ.get(args.api_key_env) and os.environ.get("TESTWALLET_MODEL_KEY"):
        args.api_key_env = "TESTWALLET_MODEL_KEY"
    return args


def build_backend(args: argparse.Namespace) -> SkillBackend:
    transcriber = build_transcriber(args)
    if transcriber is not None:
        # TESTWALLET_CASSETTE: each clip answered from a recording by its hash, or heard and recorded.
        cassette = Cassette.from_environment()
        return RecordedBackend(transcriber, cassette) if cassette else transcriber
    return build_model(args)


def build_transcriber(args: argparse.Namespace) -> SkillBackend | None:
    """Return the transcriber --transcriber names, or None."""
    if args.transcriber == "whisper":
        from testwallet.direct.whisper import DEFAULT_MODEL, WhisperBackend, read_vocabularies

        vocabulary = read_vocabularies(args.vocabulary) if args.vocabulary else None
        return WhisperBackend(args.whisper_model or DEFAULT_MODEL, vocabulary=vocabulary)
    if args.transcriber:
        from testwallet.direct.transcriber import PocketSphinxBackend, read_vocabulary

        return PocketSphinxBackend(read_vocabulary(args.vocabulary[0]) if args.vocabulary else None)
    return None


def build_model(args: argparse.Namespace) -> SkillBackend:
    """Return the model server's backend, or the script's."""
    # TESTWALLET_CASSETTE: text.generate answered from a recording (replay only needs no model server).
    key = os.environ.get(args.api_key_env) or ""
    cassette = Cassette.from_environment(secrets=[key]) if not args.script else None
    if args.openai_url or cassette:
        models = dict(item.split("=", 1) for item in args.model) or {"m1": "default"}
        return OpenAICompatibleBackend(
            args.openai_url or "",
            models,
            api_key=key or None,
            provider_kind=args.provider_kind,
            cassette=cassette,
        )
    script = {}
    for item in args.script:
        skill, _, answer = item.partition("=")
        script[skill] = json.loads(answer)
    return ScriptedBackend(script)


def say(line: str) -> None:
    """Print one line of what the wallet does at once (never a code, a token or call content)."""
    print(line, flush=True)


async def run(args: argparse.Namespace, backend: SkillBackend, consents: Consents | None = None) -> int:
    wallet = DirectWallet(
        backend, consent=args.consent, dev_local=args.dev_local or None, report=say, consents=consents
    )
    connected = False
    try:
        connected = await wallet.open(args.link)
        save_consents(args, wallet)
        if connected:
            controls = asyncio.ensure_future(read_controls(wallet, args)) if args.controls else None
            await wallet.closed.wait()
            if controls is not None:
                controls.cancel()
    finally:
        await wallet.close()
        save_consents(args, wallet)
    return 0 if connected else 1


def read_consents(args: argparse.Namespace) -> Consents | None:
    """Return the consents --consents names (none yet when its file does not exist), or None."""
    if not args.consents:
        return None
    try:
        return Consents.load(args.consents)
    except FileNotFoundError:
        return Consents()
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        raise ValueError(f"--consents {args.consents}: {exc}") from None


def save_consents(args: argparse.Namespace, wallet: DirectWallet) -> None:
    """Write the wallet's consents to the --consents file, when one is named."""
    if args.consents:
        wallet.consents.save(args.consents)


async def read_controls(wallet: DirectWallet, args: argparse.Namespace) -> None:
    """Apply the visitor's controls, one a line of standard input, until it ends (the wallet serves on)."""
    lines: asyncio.Queue[str] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def read() -> None:  # a daemon thread: a wallet that stops never waits for a line
        with contextlib.suppress(RuntimeError):  # the wallet stopped, and its loop with it
            for line in sys.stdin:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            loop.call_soon_threadsafe(lines.put_nowait, "")

    threading.Thread(target=read, daemon=True).start()
    while line := await lines.get():
        command, _, rest = line.strip().partition(" ")
        try:
            if command == "pause":
                await wallet.pause()
            elif command == "resume":
                wallet.resume()
            elif command == "bye":
                await wallet.close()
            elif command == "grant":
                change = json.loads(rest)
                if not isinstance(change, dict) or set(change) - {"skills", "models", "limits"}:
                    raise ValueError('a grant change is {"skills": [...], "models": [...], "limits": {...}}')
                await wallet.change_grant(**change)
            else:
                raise ValueError(f"unknown control {command!r}: pause, resume, bye or grant JSON")
        except (ValueError, RuntimeError) as exc:  # json.JSONDecodeError is a ValueError
            say(f"control refused: {exc}")
        save_consents(args, wallet)


def main(argv: Sequence[str] | None = None) -> int:
    args = model_from_environment(parse_args(sys.argv[1:] if argv is None else argv))
    try:
        consents = read_consents(args)
        backend = build_backend(args)
    except (ImportError, OSError, ValueError) as exc:  # a missing extra, an unreadable or unusable vocabulary
        print(f"python -m testwallet.direct: error: {exc}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(args, backend, consents))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
