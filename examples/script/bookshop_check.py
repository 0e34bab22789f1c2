"""
The plain-script example of docs/howto/ci.md ("Test your site in CI"): the test wallet driven from a
Playwright script with no test runner, run by `make test`. It serves the project with daphne (a
site may point it at any server it runs instead), then checks the bookshop: connect, a tool call,
a streamed answer, a 429 from the provider, and a visitor who declines. It exits non-zero, saying
what went wrong, when a check fails.

    .venv/bin/python examples/script/bookshop_check.py
"""

import os
import sys

from playwright.sync_api import expect, sync_playwright

from testwallet.aiwallet import ToolCall
from testwallet.chromium import CHROMIUM_ARGS, chromium_executable
from testwallet.server import DaphneServer
from testwallet.sync_api import SyncAiWallet


def check_bookshop(browser, url):
    """Run the scenario in fresh pages of ``browser`` against the bookshop at ``url``."""
    page = browser.new_page()
    wallet = SyncAiWallet()
    wallet.install(page)  # before the page's scripts
    wallet.reply(tool_calls=[ToolCall("search_books", {"mood": "calm", "limit": 1})])
    wallet.reply(["A calm ", "pick."])
    wallet.fail(429, "Your plan is spent")
    page.goto(url)
    page.get_by_role("button", name="Connect your AI").click()
    page.locator("#question").fill("Something calm")
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.get_by_text("A calm pick.")).to_be_visible()
    page.locator("#question").fill("And another?")
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.locator('#assistant-error[data-status="429"]')).to_contain_text("Your plan is spent")
    assert [m["role"] for m in wallet.chats[1].messages][-2:] == ["assistant", "tool"], wallet.chats[
        1
    ].messages
    wallet.close()
    wallet.check()

    page = browser.new_page()
    wallet = SyncAiWallet()
    wallet.install(page)
    wallet.consent = "decline"
    page.goto(url)
    page.get_by_role("button", name="Connect your AI").click()
    expect(page.locator('ai-connect-widget[data-state="error"]')).to_contain_text("declined")
    wallet.close()
    wallet.check()


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sites.config.settings")
    # A fresh server's first tool call loads the MCP SDK, and CI's cores are shared: 20 s, not 5.
    expect.set_options(timeout=20_000)
    setup = [("migrate", "--noinput"), ("load_catalog",)]
    with (
        DaphneServer("sites.config.asgi:application", setup_commands=setup) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            check_bookshop(browser, server.url + "/bookshop/")
        finally:
            browser.close()
    print("bookshop_check: connect, tool call, streamed answer, 429 and decline all behaved.")


if __name__ == "__main__":
    sys.exit(main())
