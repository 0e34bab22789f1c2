"""
What the test wallet's ``window.aiwallet`` tests share: the page-side requests they run with
``page.evaluate``, and the ``site`` and ``connected`` fixtures (a plugin, registered in tests/conftest.py).
"""

import asyncio

import pytest_asyncio

TIMEOUT_MS = 5000

# Runs one request in the page and returns what the page saw: the result or the error (its name,
# status and message), and every streamed event, then "settled" when the promise settled.
ASK = """async ([method, params]) => {
  const events = [];
  const onEvent = (event) => events.push(event);
  try {
    const result = await window.aiwallet.request(method, params ?? undefined, onEvent);
    events.push({ kind: 'settled' });
    return { result, events };
  } catch (error) {
    events.push({ kind: 'settled' });
    return { error: { name: error.name, status: error.status, message: error.message }, events };
  }
}"""

# Starts a request without waiting for it: `window.asked` settles with its result or error (and
# whether that error is the abort's reason), `window.seen` holds the events as they stream, and
# `window.stop()` aborts it.
START = """([method, params]) => {
  window.seen = [];
  const controller = new AbortController();
  const reason = new DOMException('The visitor left the page', 'AbortError');
  window.stop = () => controller.abort(reason);
  const onEvent = (event) => window.seen.push(event);
  window.asked = window.aiwallet.request(method, params ?? undefined, onEvent, controller.signal).then(
    (result) => ({ result }),
    (error) => ({
      error: { name: error.name, status: error.status, message: error.message },
      sameReason: error === reason,
    }),
  );
}"""

# Starts a connect and a chat at the same moment: `window.both` settles with what ASK returns for each.
ASK_BOTH = f"""() => {{
  const ask = {ASK};
  const chat = {{ messages: [{{ role: 'user', content: 'hi' }}] }};
  window.both = Promise.all([ask(['connect', null]), ask(['chat', chat])]);
}}"""

# Collects the link notices of this page in `window.links`.
LISTEN = "() => { window.links = []; window.aiwallet.onLink((link) => window.links.push(link)); }"

ECHO_LINK = {"connected": True, "providerName": "Test wallet", "model": "echo-1"}
QUESTION = {"messages": [{"role": "user", "content": "A calm book for tonight"}]}
TOOLS = [
    {"name": "search_books", "description": "Find books by mood.", "inputSchema": {"type": "object"}},
    {"name": "get_book", "description": "Read one book.", "inputSchema": {"type": "object"}},
]


async def ask(page, method, params=None):
    """Run one request in the page and return what the page saw."""
    return await settled(page.evaluate(ASK, [method, params]))


def refused(status, message):
    """Return the error a page sees when the wallet refuses with `status` and `message`."""
    return {"name": "WalletRequestError", "status": status, "message": message}


async def settled(evaluation):
    """Await a page evaluation that waits on the wallet, within the bound."""
    return await asyncio.wait_for(evaluation, TIMEOUT_MS / 1000)


async def notices(page, count):
    """Wait until the page has received `count` link notices; return them."""
    # A function, not an expression: the site's CSP forbids the eval an expression needs.
    await page.wait_for_function("(count) => window.links.length >= count", arg=count, timeout=TIMEOUT_MS)
    return await page.evaluate("window.links")


@pytest_asyncio.fixture(loop_scope="session")
async def site(aiwallet, page, daphne_server):
    """The home page with the test wallet installed; the wallet is not yet approved."""
    await aiwallet.install(page)
    await page.goto(daphne_server.url + "/")
    return page


@pytest_asyncio.fixture(loop_scope="session")
async def connected(aiwallet, site, daphne_server):
    """The home page of a site the visitor approved before it loaded."""
    aiwallet.approve_site(daphne_server.url)
    await site.reload()
    return site
