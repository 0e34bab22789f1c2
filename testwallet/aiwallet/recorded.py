"""
The test AI Wallet answering from a model through a cassette (``AiWalletStub.answer_from_model``,
or the ``testwallet_cassette`` marker on a test that uses the ``aiwallet`` fixture): each chat
becomes an OpenAI chat-completions request (testwallet._openai_chat), asked through
``testwallet.cassette.Cassette`` as the relay asks (testwallet.relay.recorded). In replay the
model server is never asked; a chat with no recording fails at once with the cassette's
NotRecorded, which the page gets as a 409 and the test as its failure.
"""

from typing import Any

from testwallet.aiwallet.records import Chat, ProviderError, Reply, ToolCall
from testwallet.cassette import Cassette
from testwallet.relay import recorded
from testwallet.relay.conf import RelaySettings, environment_settings
from testwallet.relay.exceptions import RelayError


class RecordedModel:
    """A model function of the test AI Wallet: each chat answered from `cassette`, or asked and recorded."""

    def __init__(self, cassette: Cassette, server: RelaySettings | None = None) -> None:
        self.cassette = cassette
        #: The model server asked for what is not recorded (default: TESTWALLET_MODEL_URL and its kin).
        self.server = server or environment_settings(cassette=str(cassette.path), record=cassette.mode.value)

    async def __call__(self, chat: Chat) -> Reply:
        """Return the model's answer to the chat; NotRecorded, in replay, for a chat never recorded."""
        params = {"messages": chat.messages, "tools": chat.tools, "options": chat.options}
        deltas: list[str] = []
        result: dict[str, Any] | None = None
        try:
            # Streamed, as the page's chat is: the recording keeps its pieces. The wallet's events,
            # as python -m testwallet.cassette serve gives the npm driver and the relay the page.
            async for event in await recorded.wallet_chat(self.server, params, True, self.cassette):
                if event["kind"] == "text":
                    deltas.append(event["delta"])
                elif event["kind"] == "error":
                    raise ProviderError(event["status"], event["message"])
                else:
                    result = event["result"]
        except RelayError as error:
            raise ProviderError(error.status, error.message) from None
        if result is None:  # wallet_events ends with a result or an error: never, unless it changes
            raise ProviderError(502, "The model's answer ended without a result")
        calls = result["message"].get("toolCalls", [])
        return Reply(
            deltas,
            [ToolCall(call["name"], call["arguments"], call["id"]) for call in calls],
            result["finishReason"] if not calls else None,
            result.get("model"),
            result.get("usage"),
        )
