"""
The bookshop by hand (`?testwallet=1`, DEBUG) with no wallet installed: the
in-page AI Wallet stand-in answers through the site's relay, with the
developer's model server (here a fake one) or with the scripted player, and the
whole tool loop runs: a real search_books over MCP, cards, the streamed answer.
"""

import asyncio
import re

import pytest

from tests.testwallet.panel import press
from tests.testwallet.relay.model_double import MODEL

pytestmark = [pytest.mark.browser, pytest.mark.live]


async def open_shop(page, server):
    """Open the shop with the stand-in on, approve it in its panel, and return what the panel said."""
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.on("dialog", lambda dialog: page.problems.append(f"a native {dialog.type} dialog"))
    await page.goto(server.url + "/bookshop/?testwallet=1")
    await page.locator('ai-connect-widget[data-state="disconnected"]').wait_for(timeout=5000)
    await page.get_by_role("button", name="Connect your AI").click()
    said = await press(page, "Approve")
    await page.locator('ai-connect-widget[data-state="connected"]').wait_for(timeout=5000)
    return said


async def ask(page, question):
    await page.locator("#question").fill(question)
    await page.get_by_role("button", name="Ask", exact=True).click()
    await page.locator("#stop").wait_for(state="hidden", timeout=10000)
    await page.locator("#ask-button:enabled").wait_for(state="attached", timeout=10000)
    return await page.locator(".turn.assistant .text").last.text_content()


async def test_model_server_runs_the_bookshops_tool_loop_through_the_relay(page, model_server, model):
    model.reply(tool_calls=[("search_books", {"mood": "calm", "limit": 3})])
    model.reply("Three calm books for tonight.")
    asked = await open_shop(page, model_server)
    assert f"{MODEL} at 127.0.0.1:" in await page.locator(".testwallet-banner").text_content()
    assert f"Your own model server answers: {MODEL} at 127.0.0.1:" in asked

    answer = await ask(page, "A calm book for tonight")

    assert answer == "Three calm books for tonight."
    titles = await page.locator(".assistant-cards .title").all_text_contents()
    assert len(titles) == 3
    first, second = model.chats()
    assert first["stream"] is True and first["model"] == MODEL
    assert "search_books" in [tool["function"]["name"] for tool in first["tools"]]
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
    assert second["messages"][2]["tool_calls"][0]["function"]["name"] == "search_books"
    tool_result = second["messages"][3]
    assert tool_result["tool_call_id"] == second["messages"][2]["tool_calls"][0]["id"]
    assert all(f"{title} by" in tool_result["content"] for title in titles)
    assert page.problems == []


async def test_model_server_failure_shows_the_relays_words(page, model_server, model):
    model.fail(503, "the model is loading")
    await open_shop(page, model_server)
    await ask(page, "A calm book for tonight")
    error = page.locator("#assistant-error")
    await error.wait_for(timeout=5000)
    assert await error.get_attribute("data-status") == "502"  # the relay's: the model server failed
    assert "The model server answered 503: the model is loading" in await error.text_content()


async def test_scripted_stand_in_searches_the_shop_with_the_visitors_words_and_shows_cards(
    page, scripted_server
):
    asked = await open_shop(page, scripted_server)
    assert "not from an AI" in await page.locator(".testwallet-banner").text_content()
    assert "A scripted player answers. It is not an AI." in asked

    answer = await ask(page, "dune")

    titles = await page.locator(".assistant-cards .title").all_text_contents()
    assert titles and all("dune" in title.lower() for title in titles)
    assert answer.startswith(f"I searched the shop for 'dune' and found {len(titles)} book")
    # The books are shown once, as the cards: the answer does not list them again.
    assert not any(title in answer for title in titles)
    # Who answered, named once: "Test wallet (scripted) (scripted)" doubled it.
    assert await page.locator(".turn.assistant .who").last.text_content() == "Scripted stand-in, not an AI"
    assert "(scripted) (scripted)" not in await page.locator("ai-connect-widget").text_content()
    assert page.problems == []


async def test_stop_on_the_page_ends_the_model_servers_answer_through_the_relay(page, model_server, model):
    rest = model.reply("Once upon a time", hold_after=1)
    await open_shop(page, model_server)
    await page.locator("#question").fill("Tell me a story")
    await page.get_by_role("button", name="Ask", exact=True).click()
    await page.locator(".turn.assistant .text", has_text="Once").wait_for(timeout=5000)
    await page.get_by_role("button", name="Stop").click()
    await page.locator(".turn.assistant.stopped").wait_for(timeout=5000)
    # The model is still holding the rest back: the relay must close its stream now.
    assert await asyncio.to_thread(model.hung_up.wait, 15)
    rest.set()
    assert await page.locator(".turn.assistant .text").last.text_content() == "Once "


async def test_scripted_stand_in_searches_by_the_mood_the_visitor_names(page, scripted_server):
    await open_shop(page, scripted_server)
    answer = await ask(page, "A calm book for tonight")
    titles = await page.locator(".assistant-cards .title").all_text_contents()
    assert titles and answer.startswith("I searched the shop for calm books and found")
    assert not any(title in answer for title in titles)


async def test_scripted_stand_in_puts_the_first_book_in_the_basket_as_the_page_promises(
    page, scripted_server
):
    await open_shop(page, scripted_server)
    await ask(page, "dune")
    first = (await page.locator(".assistant-cards .title").all_text_contents())[0]
    answer = await ask(page, "put the first one in my basket")
    assert answer.startswith("Done: it is in your basket") and first in answer
    await page.locator("#basket-count", has_text="(1)").wait_for(timeout=15000)


#: Any words that name who answered a turn (the page's, the old ones, the scripted player's own).
WHO = re.compile(
    r"Scripted stand-in, not an AI|Your model: |The site \(no AI\)|Answered by|scripted stand-in"
)


async def each_turns_who(page):
    """Return, for every answer in the transcript, the words in it that name who answered."""
    turns = await page.locator(".turn.assistant").all_inner_texts()
    return [WHO.findall(turn) for turn in turns]


async def test_scripted_stand_in_is_named_once_on_every_turn_and_never_called_an_ai(page, scripted_server):
    await open_shop(page, scripted_server)
    for question in ("dune", "A calm book for tonight", "something for a rainy day"):
        await ask(page, question)
    turns = await page.locator(".turn.assistant").all_inner_texts()
    assert len(turns) == 3
    assert await each_turns_who(page) == [["Scripted stand-in, not an AI"]] * 3
    for turn in turns:
        assert turn.count("not an AI") == 1 and "AI" not in turn.replace("not an AI", ""), turn
    assert page.problems == []


async def test_a_model_behind_the_test_wallet_is_named_once_on_every_turn(page, model_server, model):
    model.reply(tool_calls=[("search_books", {"mood": "calm", "limit": 2})])
    model.reply("Two calm books.")
    model.reply("A second answer, with no tool.")
    await open_shop(page, model_server)
    await ask(page, "A calm book for tonight")  # two chats in one turn: the label is set once
    await ask(page, "And another?")
    assert await each_turns_who(page) == [["Your model: "]] * 2
    for who in await page.locator(".turn.assistant .who").all_text_contents():
        assert who == f"Your model: {MODEL} (Test wallet)"
    assert page.problems == []
