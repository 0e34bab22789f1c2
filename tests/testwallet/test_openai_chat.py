"""
testwallet/_openai_chat.py, the one place an AI Wallet chat becomes an OpenAI request and a
model's answer becomes the wallet's events (for the relay, the served cassette and the pytest
driver alike): the request, key for key, since a cassette matches requests as JSON; a streamed
answer read into pieces, tool calls and usage; and both kinds of answer as the wallet's events.
"""

import asyncio

import pytest

from testwallet._openai_chat import StreamedAnswer, completion_events, wallet_chat_request, wallet_events

#: A chat with every awkward part: content parts with an image, a tool call and its result, an
#: assistant message with no tool calls, tools with and without a schema, and every option.
CHAT = {
    "messages": [
        {"role": "system", "content": "You sell books."},
        {
            "role": "user",
            "content": [{"type": "text", "text": "This one?"}, {"type": "image", "url": "data:x"}],
        },
        {
            "role": "assistant",
            "content": "",
            "toolCalls": [{"id": "c1", "name": "search_books", "arguments": {"mood": "calme", "n": 1.5}}],
        },
        {"role": "tool", "toolCallId": "c1", "content": '[{"title": "Stoner"}]'},
        {"role": "assistant", "content": "No tools here", "toolCalls": []},
    ],
    "tools": [
        {"name": "search_books", "description": "Find books.", "inputSchema": {"type": "object"}},
        {"name": "get_book"},
        {"name": "empty", "inputSchema": {}},
    ],
    "options": {"maxTokens": 48, "temperature": 0, "topP": 0.5, "stop": ["\n"], "toolChoice": "auto"},
}


def function(name, description="", parameters=None):
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": parameters or {"type": "object"},
        },
    }


def test_a_wallet_chat_becomes_the_openai_request_key_for_key():
    assert wallet_chat_request(CHAT, True) == {
        "messages": [
            {"role": "system", "content": "You sell books."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "This one?"},
                    {"type": "image_url", "image_url": {"url": "data:x"}},
                ],
            },
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        # JSON.stringify's spacing, as the recordings made in the page have it.
                        "function": {"name": "search_books", "arguments": '{"mood":"calme","n":1.5}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '[{"title": "Stoner"}]'},
            {"role": "assistant", "content": "No tools here"},
        ],
        "stream": True,
        "tools": [
            function("search_books", "Find books."),
            function("get_book"),
            {"type": "function", "function": {"name": "empty", "description": "", "parameters": {}}},
        ],
        "max_tokens": 48,
        "temperature": 0,
        "top_p": 0.5,
        "stop": ["\n"],
        "tool_choice": "auto",
    }


def test_options_of_the_wrong_type_are_left_out_and_a_named_tool_choice_is_a_function():
    asked = wallet_chat_request(
        {
            "messages": [{"role": "user", "content": 7}],
            "tools": [],
            "options": {"maxTokens": True, "temperature": "hot", "toolChoice": {"name": "get_book"}},
        },
        False,
    )
    assert asked == {
        "messages": [{"role": "user", "content": "7"}],
        "stream": False,
        "tool_choice": {"type": "function", "function": {"name": "get_book"}},
    }


@pytest.mark.parametrize(
    ("asked", "sent"),
    [
        ({"type": "json"}, {"type": "json_object"}),
        (
            {"type": "json", "schema": {"type": "object"}, "name": "move", "strict": True},
            {
                "type": "json_schema",
                "json_schema": {"name": "move", "schema": {"type": "object"}, "strict": True},
            },
        ),
        (
            {"type": "json", "schema": {"type": "object"}},
            {"type": "json_schema", "json_schema": {"name": "response", "schema": {"type": "object"}}},
        ),
    ],
)
def test_a_json_response_format_the_page_asks_for_reaches_the_model(asked, sent):
    body = wallet_chat_request(
        {"messages": [{"role": "user", "content": "x"}], "options": {"responseFormat": asked}}, True
    )
    assert body["response_format"] == sent


def test_a_response_format_that_is_not_json_is_left_out():
    body = wallet_chat_request({"messages": [], "options": {"responseFormat": {"type": "xml"}}}, True)
    assert "response_format" not in body


