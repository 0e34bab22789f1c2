"""
How the test wallet's ``window.aiwallet`` answers (testwallet/aiwallet/answers.py), against
specs/wallet-provider.md in Debian's Chromium: the error table, streaming, Auto and abort.
"""

import pytest

from tests.testwallet.aiwallet_cases import (
    QUESTION,
    START,
    TOOLS,
    ask,
    refused,
    settled,
)
from testwallet.aiwallet import AUTO, ProviderError, ScriptError, ToolCall

pytestmark = [pytest.mark.browser, pytest.mark.live]


# -- The error table -----------------------------------------------------------------------------


async def test_chat_without_messages_rejects_400(connected):
    for params in (None, {}, {"messages": []}):
        asked = await ask(connected, "chat", params)
        assert asked["error"] == refused(400, "A chat request carries its messages")


async def test_chat_from_a_site_not_approved_rejects_401(site):
    asked = await ask(site, "chat", QUESTION)
    assert asked["error"] == refused(401, "This site is not connected to AI Wallet")
    assert asked["events"] == [{"kind": "settled"}]


async def test_chat_whose_account_is_gone_rejects_403(aiwallet, connected):
    aiwallet.remove_account("Test wallet")
    asked = await ask(connected, "chat", QUESTION)
    assert asked["error"] == refused(403, "AI Wallet has no AI account connected")


async def test_chat_on_auto_with_no_account_rejects_403(aiwallet, connected):
    aiwallet.switch(AUTO)
    aiwallet.remove_account("Test wallet")
    asked = await ask(connected, "chat", QUESTION)
    assert asked["error"]["status"] == 403
    assert asked["error"]["message"] == "AI Wallet has no AI account connected"


async def test_unknown_method_rejects_404_naming_the_method(site):
    asked = await ask(site, "summarize")
    assert asked["error"] == refused(404, "AI Wallet has no method named summarize")


async def test_updated_wallet_rejects_every_request_410(aiwallet, connected):
    aiwallet.mark_updated()
    for method in ("status", "connect", "disconnect", "chat"):
        asked = await ask(connected, method, QUESTION)
        assert asked["error"] == refused(410, "AI Wallet was updated. Reload this page to use it again.")


async def test_provider_refusal_rejects_with_the_provider_status_and_sends_no_start(aiwallet, connected):
    aiwallet.fail(429, "Your plan's quota is spent")
    asked = await ask(connected, "chat", QUESTION)
    assert asked["error"] == refused(429, "Test wallet answered 429: Your plan's quota is spent")
    assert asked["events"] == [{"kind": "settled"}]
    assert aiwallet.chats[-1].outcome == "failed"


async def test_provider_failing_mid_answer_rejects_after_the_text_it_streamed(aiwallet, connected):
    aiwallet.add_account("Claude", "claude-haiku-4-5")
    aiwallet.switch(AUTO)  # even with Auto: once text has streamed, no other account is tried
    aiwallet.reply(["Piranesi ", "suits"], fail_after=ProviderError(500, "Overloaded"))
    asked = await ask(connected, "chat", QUESTION)
    assert asked["error"] == refused(500, "Test wallet answered 500: Overloaded")
    kinds = [event["kind"] for event in asked["events"]]
    assert kinds == ["start", "text", "text", "settled"]
    assert aiwallet.chats[-1].outcome == "failed"
    assert len(aiwallet.chats) == 1


async def test_network_failure_rejects_502_with_the_reason(aiwallet, connected):
    aiwallet.fail_network("Could not reach api.example.com")
    asked = await ask(connected, "chat", QUESTION)
    assert asked["error"] == refused(502, "Could not reach api.example.com")


async def test_stop_pressed_in_the_wallet_mid_stream_rejects_499(aiwallet, connected):
    reply = aiwallet.reply(["Piranesi ", "suits ", "a calm evening."], hold_after=1)
    await connected.evaluate(START, ["chat", QUESTION])
    await reply.held()
    assert await connected.evaluate("window.seen.map((event) => event.kind)") == ["start", "text"]
    assert aiwallet.press_stop() == [aiwallet.chats[-1]]
    asked = await settled(connected.evaluate("window.asked"))
    assert asked["error"] == refused(499, "The answer was stopped from AI Wallet")
    assert await connected.evaluate("window.seen") == [
        {"kind": "start", "providerName": "Test wallet", "model": "echo-1"},
        {"kind": "text", "delta": "Piranesi "},
    ]
    assert await aiwallet.chats[-1].ended() == "stopped"


