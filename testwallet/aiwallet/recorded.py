"""
The test AI Wallet answering from a model through a cassette (``AiWalletStub.answer_from_model``,
or the ``testwallet_cassette`` marker on a test that uses the ``aiwallet`` fixture): each chat
becomes an OpenAI chat-completions request (testwallet._openai_chat), asked through
``testwallet.cassette.Cassette`` as the relay asks (testwallet.relay.recorded). In replay the
model server is never asked; a chat with no recording fails at once with the cassette's
NotRecorded, which the page gets as a 409 and the test as its failure.
"""

from collections.abc import AsyncIterator
from typing import Any

from testwallet.aiwallet.records import Chat, ProviderError, Reply
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
        """Return the model's answer to the chat, streamed as it comes (at the recorded pace with
        TESTWALLET_PACING); NotRecorded, in replay, for a chat never recorded, before any event."""
        params = {"messages": chat.messages, "tools": chat.tools, "options": chat.options}
        try:
            # Streamed, as the page's chat is: the recording keeps its pieces. The wallet's events,
            # as python -m testwallet.cassette serve gives the npm driver and the relay the page.
            events = await recorded.wallet_chat(self.server, params, True, self.cassette)
        except RelayError as error:
            raise ProviderError(error.status, error.message) from None
        return Reply(events=_failures_as_events(events))


async def _failures_as_events(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    """Pass the events on; a model server that fails mid-answer ends them with its error event."""
    try:
        async for event in events:
            yield event
    except RelayError as error:
        yield {"kind": "error", "status": error.status, "message": error.message}
