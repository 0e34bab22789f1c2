"""
The Prompt API stand-in (``builtin_model``) answering from a model through a cassette, in
Chromium: record mode asks the model server (the relay's model double) with the session's
initial prompts and the page's input as an OpenAI chat, the replay answers the page the same
with no model server, and a prompt never recorded rejects in the page with the cassette's
message and fails the test.
"""

import json

import pytest

from tests.testwallet.relay.model_double import ModelDouble
from testwallet.cassette import Cassette, Mode, NotRecorded
from testwallet.relay.conf import environment_settings

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT_S = 10
# One session, a prompt and a streamed prompt, in the page; what each gave, or the error's name and message.
PROMPTS = """async (question) => {
  try {
    const session = await LanguageModel.create({ initialPrompts: [{ role: 'system', content: 'Answer briefly.' }] });
    const whole = await session.prompt(question);
    const pieces = [];
    for await (const piece of session.promptStreaming(question)) pieces.push(piece);
    return { whole, pieces };
  } catch (error) {
    return { error: { name: error.name, message: error.message } };
  }
}"""


@pytest.fixture
async def page_with_model(page, daphne_server, builtin_model):
    await builtin_model.install(page)
    await page.goto(daphne_server.url + "/")
    return page


async def asked(page, question):
    return await page.evaluate(PROMPTS, question)


async def test_a_prompt_is_recorded_from_the_model_server_and_replayed_to_the_page(
    page_with_model, builtin_model, tmp_path
):
    file = tmp_path / "prompts.json"
    with ModelDouble() as model:
        model.reply("Is it alive?")
        server = environment_settings({"TESTWALLET_MODEL_URL": model.url}, cassette=str(file), record="new")
        builtin_model.answer_from_model(Cassette(file, Mode.NEW), server)
        recorded = await asked(page_with_model, "Think of an animal.")
    assert recorded == {"whole": "Is it alive?", "pieces": ["Is ", "it ", "alive?"]}
    assert len(model.chats()) == 1  # the same words, streamed or not, share one recording
    assert model.chats()[0]["messages"] == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Think of an animal."},
    ]
    assert len(json.loads(file.read_text(encoding="utf-8"))["entries"]) == 1

    builtin_model.answer_from_model(Cassette(file))  # replay only: the double is gone
    assert await asked(page_with_model, "Think of an animal.") == recorded


async def test_a_prompt_never_recorded_rejects_in_the_page_and_fails_the_test(
    page_with_model, builtin_model, tmp_path
):
    file = tmp_path / "prompts.json"
    file.write_text('{"testwallet_cassette": 1, "entries": []}\n', encoding="utf-8")
    builtin_model.answer_from_model(Cassette(file))

    seen = await asked(page_with_model, "Think of a plant.")

    assert seen["error"]["name"] == "UnknownError"
    assert (
        'No recorded answer for the streamed chat request ending "Think of a plant."'
        in seen["error"]["message"]
    )
    assert "the cassette has no chat request at all" in seen["error"]["message"]
    with pytest.raises(NotRecorded):
        builtin_model.check()