# -- Streaming -----------------------------------------------------------------------------------


async def test_chat_streams_one_start_then_each_delta_in_order_before_it_settles(aiwallet, connected):
    aiwallet.reply(["Piranesi ", "suits ", "a calm evening."], model="echo-1-2026-01-01")
    asked = await ask(connected, "chat", QUESTION)
    assert asked["events"] == [
        {"kind": "start", "providerName": "Test wallet", "model": "echo-1"},
        {"kind": "text", "delta": "Piranesi "},
        {"kind": "text", "delta": "suits "},
        {"kind": "text", "delta": "a calm evening."},
        {"kind": "settled"},
    ]
    assert asked["result"]["message"] == {"role": "assistant", "content": "Piranesi suits a calm evening."}
    assert asked["result"]["finishReason"] == "stop"
    assert asked["result"]["model"] == "echo-1-2026-01-01"  # as the provider names it


async def test_held_answer_streams_on_when_resumed(aiwallet, connected):
    reply = aiwallet.reply(["One ", "two ", "three."], hold_after=1)
    await connected.evaluate(START, ["chat", QUESTION])
    await reply.held()
    assert await connected.evaluate("window.seen.map((event) => event.delta ?? event.kind)") == [
        "start",
        "One ",
    ]
    reply.resume()
    asked = await settled(connected.evaluate("window.asked"))
    assert asked["result"]["message"]["content"] == "One two three."
    seen = await connected.evaluate("window.seen.map((event) => event.delta ?? event.kind)")
    assert seen == ["start", "One ", "two ", "three."]


async def test_tools_only_step_sends_start_right_before_the_result(aiwallet, connected):
    aiwallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm"})])
    asked = await ask(connected, "chat", {**QUESTION, "tools": TOOLS})
    assert asked["events"] == [
        {"kind": "start", "providerName": "Test wallet", "model": "echo-1"},
        {"kind": "settled"},
    ]
    assert asked["result"]["finishReason"] == "toolCalls"
    assert asked["result"]["message"]["content"] == ""


async def test_tool_calls_carry_stable_ids_and_parsed_arguments(aiwallet, connected):
    reply = aiwallet.reply(
        tool_calls=[ToolCall("search_books", '{"mood": "calm"}'), ToolCall("get_book", {"slug": "piranesi"})]
    )
    asked = await ask(connected, "chat", {**QUESTION, "tools": TOOLS})
    calls = asked["result"]["message"]["toolCalls"]
    assert [(call["name"], call["arguments"]) for call in calls] == [
        ("search_books", {"mood": "calm"}),
        ("get_book", {"slug": "piranesi"}),
    ]
    ids = [call["id"] for call in calls]
    assert len(set(ids)) == 2 and all(ids)
    assert ids == [call.id for call in reply.tool_calls]
    # The page answers each call by its id; the wallet reads the same ids back.
    answered = [
        *QUESTION["messages"],
        asked["result"]["message"],
        *(
            {"role": "tool", "toolCallId": call["id"], "name": call["name"], "content": "[]"}
            for call in calls
        ),
    ]
    await ask(connected, "chat", {"messages": answered, "tools": TOOLS})
    assert [m["toolCallId"] for m in aiwallet.chats[-1].messages if m["role"] == "tool"] == ids
    assert aiwallet.chats[-1].messages[1]["toolCalls"] == calls


async def test_reply_calling_a_tool_the_chat_did_not_offer_is_a_script_error(aiwallet, connected):
    aiwallet.reply(tool_calls=[ToolCall("delete_everything")])
    asked = await ask(connected, "chat", {**QUESTION, "tools": TOOLS})
    assert asked["error"]["status"] == 500
    assert asked["events"] == [{"kind": "settled"}]
    with pytest.raises(ScriptError, match="search_books, get_book"):
        aiwallet.check()


