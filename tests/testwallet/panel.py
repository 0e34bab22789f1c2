"""The person at the keyboard in the stand-ins' own panel (frontend/testwallet/panel.js), for by-hand tests."""

from playwright.async_api import Locator, Page

#: How long a by-hand test waits for the panel to ask.
PANEL_TIMEOUT_MS = 10_000


def panel(page: Page) -> Locator:
    """Return the test wallet's panel in the page (a dialog labelled "Test wallet")."""
    return page.get_by_role("dialog", name="Test wallet")


async def press(page: Page, button: str) -> str:
    """Wait for the panel to ask, return what it says, and press one of its buttons."""
    asking = panel(page)
    await asking.get_by_role("button", name=button, exact=True).wait_for(timeout=PANEL_TIMEOUT_MS)
    said = await asking.text_content() or ""
    await asking.get_by_role("button", name=button, exact=True).click()
    return said


async def type_answer(page: Page, text: str, button: str = "Send to the page") -> str:
    """Wait for the panel's text field, type `text` in it, press `button`; return what the panel said."""
    asking = panel(page)
    await asking.get_by_role("textbox").wait_for(timeout=PANEL_TIMEOUT_MS)
    said = await asking.text_content() or ""
    await asking.get_by_role("textbox").fill(text)
    await asking.get_by_role("button", name=button, exact=True).click()
    return said


def record_native_dialogs(page: Page) -> list[str]:
    """Return a list that gets the type of every native dialog the page opens (the stand-ins open none)."""
    opened: list[str] = []
    page.on("dialog", lambda dialog: opened.append(dialog.type))
    return opened
