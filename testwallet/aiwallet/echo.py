"""
The echo model: what the test AI Wallet answers a chat when the test scripted nothing, "Echo: "
and the last user message, a word per delta, with words counted as the in-page echo model
counts them in place of tokens.
"""

import re
from typing import Any

from testwallet.aiwallet.records import Reply


def echo_reply(messages: list[Any]) -> Reply:
    """Return the echo model's answer: "Echo: " and the last user message, a word per delta."""
    last = next((m for m in reversed(messages) if isinstance(m, dict) and m.get("role") == "user"), {})
    content = f"Echo: {_text_of(last.get('content'))}"
    return Reply(re.findall(r"\s*\S+\s*", content) or [content])


def word_usage(messages: list[Any], deltas: list[str]) -> dict[str, int]:
    """Count words, as the in-page echo model does: a deterministic stand-in for token counts."""
    words = sum(len(_text_of(m.get("content")).split()) for m in messages if isinstance(m, dict))
    return {"inputTokens": words, "outputTokens": len(deltas), "cachedInputTokens": 0}


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part for part in content if isinstance(part, dict) and part.get("type") == "text"]
        texts = (part.get("text") for part in parts)
        return "".join(text for text in texts if isinstance(text, str))
    return ""
