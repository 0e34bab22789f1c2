"""
README.md keeps up with the code: every setting and environment variable has its
row, and the public names stay put.
"""

import importlib
import re
from pathlib import Path

import pytest

from byoa.conf import SETTINGS as BYOA_SETTINGS
from mcp_server.conf import DEFAULTS as MCP_DEFAULTS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Read by dj_database_url.config() without the settings naming it.
READ_BY_LIBRARIES = {"DATABASE_URL"}


def section(title):
    """Return the README's section under the heading ``## <title>``, up to the next one."""
    return README.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def rows(text):
    """Return the names in the first column of the tables in ``text``."""
    return set(re.findall(r"^\| `([A-Z_]+)` \|", text, flags=re.MULTILINE))


def environment_variables_the_settings_read():
    source = (ROOT / "sites" / "config" / "settings.py").read_text(encoding="utf-8")
    # Any helper with "env" in its name (env_flag, _env_list, _env_int, os.getenv ...), and os.environ.
    read = re.findall(
        r"""(?:\b(?i:\w*env\w*)|environ\.get)\(\s*["']([A-Z][A-Z0-9_]*)["']|environ\[\s*["']([A-Z][A-Z0-9_]*)["']\]""",
        source,
    )
    return {name for pair in read for name in pair if name} | READ_BY_LIBRARIES


def table(text):
    """Return {name: (default, meaning)} of the rows of the tables in ``text``, as their cells read."""
    found = re.findall(r"^\| `([A-Z_]+)` \| `(.*?)` \| (.*) \|$", text, flags=re.MULTILINE)
    return {name: (default, meaning) for name, default, meaning in found}


def test_every_byoa_setting_has_a_row_in_the_readme_with_its_declared_default_and_meaning():
    written = table(section("BYOA: the visitor's agent wallet, by direct link"))
    # Each setting is declared once (byoa.conf.SETTINGS): the README row says what the declaration says.
    declared = {setting.name: (setting.shown_default, setting.doc) for setting in BYOA_SETTINGS}
    assert {name: written.get(name) for name in declared} == declared


def test_every_mcp_server_setting_has_a_row_in_the_readme():
    assert set(MCP_DEFAULTS) - rows(section("The site's MCP tools")) == set()


def test_every_environment_variable_the_settings_read_has_a_row_in_the_readme():
    found = environment_variables_the_settings_read()
    # The scan itself still works: one variable read each way (env_flag, environ[], a library, _env_list, _env_int).
    assert {
        "DJANGO_DEBUG",
        "REDIS_URL",
        "DATABASE_URL",
        "DJANGO_ALLOWED_HOSTS",
        "DJANGO_HSTS_SECONDS",
    } <= found
    assert found - rows(section("Configuration")) == set()


PUBLIC = {
    "byoa": [
        "ByoaError",
        "EndpointRefused",
        "Manifest",
        "ManifestError",
        "NotAClip",
        "NotJSON",
        "RateLimited",
        "UnknownManifest",
        "aget_pairing",
        "call_wallet",
        "describe_manifest",
        "get_manifest",
        "stream_wallet",
    ],
    "byoa.calls": ["WalletStream", "call_wallet", "stream_wallet"],
    "byoa.exceptions": [
        "ByoaError",
        "EndpointRefused",
        "ManifestError",
        "NotAClip",
        "NotJSON",
        "RateLimited",
        "UnknownManifest",
    ],
    "byoa.wav": [
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
    "testwallet.direct": [
        "Backend",
        "BackendError",
        "Consent",
        "DirectWallet",
        "Link",
        "LinkRefused",
        "OpenAICompatibleBackend",
        "PocketSphinxBackend",
        "ScriptedBackend",
        "SkillBackend",
        "State",
        "WhisperBackend",
        "check_link",
        "reconnect_delays",
    ],
    "testwallet.direct.exceptions": ["BackendError", "LinkRefused"],
    "mcp_server": ["ToolError", "tool"],
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
    "byoa.describe": ["Line", "describe"],
    "testwallet.extension": [
        "BINDING",
        "ByoaExtension",
        "CallRecord",
        "Consent",
        "FAILED",
        "RequestRecord",
        "ScriptError",
        "byoa_extension",
        "clip_path",
        "rules_path",
        "script_path",
        "script_paths",
    ],
    "testwallet.chromium": ["CHROMIUM_ARGS", "FULL_CHROMIUM", "HEADLESS_SHELL", "chromium_executable"],
    "testwallet.languagemodel": ["BINDING", "BuiltinModel", "builtin_model", "script_path"],
    "testwallet.pageweight": ["HASHED_NAME", "Fetched", "PageWeight", "measure", "total"],
    "testwallet.preflight": ["Misconfigured", "asgi_application", "check_own_database"],
    "testwallet.server": ["DaphneServer", "HypercornServer", "ServerFailedToStart", "UvicornServer"],
    "testwallet.setup_cache": ["ENVIRONMENT_VARIABLE", "SetupCache", "from_environment"],
    "testwallet.services": [
        "PostgresServer",
        "RedisServer",
        "ServiceFailedToStart",
        "ServiceMissing",
        "postgres_bindir",
    ],
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
    "visitor_ai.asgi": ["get_asgi_application"],
    "visitor_ai.exceptions": ["MinifierFailed", "MinifierNotFound", "UnhashedImport"],
    "visitor_ai.speedups": ["SPEEDUPS", "Speedup", "chosen", "options", "unverified", "unverified_versions"],
    "visitor_ai.speedups.addresses": ["LiveAddresses"],
    "visitor_ai.speedups.checks": ["check_speedups"],
    "visitor_ai.speedups.daphne": ["VERIFIED", "DaphneRunserverConfig", "check_runserver"],
    "visitor_ai.speedups.freeze": ["freeze_start_up"],
    "visitor_ai.speedups.handler": ["ASGIHandler", "chosen_handler"],
    "visitor_ai.speedups.middleware": [
        "ON_THE_LOOP",
        "AuthenticationMiddleware",
        "CommonMiddleware",
        "ContentSecurityPolicyMiddleware",
        "CsrfViewMiddleware",
        "EventLoopHooks",
        "MessageMiddleware",
        "SecurityMiddleware",
        "SessionMiddleware",
        "XFrameOptionsMiddleware",
    ],
    "visitor_ai.speedups.redis_transport": ["RedisCaller", "RedisReply", "RedisTransport"],
    "visitor_ai.speedups.session_pairings": ["SessionPairings"],
    "visitor_ai.speedups.staticfiles": ["StaticFilesMiddleware"],
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
