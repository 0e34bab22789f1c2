"""
The headless wallet's transcribers on the same spoken clips: accuracy and CPU per
clip per language, free-form and with the full vocabulary (every CLDR country
name of the language), today's Whisper matcher beside the hotwords method it
replaced (issue 42); and the time from the end of speech to the verdict
through the page, per language.

    nice -n 10 .venv/bin/python benchmarks/transcribers.py [--limit 20] [--old-clips 3] [--threads 1]
        [--no-page] [--answers 5] [--transcribers ...] [--vocabulary-only] [--jobs 1] [--misses]

What it does:

1. espeak-ng says the name of each of the game's countries (the first ``--limit``
   of its 83, 20 unless told) in English (en-us), Russian and Slovak: CLDR's name
   in that language;
2. "direct": that clip as it is (0.3 s of silence around the speech);
   "page": the same speech (1.5 s of silence around it) played by Chromium's fake
   microphone to the page's recorder (frontend/byoa/recorder.js, the AudioWorklet
   that the geography page uses), which stops by itself after 1.5 s of silence,
   one Chromium per clip; the clip it hands over is what a wallet would get;
3. each transcriber runs in its own process (so its memory is its own) on every
   clip of the languages it hears: PocketSphinx (English only; the vocabulary is the
   names in its dictionary, the others count as misses), Whisper tiny.en (English
   only), Whisper base (testwallet.direct.whisper: with a vocabulary, one decode and
   the phrase it matches), and "whisper base hotwords", the method before issue 42
   (the vocabulary as Whisper's prompt, one decode per prompt-sized part, faster-whisper's
   temperature fallback), on the first ``--old-clips`` clips of each language only
   (3 unless told: it takes about a minute a Russian clip); free-form, then with
   the vocabulary: every CLDR country name of the language (babel's, as the game
   has them, about 250); a clip counts as right when the game's own scoring
   (sites/geography/scoring.py) judges its transcript correct;
4. end to end (unless ``--no-page``): per language, the geography page on a real
   daphne paired over the direct link with a headless wallet running Whisper base
   with the full vocabulary; ``--answers`` answers by voice, each timed by the page's
   ``geography:clip-to-verdict`` (from the recorder's clip to the verdict on the
   page); the end of speech is 1.5 s before the clip (the recorder's silence wait).

CPU per clip is the median over the clips of the decoding's CPU time in the
transcriber's process (the model loaded before; what the clip costs whatever else
runs on the machine), beside the mean wall time; memory is the process's peak
resident size, with the model loaded. CTranslate2's and OpenMP's threads are set
to ``--threads`` (1 unless told).
"""

import argparse
import asyncio
import base64
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")

LANGUAGES = ("en", "ru", "sk")
VOICES = {"en": "en-us", "ru": "ru", "sk": "sk"}
#: name -> the languages it hears
TRANSCRIBERS = {
    "pocketsphinx": ("en",),
    "whisper tiny.en": ("en",),
    "whisper base": LANGUAGES,
    "whisper base hotwords": LANGUAGES,
}
#: The method before issue 42, measured on the first --old-clips clips of each language only.
OLD = "whisper base hotwords"
#: Whisper's prompt holds half its 448-token context, less one token (faster-whisper cuts the rest off).
PROMPT_TOKENS = 223


def setup_django():
    import django

    django.setup()


def countries(limit):
    from sites.geography import places

    return sorted({place.country for place in places.all_places().values()})[:limit]


def name(country, language):
    from sites.geography import names

    return names.display_name(country, language)


def full_vocabulary(language):
    """Every CLDR country name of a language, as the game has them (babel's): what a player gives the wallet."""
    from sites.geography import names

    return [name(code, language) for code in sorted(names.accepted_names(language))]


# -- clips ---------------------------------------------------------------------------------


def direct_clips(folder, codes):
    from testwallet.speech import spoken_wav

    for language in LANGUAGES:
        for code in codes:
            path = folder / "direct" / f"{language}-{code}.wav"
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                spoken_wav(name(code, language), path, voice=VOICES[language], pad_seconds=0.3)


RECORD = """async () => {
  const { record } = await import('/static/byoa/recorder.js');
  const recording = await record({});
  const clip = await recording.done;
  let text = '';
  for (const byte of clip.wav) text += String.fromCharCode(byte);
  return { wav: btoa(text), stoppedBy: clip.stoppedBy };
}"""


