"""
`python -m testwallet.direct '<link>'` answers text.generate with the
TESTWALLET_MODEL_* model of the site's stand-ins.
"""

from tests.testwallet.relay.model_double import MODEL
from testwallet.direct import __main__ as cli
from testwallet.direct.backends import OpenAICompatibleBackend, ScriptedBackend


def backend_for(argv):
    return cli.build_backend(cli.model_from_environment(cli.parse_args(argv)))


async def test_command_without_a_backend_answers_with_the_testwallet_model(monkeypatch, model):
    monkeypatch.setenv("TESTWALLET_MODEL_URL", model.url)
    monkeypatch.setenv("TESTWALLET_MODEL", MODEL)
    monkeypatch.setenv("TESTWALLET_MODEL_KEY", "sk-from-env")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    backend = backend_for(["LINK"])
    model.reply("Lima")
    output = await backend.run(
        "text.generate", {"messages": [{"role": "user", "content": "Capital of Peru?"}]}, {}
    )
    assert isinstance(backend, OpenAICompatibleBackend) and backend.models == {"m1": MODEL}
    assert backend.headers == {"authorization": "Bearer sk-from-env"}
    assert output == {"text": "Lima"}
    assert model.chats()[-1]["model"] == MODEL


def test_an_explicit_backend_on_the_command_line_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("TESTWALLET_MODEL_URL", "http://127.0.0.1:9/v1")
    assert isinstance(backend_for(["LINK", "--script", 'text.generate={"text": "hi"}']), ScriptedBackend)
    named = backend_for(["LINK", "--openai-url", "http://127.0.0.1:8/v1", "--model", "m1=other"])
    assert (named.base_url, named.models) == ("http://127.0.0.1:8/v1", {"m1": "other"})


def test_without_the_environment_the_command_stays_scripted(monkeypatch):
    monkeypatch.delenv("TESTWALLET_MODEL_URL", raising=False)
    assert isinstance(backend_for(["LINK"]), ScriptedBackend)
