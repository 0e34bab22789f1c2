"""The game's BYOA manifest: valid, found beside the app, and the one its links carry."""

import base64
import json
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.core import checks

from byoa.pairing import manifests


def test_the_manifest_asks_for_two_models_of_different_companies_with_its_limits():
    manifest = manifests.get_manifest("twentyq")
    skill = manifest.data["skills"]["text.generate"]
    assert skill["models"]["count"] == 2 and skill["models"]["differentCompanies"] is True
    assert skill["models"]["need"] == "recommended" and skill["models"]["why"]
    limits = manifest.data["purpose"]["limits"]
    assert {"maxTextChars", "maxAnswerTokens", "maxCallsPerMinute"} <= set(limits)
    assert {"privacy", "expectedCost"} <= set(manifest.data)
    assert [problem for problem in manifests.validate(manifest.data)] == []


def test_the_system_checks_pass_with_every_demo_manifest_installed():
    assert {"twentyq", "geography"} <= set(manifests.loaded())
    assert [message for message in checks.run_checks(tags=["byoa"]) if message.is_serious()] == []


def test_the_longest_questioner_prompt_fits_the_manifests_text_limit():
    from sites.twentyq import prompts
    from sites.twentyq.rules import LIMIT

    history = [
        {"turn": turn, "kind": "question", "text": "Q" * 199 + "?", "answer": "unknown"}
        for turn in range(1, LIMIT)
    ]
    messages, params = prompts.asker(history, LIMIT, must_guess=True)
    chars = sum(len(message["content"]) for message in messages)
    limits = manifests.get_manifest("twentyq").data["purpose"]["limits"]
    print(f"longest questioner prompt: {chars} characters")
    assert chars <= limits["maxTextChars"]  # else the wallet would refuse the last turns of a wordy game
    assert params["maxTokens"] <= limits["maxAnswerTokens"]


@pytest.mark.live
async def test_a_link_asked_for_by_name_carries_the_games_manifest(player):
    response = await player.http.post("/byoa/code", json={"manifest": "twentyq"}, headers=player.headers)
    assert response.status_code == 200
    encoded = dict(parse_qsl(urlsplit(response.json()["link"]).query))["manifest"]
    data = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    assert data == json.loads(manifests.get_manifest("twentyq").path.read_text())