async def page_clips(folder, codes, url):
    """Record each spoken name through the page's recorder in Chromium (one browser per clip)."""
    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
    from testwallet.speech import spoken_wav

    async with async_playwright() as playwright:
        for language in LANGUAGES:
            for code in codes:
                path = folder / "page" / f"{language}-{code}.wav"
                if path.exists():
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                speech = trailing_silence(
                    spoken_wav(
                        name(code, language), folder / "said.wav", voice=VOICES[language], pad_seconds=1.5
                    ),
                    5,
                )
                args = [
                    *CHROMIUM_ARGS,
                    "--use-fake-ui-for-media-stream",
                    "--use-fake-device-for-media-stream",
                    f"--use-file-for-fake-audio-capture={speech}",
                    "--autoplay-policy=no-user-gesture-required",
                ]
                for _attempt in range(5):
                    # The fake microphone loops the file from the browser's start: a recording that
                    # began inside the name holds only its end, so it is made again.
                    browser = await playwright.chromium.launch(
                        executable_path=chromium_executable(), args=args
                    )
                    try:
                        page = await browser.new_page()
                        await page.goto(url + "/geography/")
                        clip = await page.evaluate(RECORD)
                    finally:
                        await browser.close()
                    if began_in_silence(base64.b64decode(clip["wav"])):
                        break
                path.write_bytes(base64.b64decode(clip["wav"]))


def trailing_silence(path, seconds):
    """Add ``seconds`` of silence at the end of a 16 kHz WAV file; return the path."""
    import wave

    with wave.open(str(path), "rb") as clip:
        frames = clip.readframes(clip.getnframes())
    with wave.open(str(path), "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(2)
        clip.setframerate(16000)
        clip.writeframes(frames + bytes(2 * 16000 * seconds))
    return path


def began_in_silence(data):
    """Return whether a WAV clip starts with 0.1 s of silence (it holds the whole name, not its end)."""
    import io
    import wave
    from array import array

    with wave.open(io.BytesIO(data)) as clip:
        start = array("h", clip.readframes(1600))
    return max(map(abs, start), default=0) < 300


# -- one transcriber, in its own process ---------------------------------------------------------


def build(transcriber, vocabulary, threads):
    if transcriber == "pocketsphinx":
        from testwallet.direct.transcriber import PocketSphinxBackend

        if vocabulary is None:
            return PocketSphinxBackend()
        known = PocketSphinxBackend()  # its dictionary decides which names it can be given
        words = [
            p
            for p in vocabulary.get("en", [])
            if all(known.decoder.lookup_word(w) for w in p.casefold().replace("&", " ").split())
        ]
        return PocketSphinxBackend([p for p in words if p.replace(" ", "").replace("-", "").isalpha()])
    from testwallet.direct.whisper import WhisperBackend

    if transcriber == OLD:
        return hotwords_backend_class()("base", vocabulary=vocabulary, cpu_threads=threads)
    return WhisperBackend(transcriber.split()[1], vocabulary=vocabulary, cpu_threads=threads)


def folded(text):
    return " ".join(re.findall(r"\w+", text.casefold()))


def hotwords_backend_class():
    """Return the Whisper backend as it was before issue 42, for comparison (imported only when measured)."""
    from testwallet.direct.whisper import ANY_LANGUAGE, DECODING, WhisperBackend

    class Hotwords(WhisperBackend):
        """The vocabulary as Whisper's prompt (``hotwords``), split into prompt-sized parts, one decode
        each with faster-whisper's temperature fallback; a text that is one of the phrases wins, else
        the surest text."""

        def transcribe(self, samples, language):
            import numpy

            audio = numpy.frombuffer(samples[: len(samples) // 2 * 2], dtype="<i2").astype(numpy.float32)
            audio /= 32768.0
            book = self.vocabularies.get(language or "") or self.vocabularies.get(ANY_LANGUAGE)
            if book is None:
                return self._free(audio, language)
            heard = []
            for prompt in self.prompts(list(book.phrases)):
                segments = list(
                    self.model.transcribe(audio, **DECODING, language=language, hotwords=prompt)[0]
                )
                if not segments:
                    return ""
                text = "".join(segment.text for segment in segments).strip()
                logprob = sum(segment.avg_logprob for segment in segments) / len(segments)
                # A text that is one of this part's phrases wins over a surer near miss.
                heard.append((folded(text) in {folded(p) for p in prompt.split(", ")}, logprob, text))
            return max(heard)[2]

        def prompts(self, phrases):
            tokenizer = self.model.hf_tokenizer
            parts, current = [], []
            for phrase in phrases:
                trial = ", ".join([*current, phrase])
                if current and len(tokenizer.encode(" " + trial).ids) >= PROMPT_TOKENS:
                    parts.append(", ".join(current))
                    current = [phrase]
                else:
                    current.append(phrase)
            return [*parts, ", ".join(current)]

    return Hotwords


def worker(options):
    """Transcribe every clip with one transcriber; print one JSON line of results."""
    setup_django()
    from sites.geography import names, scoring

    codes = countries(options.limit)
    if options.worker == OLD:
        codes = codes[: options.old_clips]
    languages = TRANSCRIBERS[options.worker]
    vocabulary = {language: full_vocabulary(language) for language in languages}
    results = []
    for biased in (True,) if options.worker == OLD or options.vocabulary_only else (False, True):
        backend = build(options.worker, vocabulary if biased else None, options.threads)
        for source in options.sources:
            for language in languages:
                prepared = scoring.prepare(names.accepted_names(language))
                right, seconds, cpu_seconds, misses = 0, [], [], []
                for code in codes:
                    data = (Path(options.clips) / source / f"{language}-{code}.wav").read_bytes()
                    clip = {"audio": {"mime": "audio/wav", "base64": base64.b64encode(data).decode()}}
                    started, cpu_started = time.perf_counter(), time.process_time()
                    text = asyncio.run(backend.run("audio.transcribe", clip, {"language": language}))["text"]
                    seconds.append(time.perf_counter() - started)
                    cpu_seconds.append(time.process_time() - cpu_started)
                    if scoring.judge(text, code, prepared).outcome is scoring.Outcome.CORRECT:
                        right += 1
                    else:
                        misses.append(f"{name(code, language)} -> {text!r}")
                results.append(
                    {
                        "transcriber": options.worker,
                        "vocabulary": biased,
                        "source": source,
                        "language": language,
                        "right": right,
                        "clips": len(codes),
                        "seconds": statistics.mean(seconds),
                        "cpu_seconds": statistics.median(cpu_seconds),
                        "misses": misses,
                    }
                )
        del backend
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"results": results, "peak_mb": peak_mb}))


