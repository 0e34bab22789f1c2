"""docs/howto/recorded-answers.md, followed: record with a model server once, replay with none."""

import re
from pathlib import Path

from tests.testwallet.cassette.test_fixtures import QUIET
from tests.testwallet.relay.model_double import ModelDouble

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "howto" / "recorded-answers.md"
EXAMPLE = Path(__file__).parent / "example" / "test_my_prompt.py"


def recording_command():
    """Return the page's recording command: its environment variable and pytest's arguments."""
    found = re.search(r"```sh\n(\w+)=(\S+) pytest (.+)\n```", PAGE.read_text(encoding="utf-8"))
    assert found, "the page has no recording command"
    return found[1], found[3].split()


def test_the_howto_records_once_and_replays_with_no_model_server(pytester, monkeypatch):
    variable, arguments = recording_command()
    assert variable == "TESTWALLET_MODEL_URL" and arguments == ["--testwallet-record=all"]
    pytester.makepyfile(test_my_prompt=EXAMPLE.read_text(encoding="utf-8"))

    with ModelDouble() as model:
        model.reply("Try *Stoner*, by John Williams.")
        monkeypatch.setenv(variable, model.url)
        pytester.runpytest_subprocess(*QUIET, *arguments).assert_outcomes(passed=1)
    assert len(model.requests) == 1 and (pytester.path / "answers.json").exists()

    monkeypatch.delenv(variable)  # CI: no model server at all
    pytester.runpytest_subprocess(*QUIET).assert_outcomes(passed=1)

    pytester.makepyfile(test_my_prompt=EXAMPLE.read_text(encoding="utf-8").replace("A calm", "A cheerful"))
    failed = pytester.runpytest_subprocess(*QUIET)
    failed.assert_outcomes(failed=1)
    assert 'messages[0].content: recorded "A calm book?", asked "A cheerful book?"' in failed.stdout.str()


async def test_the_howtos_hand_written_entry_replays_to_its_chat(tmp_path):
    import json

    from testwallet.cassette import Cassette, Mode
    from testwallet.relay import recorded
    from testwallet.relay.conf import environment_settings

    block = PAGE.read_text(encoding="utf-8").split("test_howto.py replays it to that chat -->", 1)[1]
    cassette = tmp_path / "by-hand.json"
    cassette.write_text(block.split("```json\n", 1)[1].split("```", 1)[0], encoding="utf-8")
    assert json.loads(cassette.read_text())["testwallet_cassette"] == 1
    chat = {"messages": [{"role": "user", "content": "Name one calm book."}], "options": {"maxTokens": 48}}

    conf = environment_settings({}, cassette=str(cassette))  # no model server named at all
    events = [
        event async for event in await recorded.wallet_chat(conf, chat, True, Cassette(cassette, Mode.NONE))
    ]

    assert [event["delta"] for event in events if event["kind"] == "text"] == ["Try ", "*Stoner*."]
    assert events[-1]["kind"] == "result"
    assert events[-1]["result"]["message"]["content"] == "Try *Stoner*."