async def test_model_function_answers_when_nothing_is_queued(aiwallet, connected):
    seen = []

    async def model(chat):
        seen.append((chat.origin, chat.account, chat.model, chat.messages[-1]["content"]))
        return f"{len(chat.messages)} message(s) read"

    aiwallet.model = model
    asked = await ask(connected, "chat", QUESTION)
    assert asked["result"]["message"]["content"] == "1 message(s) read"
    assert seen == [(aiwallet.requests[-1].origin, "Test wallet", "echo-1", "A calm book for tonight")]


async def test_echo_model_answers_when_the_test_scripts_nothing(connected):
    asked = await ask(
        connected,
        "chat",
        {
            "messages": [
                {"role": "system", "content": "Be brief."},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Which book "},
                        {"type": "text", "text": "is calm?"},
                    ],
                },
            ]
        },
    )
    deltas = [event["delta"] for event in asked["events"] if event["kind"] == "text"]
    assert deltas == ["Echo: ", "Which ", "book ", "is ", "calm?"]
    assert asked["result"] == {
        "message": {"role": "assistant", "content": "Echo: Which book is calm?"},
        "finishReason": "stop",
        "model": "echo-1",
        "usage": {"inputTokens": 6, "outputTokens": 5, "cachedInputTokens": 0},
    }


# -- Auto ----------------------------------------------------------------------------------------


async def test_auto_link_has_no_model_and_start_names_the_account_that_answers(aiwallet, connected):
    aiwallet.add_account("Claude", "claude-haiku-5-5")
    aiwallet.add_account("ChatGPT", "gpt-6-luna")
    aiwallet.auto_order = ["Claude", "ChatGPT"]
    aiwallet.switch(AUTO)
    assert (await ask(connected, "status"))["result"] == {"connected": True, "providerName": "Auto"}
    aiwallet.fail(429, "Plan spent")  # Claude fails before any text: the wallet moves on
    aiwallet.reply("From the next account.")
    asked = await ask(connected, "chat", QUESTION)
    assert asked["events"][0] == {"kind": "start", "providerName": "ChatGPT", "model": "gpt-6-luna"}
    assert [event["kind"] for event in asked["events"]] == ["start", "text", "settled"]
    assert asked["result"]["model"] == "gpt-6-luna"
    assert aiwallet.chats[-1].account == "ChatGPT"


# -- Abort ---------------------------------------------------------------------------------------


async def test_abort_rejects_at_once_with_the_signal_reason_and_the_wallet_stops_the_chat(
    aiwallet, connected
):
    reply = aiwallet.reply(["Piranesi ", "suits ", "a calm evening."], hold_after=2)
    await connected.evaluate(START, ["chat", QUESTION])
    await reply.held()
    # The wallet holds the answer and will never send more: only the abort can settle it, and it
    # has to before a zero-delay timer fires.
    outcome = await connected.evaluate(
        """async () => {
          let settled = null;
          window.asked.then((answer) => { settled = answer; });
          window.stop();
          await new Promise((resolve) => setTimeout(resolve, 0));
          return settled && { sameReason: settled.sameReason, kinds: window.seen.map((event) => event.kind) };
        }"""
    )
    assert outcome == {"sameReason": True, "kinds": ["start", "text", "text"]}
    assert await aiwallet.chats[-1].ended() == "cancelled"
    assert aiwallet.requests[-1].answer is None  # the page asked for nothing more


async def test_abort_while_the_unlock_window_is_open_withdraws_the_request(aiwallet, connected):
    aiwallet.lock()
    aiwallet.unlocking = "wait"
    await connected.evaluate(START, ["chat", QUESTION])
    await aiwallet.unlock_window()
    await connected.evaluate("window.stop()")
    assert await settled(connected.evaluate("window.asked.then(({ sameReason }) => sameReason)")) is True
    aiwallet.unlock()
    assert aiwallet.chats == []  # no model was asked


async def test_already_aborted_signal_rejects_without_asking_the_wallet(aiwallet, connected):
    same = await connected.evaluate(
        """async () => {
          const reason = new Error('Not now');
          try { await window.aiwallet.request('chat', {}, undefined, AbortSignal.abort(reason)); }
          catch (error) { return error === reason; }
        }"""
    )
    assert same is True
    assert aiwallet.requests == []
