"""
One consent record for both ways in, across processes: the npm driver's ``Consents`` and the
headless wallet's ``--consents FILE`` (testwallet/_consents.py's ``save`` and ``load``) read and
write the same file, so a site allowed one way is allowed the other way too; the two say the
same of what a site asks for more. A file that is not a record stops the command and is kept.
"""

import asyncio
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from byoa.pairing import manifests
from tests.testwallet.byoa_cases import GEO, QUIZ
from tests.testwallet.direct.test_wallet import FakeSite
from testwallet._consents import Consents, more_asked

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
BOUND = 30  # seconds: the most a process of these tests may take

#: The npm driver, run by node in the frontend folder: `node -e` with a JSON argument.
SAVE = """
import { Consents } from './playwright/consents.js';
const [file, site, manifest] = JSON.parse(process.argv[1]);
const consents = new Consents();
consents.allow(site, manifest, Object.keys(manifest.skills), { onItsOwn: true });
consents.save(file);
"""
ASK_WITHOUT_A_CLICK = """
import { ByoaExtension } from './playwright/byoa-driver.js';
import { Consents } from './playwright/consents.js';
const [file, site, manifest] = JSON.parse(process.argv[1]);
const extension = new ByoaExtension();
extension.consents = Consents.load(file);
extension.decline();  // a window would be declined: none may be shown
let binding;
const target = { exposeBinding: async (_, callback) => { binding = callback; }, addInitScript: async () => {} };
await extension.install(target);
const frame = { url: () => site + '/', isDetached: () => false };
const validation = { errors: [], warnings: [] };
const message = { type: 'request', ref: 1, activated: false, manifest, valid: true, validation };
const answer = await binding({ frame }, message);
process.stdout.write(JSON.stringify({ decision: answer.decision, more: extension.requests[0].more }));
"""
MORE = """
import { moreAsked } from './playwright/consents.js';
process.stdout.write(JSON.stringify(JSON.parse(process.argv[1]).map(([m, a, s]) => moreAsked(m, a, s))));
"""


def node(script, *arguments):
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, json.dumps(arguments)],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=BOUND,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def site_of(site):
    return "http://" + site.endpoint.split("/")[2]


async def headless(link, *options):
    """Start ``python -m testwallet.direct`` with its controls on standard input."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "testwallet.direct",
        link,
        "--dev-local",
        "--controls",
        "--script",
        'audio.transcribe={"text": "Peru"}',
        *options,
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def said(wallet, start):
    """Read the wallet's lines until one starts with ``start``; return them."""
    lines = []
    while not (lines and lines[-1].startswith(start)):
        line = await asyncio.wait_for(wallet.stdout.readline(), BOUND)
        assert line, f"the wallet stopped before saying {start!r}: {lines}"
        lines.append(line.decode().rstrip("\n"))
    return lines


async def control(wallet, line):
    wallet.stdin.write(line.encode() + b"\n")
    await wallet.stdin.drain()


async def test_a_site_the_npm_driver_allowed_on_its_own_is_taken_by_the_headless_wallet_with_no_window(
    tmp_path,
):
    """byoa-sites.md: "a site allowed one way is allowed the other way too"."""
    file = tmp_path / "consents.json"
    async with FakeSite() as site:
        node(SAVE, str(file), site_of(site), manifests.decode(site.manifest))
        wallet = await headless(site.link(), "--consent", "decline", "--consents", str(file))
        lines = await said(wallet, "connected to")  # declined would contact nothing
        await control(wallet, "bye")
        output, _ = await asyncio.wait_for(wallet.communicate(), BOUND)
    assert wallet.returncode == 0, lines + output.decode().splitlines()
    assert "consent: nothing more than allowed" in lines
    assert len(site.hellos) == 1
    assert Consents.load(file).sites[site_of(site)].on_its_own is True


