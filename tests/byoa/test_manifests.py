"""Manifests: the library's rules, the extension fields, the exact bytes, the checks."""

import base64
import json

import pytest

from byoa import checks
from byoa.exceptions import ManifestError, UnknownManifest
from byoa.pairing import manifests

GOOD = {
    "byoa": "0.1-draft",
    "purpose": {"summary": "Recognise country names", "limits": {"maxClipSeconds": 15}},
    "skills": {"audio.transcribe": {"required": True}},
    "privacy": "personal-voice",
    "expectedCost": {"perSession": "0.05 USD"},
}


def with_(path, value):
    """Return GOOD with the value at a dotted path replaced (None deletes it)."""
    data = json.loads(json.dumps(GOOD))
    *parents, last = path.split("|")
    target = data
    for key in parents:
        target = target.setdefault(key, {})
    if value is None:
        target.pop(last, None)
    else:
        target[last] = value
    return data


def errors(data):
    return [(p.code, p.pointer) for p in manifests.validate(data) if p.is_error]


def test_a_good_manifest_has_no_problems():
    assert manifests.validate(GOOD) == []


@pytest.mark.parametrize(
    "path, value, expected",
    [
        ("byoa", None, ("version-missing", "/byoa")),
        ("byoa", "0.2", ("version-unsupported", "/byoa")),
        ("purpose", None, ("purpose-missing", "/purpose")),
        ("purpose|summary", " ", ("summary-missing", "/purpose/summary")),
        ("purpose|summary", "x" * 201, ("summary-too-long", "/purpose/summary")),
        ("purpose|limits|maxClipSeconds", -1, ("limit-invalid", "/purpose/limits/maxClipSeconds")),
        ("skills", {}, ("skills-missing", "/skills")),
        ("skills", {"Audio": {"required": True}}, ("skill-id-invalid", "/skills/Audio")),
        ("skills", {"audio.transcribe": {}}, ("skill-required-invalid", "/skills/audio.transcribe/required")),
        ("privacy", None, ("privacy-missing", "/privacy")),
        ("privacy", "secret", ("privacy-unknown", "/privacy")),
        ("expectedCost", {"perSession": "cheap"}, ("cost-invalid", "/expectedCost/perSession")),
    ],
)
def test_each_rule_of_the_library_is_an_error_with_its_pointer(path, value, expected):
    assert expected in errors(with_(path, value))


def test_a_manifest_that_is_not_an_object_is_an_error():
    assert errors([1, 2]) == [("manifest-not-object", "")]


def test_the_extension_limits_are_accepted_without_the_librarys_unknown_limit_warning():
    data = with_("purpose|limits", {"maxParallelCalls": 2, "maxAnswerTokens": 300, "maxCallSeconds": 12.5})
    assert manifests.validate(data) == []


@pytest.mark.parametrize(
    "limit, value",
    [
        ("maxParallelCalls", 0),
        ("maxParallelCalls", 2.5),
        ("maxParallelCalls", True),
        ("maxAnswerTokens", -3),
        ("maxAnswerTokens", "many"),
        ("maxCallSeconds", 0),
        ("maxCallSeconds", 7200),
    ],
)
def test_a_bad_extension_limit_is_an_error_at_its_pointer(limit, value):
    assert ("extension-invalid", f"/purpose/limits/{limit}") in errors(
        with_(f"purpose|limits|{limit}", value)
    )


MODELS = {"count": 2, "differentCompanies": True, "need": "recommended", "why": "Two opinions"}


def test_a_models_block_on_text_generate_is_accepted():
    data = with_("skills", {"text.generate": {"required": True, "models": MODELS}})
    assert manifests.validate(data) == []


@pytest.mark.parametrize(
    "block, pointer",
    [
        ({**MODELS, "count": 0}, "/skills/text.generate/models/count"),
        ({**MODELS, "count": 9}, "/skills/text.generate/models/count"),
        ({**MODELS, "need": "maybe"}, "/skills/text.generate/models/need"),
        ({**MODELS, "why": "   "}, "/skills/text.generate/models/why"),
        ({**MODELS, "differentCompanies": "yes"}, "/skills/text.generate/models/differentCompanies"),
        ({k: v for k, v in MODELS.items() if k != "why"}, "/skills/text.generate/models"),
        ({**MODELS, "vendor": "acme"}, "/skills/text.generate/models"),
    ],
)
def test_a_bad_models_block_is_an_error_at_its_pointer(block, pointer):
    data = with_("skills", {"text.generate": {"required": True, "models": block}})
    assert ("extension-invalid", pointer) in errors(data)


def test_a_models_block_on_another_skill_is_an_error():
    data = with_("skills", {"audio.transcribe": {"required": True, "models": MODELS}})
    assert ("extension-invalid", "/skills/audio.transcribe") in errors(data)


def test_every_problem_says_how_to_fix_it():
    data = with_("privacy", "secret") | {"purpose": {"summary": "", "limits": {"maxCallSeconds": -1}}}
    assert all(problem.fix for problem in manifests.validate(data))


def test_the_bytes_are_compact_json_and_the_text_is_base64url_without_padding():
    json_bytes, text = manifests.encode({"purpose": {"summary": "Straße?>"}, "a": 1})
    assert json_bytes == '{"purpose":{"summary":"Straße?>"},"a":1}'.encode()
    assert "=" not in text and "+" not in text and "/" not in text
    assert base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)) == json_bytes


