"""A site's own test with recorded answers (docs/howto/recorded-answers.md shows this file)."""

import os

import pytest

from testwallet.direct.backends import OpenAICompatibleBackend


@pytest.mark.asyncio
@pytest.mark.testwallet_cassette("answers.json")
async def test_the_model_names_a_calm_book(testwallet_cassette):
    model = OpenAICompatibleBackend(
        os.environ.get("TESTWALLET_MODEL_URL", ""),  # unset in CI: the cassette answers alone
        {"m1": "default"},
        cassette=testwallet_cassette,
    )
    said = await model.run("text.generate", {"messages": [{"role": "user", "content": "A calm book?"}]}, {})
    assert said["text"].strip()
