"""
testwallet/_openai_chat.py: an AI Wallet chat as an OpenAI request, the same as the npm driver's
(frontend/playwright/openai-chat.js) builds it, key for key, since a cassette recorded from one
replays to the other; and a streamed answer read back into pieces, tool calls and usage.
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from testwallet._openai_chat import StreamedAnswer, wallet_chat_request

OPENAI_CHAT_JS = Path(__file__).resolve().parents[2] / "frontend" / "playwright" / "openai-chat.js"

CHATS = [
    {"messages": [{"role": "user", "content": "A calm book?"}]},
    {
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
    },
    {
        "messages": [{"role": "user", "content": "ü ✓ \u2028"}],
        "options": {"toolChoice": {"name": "get_book"}},
    },
    {
        "messages": [{"role": "user", "content": 7}],
        "tools": [],
        "options": {"maxTokens": True, "temperature": "hot"},
    },
]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js (make test has it)")
@pytest.mark.parametrize("stream", [True, False])
def test_the_python_and_the_javascript_wallet_ask_the_same_request(stream):
    script = (
        f"const {{ chatRequest }} = await import({json.dumps(OPENAI_CHAT_JS.as_uri())});"
        f"const chats = {json.dumps(CHATS)};"
        f"process.stdout.write(JSON.stringify(chats.map((chat) => chatRequest(chat, {json.dumps(stream)}))));"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [wallet_chat_request(chat, stream) for chat in CHATS]


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
