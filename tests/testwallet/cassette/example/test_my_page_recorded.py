# The example of docs/howto/recorded-answers.md, "The stand-ins your tests drive, from pytest":
# a page's chat answered from a committed recording, with no model server. Self-contained, as in
# a site's own suite: the fixtures come from the test wallet's pytest plugin.

import pytest

# What the page asks its wallet: the recording (tests/recordings/stand-ins.json) answers this chat.
CHAT = {
    "messages": [{"role": "user", "content": "Name one calm book for tonight."}],
    "tools": [
        {"name": "search_books", "description": "Find books by mood.", "inputSchema": {"type": "object"}},
        {"name": "get_book", "description": "Read one book.", "inputSchema": {"type": "object"}},
    ],
    "options": {"maxTokens": 48, "temperature": 0},
}
# A function, not an expression: a page whose CSP forbids eval still runs it.
ASK = "(chat) => window.aiwallet.request('chat', chat)"


@pytest.mark.testwallet_cassette("../../../recordings/stand-ins.json")  # from this file's folder
async def test_my_page_gets_the_recorded_answer(page, daphne_server, aiwallet):
    await aiwallet.install(page)
    aiwallet.approve_site(daphne_server.url)  # the visitor approved the site before
    await page.goto(daphne_server.url + "/")
    answer = await page.evaluate(ASK, CHAT)
    assert answer["message"]["content"].strip()  # the recorded model's words
    assert [chat.outcome for chat in aiwallet.chats] == ["answered"]