def test_a_stream_is_read_into_pieces_tool_calls_the_finish_and_the_usage():
    answer = StreamedAnswer()
    for event in [
        {"model": "m", "choices": [{"delta": {"role": "assistant", "content": None}}]},
        {"choices": [{"delta": {"content": "Try "}}]},
        {"choices": [{"delta": {"content": "this."}}]},
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "x", "function": {"name": "search", "arguments": ""}}
                        ]
                    }
                }
            ]
        },
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"mood":'}}]}}]},
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"calm"}'}}]}}]},
        {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
        {"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4}},
    ]:
        answer.add(event)
    assert answer.deltas == ["Try ", "this."]
    assert answer.tool_calls() == [{"id": "x", "name": "search", "arguments": {"mood": "calm"}}]
    assert (answer.finish, answer.model) == ("toolCalls", "m")
    assert answer.usage == {"inputTokens": 9, "outputTokens": 4, "cachedInputTokens": 0}


def test_tool_arguments_that_are_not_a_json_object_are_the_models_error():
    answer = StreamedAnswer()
    answer.add(
        {
            "choices": [
                {"delta": {"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "[1]"}}]}}
            ]
        }
    )
    with pytest.raises(ValueError, match="not a JSON object"):
        answer.tool_calls()


async def listed(events):
    return [event async for event in events]


async def each(*events):
    for event in events:
        yield event


def test_a_stream_becomes_the_wallets_events_piece_for_piece_then_the_result():
    stream = each(
        {"model": "m", "choices": [{"delta": {"content": "Try "}}]},
        {"choices": [{"delta": {"content": "this."}}]},
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "x", "function": {"name": "f"}}]}}]},
        {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
        {"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4}},
    )
    assert asyncio.run(listed(wallet_events(stream))) == [
        {"kind": "text", "delta": "Try "},
        {"kind": "text", "delta": "this."},
        {
            "kind": "result",
            "result": {
                "message": {
                    "role": "assistant",
                    "content": "Try this.",
                    "toolCalls": [{"id": "x", "name": "f", "arguments": {}}],
                },
                "finishReason": "toolCalls",
                "model": "m",
                "usage": {"inputTokens": 9, "outputTokens": 4, "cachedInputTokens": 0},
            },
        },
    ]


def test_a_stream_that_breaks_off_ends_with_the_servers_error_and_no_result():
    stream = each(
        {"choices": [{"delta": {"content": "Try "}}]},
        {"error": {"message": "The model server broke off the answer", "status": 504}},
        {"choices": [{"delta": {"content": "never read"}}]},
    )
    assert asyncio.run(listed(wallet_events(stream))) == [
        {"kind": "text", "delta": "Try "},
        {"kind": "error", "status": 504, "message": "The model server broke off the answer"},
    ]


def test_a_stream_with_tool_arguments_that_are_not_an_object_ends_with_a_502():
    stream = each({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "[1]"}}]}}]})
    [event] = asyncio.run(listed(wallet_events(stream)))
    assert event["kind"] == "error" and event["status"] == 502 and "not a JSON object" in event["message"]


def test_a_completion_becomes_its_text_in_one_piece_then_the_result():
    completion = {
        "model": "m",
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": "Look.",
                    "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": '{"a":1}'}}],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    assert asyncio.run(listed(completion_events(completion))) == [
        {"kind": "text", "delta": "Look."},
        {
            "kind": "result",
            "result": {
                "message": {
                    "role": "assistant",
                    "content": "Look.",
                    "toolCalls": [{"id": "c", "name": "f", "arguments": {"a": 1}}],
                },
                "finishReason": "toolCalls",
                "model": "m",
            },
        },
    ]


@pytest.mark.parametrize("completion", [{}, {"choices": []}, {"choices": [{"message": None}]}])
def test_a_completion_with_no_message_is_the_model_servers_502(completion):
    assert asyncio.run(listed(completion_events(completion))) == [
        {"kind": "error", "status": 502, "message": "The model server's answer has no message"}
    ]