def test_a_manifest_over_4096_bytes_is_an_error():
    data = with_("purpose|notes", "x" * 4100)
    assert ("manifest-too-large", "") in errors(data)


def test_a_manifest_whose_link_text_is_over_4096_characters_is_a_warning():
    data = with_("purpose|notes", "x" * 3500)
    found = [(p.level, p.code) for p in manifests.validate(data)]
    assert ("warning", "link-parameter-large") in found and not errors(data)


def test_loaded_manifests_are_encoded_once_from_their_files():
    geo = manifests.get_manifest("geo")
    assert geo.encoded == manifests.encode(json.loads(geo.path.read_text()))[1]
    assert manifests.get_manifest() is geo  # the default
    assert manifests.get_manifest("quiz").limit("maxParallelCalls") == 2


def test_an_unknown_manifest_name_lists_the_known_ones():
    with pytest.raises(UnknownManifest, match=r"installed ones are: geo, .*quiz"):
        manifests.get_manifest("nope")


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_check_reports_each_problem_with_id_pointer_and_fix(settings, tmp_path):
    bad = write(tmp_path, "bad.json", with_("purpose|limits|maxParallelCalls", 0) | {"privacy": "secret"})
    settings.BYOA = {"MANIFESTS": {"bad": bad}}
    found = checks.check_manifests(None)
    by_id = {(m.id, m.obj) for m in found}
    assert ("byoa.E011", "bad") in by_id and ("byoa.E012", "bad") in by_id
    privacy = next(m for m in found if m.id == "byoa.E011")
    assert "/privacy" in privacy.msg and privacy.hint
    with pytest.raises(ManifestError):
        manifests.get_manifest("bad")


def test_check_reports_unreadable_and_non_json_files(settings, tmp_path):
    settings.BYOA = {
        "MANIFESTS": {"gone": str(tmp_path / "none.json"), "broken": write(tmp_path, "b.json", "{")}
    }
    assert sorted(m.obj for m in checks.check_manifests(None) if m.id == "byoa.E010") == ["broken", "gone"]


def test_check_reports_warnings_of_the_rules(settings, tmp_path):
    settings.BYOA = {"MANIFESTS": {"w": write(tmp_path, "w.json", with_("expectedCost", None))}}
    assert [m.id for m in checks.check_manifests(None)] == ["byoa.W010"]


def test_check_reports_bad_settings(settings):
    settings.BYOA = {
        "NOPE": 1,
        "HELLO_SECONDS": 0,
        "ENDPOINT": "ws://game.example.org/byoa/ws",
        "DEFAULT_MANIFEST": "x",
    }
    ids = sorted(m.id for m in checks.check_settings(None) + checks.check_manifests(None))
    assert ids == ["byoa.E001", "byoa.E002", "byoa.E003", "byoa.E004"]


@pytest.mark.parametrize(
    "endpoint",
    [
        "wss://93.184.216.34/byoa/ws",
        "wss://2130706433/byoa/ws",
        "wss://0x7f000001/byoa/ws",
        "wss://0177.0.0.1/byoa/ws",
        "wss://[2606:4700::1111]/byoa/ws",
        "wss://localhost/byoa/ws",
        "wss://printer.local/byoa/ws",
        "wss://nas.home.arpa/byoa/ws",
        "wss://db.internal/byoa/ws",
        "wss://router.lan/byoa/ws",
        "wss://intranet/byoa/ws",
        "ws://game.example.org/byoa/ws",
        "ws://127.0.0.1:8000/byoa/ws",
        42,
    ],
)
def test_check_reports_an_endpoint_the_wallet_refuses_with_a_fix(settings, endpoint):
    settings.BYOA = {"ENDPOINT": endpoint}
    [error] = [m for m in checks.check_settings(None) if m.id == "byoa.E003"]
    assert "which an agent wallet refuses" in error.msg and "wss://game.example.org/byoa/ws" in error.hint


@pytest.mark.parametrize(
    "endpoint", ["ws://127.0.0.1:8000/byoa/ws", "ws://localhost/byoa/ws", "wss://[::1]:8443/byoa/ws"]
)
def test_check_allows_a_loopback_endpoint_only_in_debug(settings, endpoint):
    settings.BYOA = {"ENDPOINT": endpoint}
    assert [m.id for m in checks.check_settings(None)] == ["byoa.E003"]
    settings.DEBUG = True
    assert checks.check_settings(None) == []


def test_check_accepts_a_wss_endpoint_on_a_public_name(settings):
    settings.BYOA = {"ENDPOINT": "wss://game.example.org:8443/byoa/ws"}
    assert checks.check_settings(None) == []


def test_a_manifest_json_beside_an_apps_code_is_found(settings, tmp_path):
    settings.BYOA = {}
    (tmp_path / "demoapp").mkdir()
    (tmp_path / "demoapp" / "__init__.py").write_text("")
    (tmp_path / "demoapp" / "manifest.json").write_text(json.dumps(GOOD))
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "demoapp"]
        assert manifests.get_manifest("demoapp").data == GOOD
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.django_db
def test_the_project_passes_manage_py_check():
    from django.core.management import call_command

    call_command("check")  # raises SystemCheckError on any error
