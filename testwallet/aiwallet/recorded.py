"""
The test AI Wallet answering from a model through a cassette (``AiWalletStub.answer_from_model``,
or the ``testwallet_cassette`` marker on a test that uses the ``aiwallet`` fixture): each chat
becomes an OpenAI chat-completions request (testwallet._openai_chat), asked through
``testwallet.cassette.Cassette`` as the relay asks (testwallet.relay.recorded). In replay the
model server is never asked; a chat with no recording fails at once with the cassette's
NotRecorded, which the page gets as a 409 and the test as its failure.
"""

from testwallet._openai_chat import wallet_chat_request
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
        body = wallet_chat_request(
            params, True
        )  # streamed, as the page's chat is: the recording keeps its pieces
        try:
            answer = await recorded.streamed_answer(self.server, body, self.cassette)
        except RelayError as error:
            raise ProviderError(error.status, error.message) from None
        try:
            calls = answer.tool_calls()
        except ValueError as error:
            raise ProviderError(502, str(error)) from None
        return Reply(
            answer.deltas,
            [ToolCall(call["name"], call["arguments"], call["id"]) for call in calls],
            answer.finish if not calls else None,
            answer.model,
            answer.usage,
        )
