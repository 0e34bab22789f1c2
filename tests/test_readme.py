"""
README.md is the front door, and whatever it says stays true: it starts with the two
commands the Makefile runs, its quickstart is made of blocks the tutorial's test runs, its
supported versions are the package's, its extras exist, and the public names stay put.
"""

import importlib
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
# A block the packaging test runs (tests/test_packaging.py reads the same markers).
MARKED = re.compile(r"^<!-- site: .+? -->\n+```[a-z]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def section(title):
    """Return the README's section under the heading ``## <title>``, up to the next one."""
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_starts_with_the_two_commands_and_the_makefile_has_them():
    first = FENCE.search(README)
    assert README[: first.start()].strip() == "# Visitor AI"
    commands = [line.split("#")[0].strip() for line in first[1].splitlines()]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run:", makefile, re.MULTILINE) and re.search(r"^test:", makefile, re.MULTILINE)


def test_the_quickstart_is_short_and_each_of_its_blocks_is_one_the_tutorials_test_runs():
    quickstart = section("Quickstart")
    assert len(quickstart.strip().splitlines()) <= 40
    blocks = FENCE.findall(quickstart)
    assert len(blocks) >= 3  # the install line, the ASGI application, a tool
    run_by_the_packaging_test = set(MARKED.findall(TUTORIAL))
    assert [block for block in blocks if block not in run_by_the_packaging_test] == []


def test_the_readme_names_the_supported_versions_the_package_declares():
    versions = section("Supported versions")
    rows = dict(re.findall(r"^\| (\w+) \| (.+?) \|$", versions, flags=re.MULTILINE))
    assert rows["Python"] == "3.12, 3.13" and rows["Django"] == "5.2 LTS, 6.0, 6.1"
    assert rows["Channels"] == "4.2 and newer"
    project = PYPROJECT["project"]
    assert project["requires-python"] == ">=3.12"
    declared = {
        Requirement(line).name.lower(): Requirement(line).specifier for line in project["dependencies"]
    }
    for django in ("5.2", "6.0", "6.1"):
        assert declared["django"].contains(django + ".0"), django
    assert declared["channels"].contains("4.2.0") and not declared["channels"].contains("4.1.0")
    install = (ROOT / "docs" / "reference" / "install.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in versions.splitlines() if line.startswith("|"))
    assert table in install  # the same table on the docs' installation page


def test_every_extra_the_docs_name_exists_and_every_extra_has_its_row():
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    install = (ROOT / "docs" / "reference" / "install.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z]+)` \|", install, flags=re.MULTILINE))
    assert rows == extras
    named = set(re.findall(r"`([a-z]+)`", section("Supported versions").split("The extras", 1)[1]))
    assert named <= extras


def test_the_readme_shows_the_demos_by_the_pictures_the_suite_makes_for_the_home_page():
    images = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", README)
    from sites.home.demos import installed_demos

    made = [
        f"sites/{demo['preview_light'].split('/')[0]}/static/{demo['preview_light']}"
        for demo in installed_demos()
    ]
    assert images == made  # tests/home/test_previews.py makes each of them from the demo's real page
    assert all((ROOT / image).read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for image in images)


PUBLIC = {
    "byoa": [
        "ByoaError",
        "CallRefused",
        "EndpointRefused",
        "Manifest",
        "ManifestError",
        "NoPairing",
        "NotAClip",
        "NotJSON",
        "RateLimited",
        "TooManyCalls",
        "UnknownManifest",
        "WalletCallError",
        "WalletDeclined",
        "WalletLeft",
        "WalletNotConnected",
        "WalletOffline",
        "WalletProcessGone",
        "WalletStream",
        "WalletTimeout",
        "aget_pairing",
        "call_wallet",
        "describe_manifest",
        "get_manifest",
        "stream_wallet",
    ],
    "byoa.calls": ["GRACE_SECONDS", "WalletStream", "call_wallet", "stream_wallet"],
    "byoa.exceptions": [
        "ByoaError",
        "CallRefused",
        "EndpointRefused",
        "ManifestError",
        "NoPairing",
        "NotAClip",
        "NotJSON",
        "RateLimited",
        "TooManyCalls",
        "UnknownManifest",
        "WalletCallError",
        "WalletDeclined",
        "WalletLeft",
        "WalletNotConnected",
        "WalletOffline",
        "WalletProcessGone",
        "WalletTimeout",
    ],
    "byoa.wire.wav": [
        "BITS",
        "CHANNELS",
        "RATE",
        "NotAClip",
        "Wav",
        "clip_seconds",
        "pcm",
        "read",
        "silent_clip",
        "write",
    ],
    "testwallet.cassette": [
        "FORMAT",
        "Cassette",
        "CassetteError",
        "CassetteUnreadable",
        "Mode",
        "NotRecorded",
    ],
    "testwallet.direct": [
        "Backend",
        "BackendError",
        "Consent",
        "Consents",
        "DirectWallet",
        "Link",
        "LinkRefused",
        "OpenAICompatibleBackend",
        "PocketSphinxBackend",
        "RecordedBackend",
        "ScriptedBackend",
        "SkillBackend",
        "State",
        "WhisperBackend",
        "check_link",
        "reconnect_delays",
    ],
    "testwallet.direct.exceptions": ["BackendError", "LinkRefused"],
    "mcp_server": ["ToolError", "build_server", "from_browser_page", "tool", "visitor_session"],
    "testwallet.aiwallet": [
        "AUTO",
        "Account",
        "AiWalletStub",
        "ApprovalWindow",
        "BINDING",
        "Chat",
        "Consent",
        "ProviderError",
        "ProviderUnreachable",
        "Reply",
        "Request",
        "ScriptError",
        "ToolCall",
        "UnlockWindow",
        "aiwallet",
        "script_path",
    ],
    "byoa.pairing.describe": ["Line", "describe_manifest"],
    "testwallet.extension": [
        "BINDING",
        "ByoaExtension",
        "CallRecord",
        "Consent",
        "FAILED",
        "RequestRecord",
        "ScriptError",
        "byoa_extension",
        "checks_path",
        "clip_path",
        "consent_path",
        "rules_path",
        "script_path",
        "script_paths",
        "skills_path",
    ],
    "testwallet.chromium": ["CHROMIUM_ARGS", "FULL_CHROMIUM", "HEADLESS_SHELL", "chromium_executable"],
    "testwallet.languagemodel": ["BINDING", "BuiltinModel", "builtin_model", "script_path"],
    "testwallet.preflight": ["Misconfigured", "asgi_application", "check_own_database"],
    "testwallet.server": ["DaphneServer", "HypercornServer", "ServerFailedToStart", "UvicornServer"],
    "testwallet.setup_cache": ["ENVIRONMENT_VARIABLE", "SetupCache", "from_environment"],
    "testwallet.setup_commands": ["main", "run"],
    "testwallet.relay.finders": ["StandInFinder"],
    "testwallet.speech": ["SpeechSynthesizerMissing", "resample", "spoken_wav"],
    "testwallet.serve": ["main"],
    "testwallet.transcribe": ["application", "main"],
    "testwallet.sync_api": ["SyncAiWallet", "SyncByoaExtension", "aiwallet", "byoa_extension"],
    "testwallet.webmcp": [
        "WEBMCP_FLAG",
        "AgentTool",
        "BrowserAgent",
        "ToolResult",
        "WebMCPMissing",
        "browser_agent",
        "webmcp_browser",
    ],
    "testwallet.webmcp.sync": ["SyncBrowserAgent", "browser_agent", "webmcp_browser"],
    "testwallet.direct.phrases": ["Phrasebook", "folded"],
    "testwallet.direct.whisper_match": ["Candidate", "Hearing", "PhraseMatcher"],
    "visitor_ai.asgi": ["get_asgi_application"],
    "visitor_ai.collector": ["FreezeAfterStartup", "freeze_start_up"],
    "visitor_ai.limits": ["BodyLimit"],
    "visitor_ai.exceptions": ["MinifierFailed", "MinifierNotFound", "UnhashedImport"],
    "visitor_ai.storage": ["MinifiedManifestStaticFilesStorage"],
}


@pytest.mark.parametrize("module_name", sorted(PUBLIC))
def test_the_public_names_of_each_module_stay_put(module_name):
    module = importlib.import_module(module_name)
    assert sorted(module.__all__) == sorted(PUBLIC[module_name])
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.__all__ names {name}, which it does not define"


def modules_declaring_all(package):
    """Yield the dotted names of the package's modules, private ones aside, that declare ``__all__``."""
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if any(part.startswith("_") for part in parts):
            continue
        if re.search(r"^__all__\s*=", path.read_text(encoding="utf-8"), flags=re.MULTILINE):
            yield ".".join(parts)


def test_every_public_module_of_the_test_wallet_and_the_library_app_is_pinned():
    declared = {*modules_declaring_all("testwallet"), *modules_declaring_all("visitor_ai")}
    assert {
        "testwallet.aiwallet",
        "testwallet.server",
        "visitor_ai.asgi",
    } <= declared  # the walk itself works
    assert declared - set(PUBLIC) == set(), "pin these modules' __all__ in PUBLIC"