async def test_a_site_the_headless_wallet_allowed_on_its_own_is_granted_by_the_npm_driver_with_no_click(
    tmp_path,
):
    """byoa-sites.md: "a site allowed one way is allowed the other way too"."""
    file = tmp_path / "consents.json"  # none yet: the wallet starts with no consent
    async with FakeSite() as site:
        wallet = await headless(site.link(), "--consent", "decide-on-my-own", "--consents", str(file))
        await said(wallet, "connected to")
        # The controls are read once the consent is written: an answer to one means it is there.
        await control(wallet, "look")
        await said(wallet, "control refused: unknown control 'look'")
        assert site_of(site) in Consents.load(file).sites  # written while the wallet serves
        await control(wallet, "bye")
        await asyncio.wait_for(wallet.communicate(), BOUND)
    assert Consents.load(file).sites[site_of(site)].on_its_own is True
    answer = json.loads(node(ASK_WITHOUT_A_CLICK, str(file), site_of(site), manifests.decode(site.manifest)))
    assert answer == {"decision": "allow", "more": []}


async def test_a_pause_on_the_headless_wallets_controls_is_written_for_the_npm_driver(tmp_path):
    """byoa-sites.md: "A site the visitor paused is not reconnected" (one pause, for both ways in)."""
    file = tmp_path / "consents.json"
    async with FakeSite() as site:
        wallet = await headless(site.link(), "--consents", str(file))
        await said(wallet, "connected to")
        await control(wallet, "pause")  # after a plain Allow, the site needs a new link: the wallet stops
        output, _ = await asyncio.wait_for(wallet.communicate(), BOUND)
    assert "paused by the visitor" in output.decode()
    assert site_of(site) in Consents.load(file).paused
    answer = json.loads(node(ASK_WITHOUT_A_CLICK, str(file), site_of(site), manifests.decode(site.manifest)))
    assert answer["decision"] == "block"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{", "Expecting property name"),
        ('{"sites": [], "paused": []}', 'consents are {"sites"'),
        (
            '{"sites": {"https://a.example": {"manifest": {}, "skills": [], "onItsOwn": true}}, "paused": []}',
            'the consent of "https://a.example" is',
        ),
    ],
)
async def test_a_consents_file_that_is_not_a_record_stops_the_command_naming_it_and_is_kept(
    tmp_path, content, reason
):
    file = tmp_path / "consents.json"
    file.write_text(content)
    async with FakeSite() as site:
        wallet = await headless(site.link(), "--consents", str(file))
        output, _ = await asyncio.wait_for(wallet.communicate(), BOUND)
        assert site.connections == 0
    printed = output.decode()
    assert wallet.returncode == 2, printed
    assert f"python -m testwallet.direct: error: --consents {file}: " in printed and reason in printed
    assert file.read_text() == content  # nothing lost


def test_the_npm_driver_and_the_python_driver_say_the_same_of_what_a_site_asks_for_more():
    wider = copy.deepcopy(GEO)
    wider["skills"]["text.generate"] = {"required": False, "models": {"count": 2}}
    wider["purpose"]["limits"] = {"maxCallsPerMinute": 80}
    more_models = copy.deepcopy(QUIZ)
    more_models["skills"]["text.generate"]["models"]["count"] = 3
    cases = [
        (GEO, GEO, ["audio.transcribe"]),
        (wider, GEO, ["audio.transcribe"]),
        (GEO, wider, ["audio.transcribe", "text.generate"]),
        (more_models, QUIZ, ["text.generate"]),
        (QUIZ, QUIZ, []),
    ]
    in_js = json.loads(node(MORE, *cases))
    assert in_js == [more_asked(*case) for case in cases]
    assert in_js[1] == [
        "the skill text.generate",
        "2 models for text.generate (allowed 0)",
        "maxCallsPerMinute 80 (allowed 40)",
        "no maxClipSeconds (allowed 15)",
    ]


def test_a_record_saved_is_read_back_whole(tmp_path):
    consents = Consents()
    consents.allow("https://a.example", GEO, ["audio.transcribe"], on_its_own=True)
    consents.pause("https://b.example")
    consents.save(tmp_path / "consents.json")
    read = Consents.load(tmp_path / "consents.json")
    assert read == consents
    assert not (tmp_path / "consents.json.tmp").exists()