# -- end to end ------------------------------------------------------------------------------


async def end_to_end(url, answers, threads, folder):
    """Return {language: [clip-to-verdict ms]} for answers by voice through the link to Whisper base
    with the full vocabulary."""
    from playwright.async_api import async_playwright

    from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
    from testwallet.direct import DirectWallet
    from testwallet.direct.whisper import WhisperBackend
    from testwallet.speech import spoken_wav

    spoken = {"en": "AR", "ru": "DE", "sk": "DE"}
    vocabulary = {language: full_vocabulary(language) for language in LANGUAGES}
    backend = WhisperBackend("base", vocabulary=vocabulary, cpu_threads=threads)
    times = {}
    async with async_playwright() as playwright:
        for language, code in spoken.items():
            speech = trailing_silence(
                spoken_wav(
                    name(code, language),
                    folder / f"e2e-{language}.wav",
                    voice=VOICES[language],
                    pad_seconds=1.5,
                ),
                5,
            )
            args = [
                *CHROMIUM_ARGS,
                "--use-fake-ui-for-media-stream",
                "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-audio-capture={speech}",
            ]
            browser = await playwright.chromium.launch(executable_path=chromium_executable(), args=args)
            try:
                page = await browser.new_page()
                await page.goto(url + "/geography/")
                await page.get_by_label("I answer in").select_option(language)
                await page.wait_for_function(
                    "l => document.querySelector('#language').value === l", arg=language
                )
                await page.locator("#wallet-link").click()
                link = page.locator("#open-wallet")
                await link.wait_for(timeout=10000)
                wallet = DirectWallet(backend, dev_local=True)
                if not await wallet.open(await link.get_attribute("href")):
                    raise RuntimeError(f"the headless wallet did not connect: {wallet.activity}")
                await page.locator("#link-state", has_text="Connected.").wait_for(timeout=10000)
                times[language] = []
                for done in range(answers):
                    await page.locator("#speak").dispatch_event("click")
                    await page.wait_for_function(
                        "n => performance.getEntriesByName('geography:clip-to-verdict').length > n || "
                        "document.querySelector('#mode').dataset.mode === 'own'",
                        arg=done,
                        timeout=120000,
                    )
                    if await page.locator("#mode").get_attribute("data-mode") == "own":
                        # The server's call timed out (BYOA CALL_SECONDS): the page went its own way.
                        times[language].append(None)
                        break
                    times[language].append(
                        await page.evaluate(
                            "n => performance.getEntriesByName('geography:clip-to-verdict')[n].duration", done
                        )
                    )
                await wallet.close()
            finally:
                await browser.close()
    return times


# -- the table -------------------------------------------------------------------------------


