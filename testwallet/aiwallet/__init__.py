"""
A test double of AI Wallet (``window.aiwallet``) for browser tests, driven from pytest:
docs/howto/ci.md, "The aiwallet fixture", tells how to drive it.

``frontend/testwallet/aiwallet.js`` defines the provider in the page, as the real wallet's content
script does; this package is the wallet behind it: :mod:`.records` (what a test scripts and reads),
:mod:`.windows` (the visitor's windows), :mod:`.driver` (the wallet and the ``aiwallet`` fixture),
:mod:`.binding` (what the page calls), :mod:`.answers` (how it answers each request), :mod:`.chats`
(a chat's model answer), :mod:`.waits`, :mod:`.events` and :mod:`.echo` (the echo model).
"""

from testwallet._driver import Consent, ScriptError
from testwallet.aiwallet.binding import BINDING
from testwallet.aiwallet.driver import AiWalletStub, aiwallet, script_path
from testwallet.aiwallet.records import (
    AUTO,
    Account,
    Chat,
    ProviderError,
    ProviderUnreachable,
    Reply,
    Request,
    ToolCall,
)
from testwallet.aiwallet.windows import ApprovalWindow, UnlockWindow

__all__ = [
    "AUTO",
    "BINDING",
    "Account",
    "AiWalletStub",
    "ApprovalWindow",
    "Chat",
    "Consent",
    "ProviderError",
    "ProviderUnreachable",
    "Reply",
    "Request",
    "ScriptError",
    "ToolCall",
    "UnlockWindow",
    "aiwallet",
    "script_path",
]
