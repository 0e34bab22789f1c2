"""
Fixtures of the geography browser tests: Chromium with a fake microphone that
plays speech made by Debian's espeak-ng, and the answer to the question a page shows.
"""

import shutil
import subprocess

import pytest
import pytest_asyncio

from sites.geography import names, places

# The tests that play speech into a page wait as long as it plays (a clip records in real time, up
# to its 15 s cap): under `make test` they run one after another on one worker (tests/scheduling.py
# hands a group out before the modules), beside workers that use the CPU, not three of them waiting
# at once with the cores idle.
MICROPHONE = pytest.mark.xdist_group("microphone")

# A long run of words with no pause of a second or more: the recorder never
# stops on silence by itself, so a test stops it (or lets the 15 s cap do it).
SPEECH = ", ".join(["Peru"] * 60)


@pytest.fixture(scope="session")
def spoken_wav(tmp_path_factory):
    """Return a WAV file of espeak-ng saying SPEECH (about 25 s)."""
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip(
            "espeak-ng is not installed: run scripts/ensure-debian-packages (apt-get install espeak-ng)"
        )
    path = tmp_path_factory.mktemp("speech") / "peru.wav"
    subprocess.run(
        [espeak, "-v", "en", "-s", "150", "-g", "0", "-w", str(path), SPEECH], check=True, timeout=60
    )
    return path


def with_microphone_playing(launch_args, wav):
    """Return Chromium's launch arguments with a fake microphone that plays `wav` in a loop, allowed
    without asking."""
    args = [
        *launch_args.get("args", []),
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={wav}",
    ]
    return {**launch_args, "args": args}


# One per worker, as pytest-playwright's own browser is: each launch is a browser process with its
# GPU, network and zygote processes, and most geography modules use it.
@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def mic_browser(browser_type, browser_type_launch_args, spoken_wav):
    """Chromium whose microphone plays spoken_wav in a loop, allowed without asking."""
    browser = await browser_type.launch(**with_microphone_playing(browser_type_launch_args, spoken_wav))
    yield browser
    await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def mic_page(mic_browser):
    """A fresh page (and browser session) in mic_browser, recording the errors its console logs."""
    context = await mic_browser.new_context()
    page = await context.new_page()
    page.console_problems = []
    page.on("console", lambda m: m.type == "error" and page.console_problems.append(m.text))
    page.on("pageerror", lambda e: page.console_problems.append(str(e)))
    yield page
    await context.close()


@pytest.fixture(scope="session")
def dev_server(tmp_path_factory):
    """The project under a real daphne with DEBUG on, as `make run` serves it.

    The direct link needs it: outside DEBUG the site builds links only for a
    wss:// endpoint on a public name, and a test's server is ws://127.0.0.1.
    """
    from testwallet.server import DaphneServer

    server = DaphneServer(
        "sites.config.asgi:application",
        env={"DJANGO_DEBUG": "1"},
        workdir=tmp_path_factory.mktemp("geography-daphne"),
    )
    with server:
        yield server


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and "dev_server" in getattr(item, "fixturenames", ()):
        server = item.funcargs.get("dev_server")
        if server is not None:
            report.sections.append(("dev daphne output", server.output()[-20000:]))
    return report


def _questions():
    return {
        place.question(language): place.country
        for place in places.all_places().values()
        for language in names.LANGUAGES
    }


def question_country(question):
    """Return the country (ISO code) a question shown on the page asks for."""
    return _questions()[question.strip()]


async def right_answer(page, language="en"):
    """Return CLDR's name of the country the page's current question asks for."""
    return names.display_name(question_country(await page.locator("#question").text_content()), language)


async def speak(page, stop_when_left=None):
    """Record until the countdown says `stop_when_left` (if given) and the meter moved, then press Stop."""
    # The meter must start from nothing for the wait on it below to mean this recording's samples.
    assert await page.locator("#level").evaluate("meter => meter.value") == 0
    await page.get_by_role("button", name="Speak your answer").click()
    if stop_when_left is not None:
        await page.locator("#clip-countdown", has_text=stop_when_left).wait_for(timeout=10000)
    # The countdown starts before the first samples arrive: a Stop before them records nothing.
    await page.wait_for_function("() => document.querySelector('#level').value > 0", timeout=10000)
    await page.get_by_role("button", name="Stop", exact=True).click()