def start_worker(name_, options, clips, sources):
    command = [
        sys.executable,
        __file__,
        "--worker",
        name_,
        "--clips",
        str(clips),
        "--limit",
        str(options.limit),
        "--old-clips",
        str(options.old_clips),
        "--threads",
        str(options.threads),
        "--sources",
        *sources,
        *(["--vocabulary-only"] if options.vocabulary_only else []),
    ]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(name_, process):
    """Return a worker's results once it has ended; raise with its error output if it failed."""
    stdout, stderr = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"{name_} failed:\n{stderr[-3000:]}")
    return json.loads(stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--limit", type=int, default=20, help="the first N of the game's 83 countries")
    parser.add_argument(
        "--old-clips",
        type=int,
        default=3,
        help=f"the first N clips of each language only for {OLD!r}, the method before issue 42 (slow)",
    )
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--jobs", type=int, default=1, help="transcribers measured at once, each in its process"
    )
    parser.add_argument(
        "--vocabulary-only", action="store_true", help="only with the full vocabulary (no free-form rows)"
    )
    parser.add_argument("--no-page", action="store_true", help="only the direct clips, no Chromium")
    parser.add_argument("--answers", type=int, default=5, help="end-to-end answers per language")
    parser.add_argument("--clips", help="keep the clips in this folder (made once)")
    parser.add_argument("--transcribers", nargs="*", default=list(TRANSCRIBERS))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--sources", nargs="*", default=["direct"], help=argparse.SUPPRESS)
    parser.add_argument("--misses", action="store_true", help="print what each transcriber heard wrong")
    options = parser.parse_args()
    for variable in ("OMP_NUM_THREADS", "CT2_INTER_THREADS"):
        os.environ[variable] = str(options.threads)
    if options.worker:
        return worker(options)
    setup_django()
    codes = countries(options.limit)
    options.limit = len(codes)
    with tempfile.TemporaryDirectory() as scratch:
        clips = Path(options.clips or scratch)
        direct_clips(clips, codes)
        sources = ["direct"]
        e2e = {}
        if not options.no_page:
            from testwallet.server import DaphneServer

            (Path(scratch) / "daphne").mkdir()
            with DaphneServer(
                "sites.config.asgi:application",
                env={"DJANGO_DEBUG": "1", "DJANGO_LOG_LEVEL": "WARNING"},
                workdir=Path(scratch) / "daphne",
            ) as server:
                asyncio.run(page_clips(clips, codes, server.url))
                sources.append("page")
                if options.answers:
                    e2e = asyncio.run(end_to_end(server.url, options.answers, options.threads, Path(scratch)))
        rows = []
        waiting = list(options.transcribers)
        running = {}
        while waiting or running:
            # Each transcriber in a process of its own, --jobs at a time: its CPU seconds are its own.
            while waiting and len(running) < options.jobs:
                name_ = waiting.pop(0)
                running[name_] = start_worker(name_, options, clips, sources)
            name_ = next(iter(running))
            measured = finished(name_, running.pop(name_))
            rows.extend({**row, "peak_mb": measured["peak_mb"]} for row in measured["results"])
    print(
        f"{len(codes)} country names per language, espeak-ng voices {', '.join(VOICES.values())}; "
        f"{options.threads} thread(s); right = the game's scoring says correct; vocabulary = every CLDR "
        f"country name of the language ({', '.join(f'{lang} {len(full_vocabulary(lang))}' for lang in LANGUAGES)}); "
        f"cpu s = median CPU seconds per clip; {OLD!r} = the method before issue 42, on the first "
        f"{min(options.old_clips, len(codes))} clips of each language only (--old-clips)"
    )
    print(
        f"{'transcriber':<22} {'vocabulary':<10} {'clips':<7} {'language':<8} {'right':>7} "
        f"{'cpu s':>6} {'wall s':>7} {'peak MB':>8}"
    )
    for transcriber in options.transcribers:
        for biased in (False, True):
            for source in sources:
                for language in LANGUAGES:
                    for r in rows:
                        if (r["transcriber"], r["vocabulary"], r["source"], r["language"]) != (
                            transcriber,
                            biased,
                            source,
                            language,
                        ):
                            continue
                        print(
                            f"{transcriber:<22} {'full' if biased else 'no':<10} {source:<7} {language:<8} "
                            f"{r['right']:>3}/{r['clips']:<3} {r['cpu_seconds']:6.2f} {r['seconds']:7.2f} "
                            f"{r['peak_mb']:8.0f}"
                        )
    if options.misses:
        for row in rows:
            print(
                f"\n{row['transcriber']} vocabulary={row['vocabulary']} {row['source']} {row['language']}: "
                + "; ".join(row["misses"])
            )
    if e2e:
        print(
            "\nend of speech -> verdict on the page, through the direct link to Whisper base with the full "
            "vocabulary "
            "(clip-to-verdict + the recorder's 1.5 s silence wait)"
        )
        for language, measured in e2e.items():
            times = [t for t in measured if t is not None]
            late = len(measured) - len(times)
            if not times:
                print(f"{language}: no answer within the server's call timeout")
                continue
            print(
                f"{language}: n={len(times)} clip-to-verdict p50={statistics.median(times):.0f} ms "
                f"(min {min(times):.0f}, max {max(times):.0f}); end of speech -> verdict p50="
                f"{statistics.median(times) + 1500:.0f} ms"
                + (f"; {late} over the call timeout" if late else "")
            )


if __name__ == "__main__":
    main()
