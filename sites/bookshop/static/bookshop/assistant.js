// @ts-check
// The bookshop's assistant: the visitor's own AI (through AI Wallet) answers,
// and calls the shop's MCP tools at /api/mcp. Everything the model, the wallet
// or a tool returns is shown as text (textContent / append), never as HTML.
// The lines between the two "how this page works" markers are shown on the
// page as they are here: keep them the heart of the integration.

import { AiConnect, McpToolSource, runConversation } from '../aiconnect/index.js';
import '../ui/connect-widget.js';
import { drawReply } from '../ui/reply-text.js';
import { Transcript } from '../ui/transcript.js';
import { describeFailure } from './failures.js';

const SYSTEM = [
  'You are the assistant of a small online bookshop. Recommend books from this shop only,',
  'using its tools: search_books (by mood and/or words), get_book (details by slug),',
  'list_moods, and add_to_basket / view_basket for the visitor\'s own basket.',
  'Mention each book by title and author. Be brief and friendly.',
].join(' ');

const $ = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (document.querySelector(selector));
const errorView = $('#assistant-error');
const form = /** @type {HTMLFormElement} */ ($('#ask'));
const question = /** @type {HTMLInputElement} */ ($('#question'));
const stopButton = $('#stop');
const suggestions = /** @type {HTMLFormElement} */ ($('#suggestions'));

/** @type {import('../aiconnect/types.js').ChatMessage[]} the conversation so far, for follow-ups */
const history = [];
/** @type {AbortController | null} */
let controller = null;
/** @type {string} the connection's status when the panel was last shown */
let lastStatus = '';

// --- how this page works: start
const client = new AiConnect();
const tools = new McpToolSource('/api/mcp', 'Bookshop');
const transcript = new Transcript($('#transcript'), { status: $('#activity'), format: showReply, who: whoAnswered });

/** @type {any} */ ($('#connect')).client = client;
client.subscribe(showPanelFor);
showPanelFor(client.state);

/** Ask the visitor's AI; the page runs the tools it asks for and shows the books they found. */
async function ask(/** @type {string} */ text) {
  const state = client.state;
  if (state.status !== 'connected') return;
  const asked = /** @type {const} */ ({ role: 'user', content: text });
  const turn = transcript.ask(asked.content);
  keepInView(turn.element);
  // The start event names who answers (with Auto, the account the wallet picked).
  const session = { ...state.session, chat: (/** @type {any} */ request) =>
    state.session.chat({ ...request, onStart: turn.showWho }) };
  controller = new AbortController();
  try {
    const added = await runConversation({
      session,
      tools,
      messages: [{ role: 'system', content: SYSTEM }, ...history, asked],
      signal: controller.signal,
      onText: turn.append,
      onToolCall: (call) => turn.toolStarted(call, toolActivity(call), toolStep(call)),
      onToolResult: (call, _text, result) => {
        turn.toolFinished(call, result);
        // The cards come from the tool's structured content, never from the model's words.
        if (call.name === 'search_books' && !result.isError) showCards(turn, result.structuredContent);
        // What the AI put in the basket shows in the header at once, as the visitor's own adds do.
        if (call.name === 'add_to_basket' && !result.isError) showBasketCount(result.structuredContent);
      },
    });
    history.push(asked, ...added);
    turn.finish();
  } catch (error) {
    turn.finish(error);
    throw error;
  }
}
// --- how this page works: end

/**
 * Offer the question form only while connected; the transcript and any error
 * stay visible, so a visitor who disconnects mid-answer still sees what happened.
 *
 * @param {import('../aiconnect/types.js').ConnectionState} state
 */
function showPanelFor(state) {
  form.hidden = state.status !== 'connected';
  // No wallet in this browser: the offer stays one compact line, never a panel about what is missing.
  $('#connect').hidden = state.status === 'noWallet';
  $('#ai-offer').hidden = state.status !== 'noWallet';
  /** @type {HTMLAnchorElement} */ ($('#ai-offer a')).href = client.installUrl;
  $('#assistant-panel').dataset.wallet = state.status;
  // The suggestions ask the visitor's AI once it is connected; before that they search the shop.
  $('#suggestions-label').textContent = state.status === 'connected' ? 'Or ask:' : 'Browse by mood:';
  // Just connected from the widget's button: the next thing to do is to ask.
  if (state.status === 'connected' && lastStatus !== 'connected' && $('#connect').contains(document.activeElement)) {
    question.focus();
  }
  lastStatus = state.status;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  await askFromPage(question.value.trim());
});

// A suggestion asks the visitor's AI its words when one is connected; else the form searches the shop.
suggestions.addEventListener('submit', (event) => {
  if (client.state.status !== 'connected') return;
  event.preventDefault();
  const chip = /** @type {HTMLElement | null} */ (event.submitter);
  if (!chip || controller) return;
  void askFromPage(chip.textContent?.trim() ?? '');
});

/** Ask `text` (the question box's, or a suggestion's), one question at a time. @param {string} text */
async function askFromPage(text) {
  if (!text || controller) return;
  question.value = '';
  errorView.hidden = true;
  setBusy(true);
  try {
    await ask(text);
  } catch (error) {
    showError(error);
  } finally {
    controller = null;
    setBusy(false);
  }
}

stopButton.addEventListener('click', () => controller?.abort(new DOMException('Stopped on the page', 'AbortError')));

/**
 * Bring the visitor's question, and so the start of its answer, to the top of the screen when it
 * is not in its upper half: the answer grows below it, and the question box stays at the bottom
 * (sticky, bookshop.css), so the visitor reads from the start with the box at hand.
 *
 * @param {HTMLElement} answer the answer's turn, right after the question's
 */
function keepInView(answer) {
  const asked = /** @type {HTMLElement} */ (answer.previousElementSibling ?? answer);
  const { top } = asked.getBoundingClientRect();
  if (top < 0 || top > window.innerHeight / 2) asked.scrollIntoView({ block: 'start' });
}

/** @param {boolean} busy */
function setBusy(busy) {
  stopButton.hidden = !busy;
  // One question at a time: the suggestions say they wait too (aria-disabled keeps them focusable).
  for (const chip of suggestions.querySelectorAll('button')) chip.setAttribute('aria-disabled', String(busy));
  /** @type {HTMLButtonElement} */ ($('#ask-button')).disabled = busy;
  // The box is in view (sticky): taking the focus scrolls nothing, the answer's start stays on screen.
  if (!busy) question.focus({ preventScroll: true });
}

/** @param {unknown} error */
function showError(error) {
  const failure = describeFailure(error);
  errorView.textContent = failure.message;
  errorView.dataset.status = String(failure.status ?? '');
  errorView.hidden = false;
}

/**
 * Whether the test wallet's scripted stand-in answers this page's chats (`?testwallet=1`, DEBUG):
 * its banner is on the page and its relay settings, read as data, name no model server.
 */
function scriptedStandIn() {
  if (!document.querySelector('.testwallet-banner')) return false;
  try {
    const relay = JSON.parse(document.getElementById('testwallet-relay')?.textContent ?? 'null');
    return !relay || relay.scripted === true;
  } catch {
    return true;
  }
}

/**
 * Who answered a turn, once, as it is: the test wallet's scripted stand-in is not an AI; a model
 * is named by the wallet's start event, with the account it runs in.
 *
 * @param {{ providerName: string, model?: string }} start
 * @returns {string}
 */
export function whoAnswered({ providerName, model }) {
  if (scriptedStandIn()) return 'Scripted stand-in, not an AI';
  return model && model !== providerName ? `Your model: ${model} (${providerName})` : `Your model: ${providerName}`;
}

/**
 * Draw a reply as paragraphs and lists, a book's slug in brackets ("[dune]", as the shop's tools
 * name books) as a link to its page.
 *
 * @param {HTMLElement} element
 * @param {string} text
 */
function showReply(element, text) {
  drawReply(element, text, {
    linkFor: (id) => (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id) ? { href: `/bookshop/books/${id}/`, text: 'details' } : null),
  });
}

/**
 * What the page shows while a tool runs ("Looking for calm books…").
 *
 * @param {import('../aiconnect/types.js').ToolCall} call
 */
export function toolActivity({ name, arguments: args }) {
  const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : '');
  switch (name) {
    case 'search_books':
      if (text(args.mood) && text(args.query)) return `Looking for ${text(args.mood)} books about “${text(args.query)}”…`;
      if (text(args.mood)) return `Looking for ${text(args.mood)} books…`;
      return text(args.query) ? `Searching the shop for “${text(args.query)}”…` : 'Looking through the shop…';
    case 'get_book': return 'Reading about a book…';
    case 'list_moods': return 'Checking which moods the shop has…';
    case 'add_to_basket': return 'Adding a book to your basket…';
    case 'view_basket': return 'Looking in your basket…';
    default: return `Using the shop's ${name} tool…`;
  }
}

/**
 * What a tool did, as a done step of the answer ("Searched: calm books").
 *
 * @param {import('../aiconnect/types.js').ToolCall} call
 */
export function toolStep({ name, arguments: args }) {
  const text = (/** @type {unknown} */ value) => (typeof value === 'string' ? value : '');
  switch (name) {
    case 'search_books':
      if (text(args.mood) && text(args.query)) return `Searched: ${text(args.mood)} books about “${text(args.query)}”`;
      if (text(args.mood)) return `Searched: ${text(args.mood)} books`;
      return text(args.query) ? `Searched: “${text(args.query)}”` : 'Looked through the shop';
    case 'get_book': return 'Read about a book';
    case 'list_moods': return 'Checked which moods the shop has';
    case 'add_to_basket': return 'Added a book to your basket';
    case 'view_basket': return 'Looked in your basket';
    default: return `Used the shop's ${name} tool`;
  }
}

/**
 * @typedef {{ slug: string, title: string, author: string, year: number, price: string, moods: string[] }} CardBook
 * What a card shows of a book: the fields of search_books' structured content it reads.
 */

/**
 * Render the books of a search_books result's structured content (`{ books: [...] }`, see
 * sites/bookshop/tools.py) as cards right after the answer. The content came over the network,
 * so a book without the fields a card shows is left out, and every field is set as text.
 *
 * @param {import('../ui/transcript.js').TranscriptTurn} turn
 * @param {Record<string, unknown> | undefined} structured
 */
function showCards(turn, structured) {
  const books = Array.isArray(structured?.books) ? structured.books.filter(isCardBook) : [];
  if (books.length === 0) return;
  const list = document.createElement('ul');
  list.className = 'cards assistant-cards';
  for (const book of books) list.append(bookCard(book));
  turn.attach(list);
}

/**
 * @param {unknown} value
 * @returns {value is CardBook}
 */
function isCardBook(value) {
  const book = /** @type {Record<string, unknown>} */ (value);
  return typeof book === 'object' && book !== null
    && ['slug', 'title', 'author', 'price'].every((key) => typeof book[key] === 'string')
    && typeof book.year === 'number'
    && Array.isArray(book.moods) && book.moods.every((mood) => typeof mood === 'string');
}

/**
 * Show in the header what the basket holds now, from add_to_basket's structured content
 * (`{ items: [{ quantity }] }`); content that is not that shape changes nothing.
 *
 * @param {Record<string, unknown> | undefined} structured
 */
function showBasketCount(structured) {
  const items = Array.isArray(structured?.items) ? structured.items : null;
  const count = items?.reduce((sum, item) => sum + (Number.isInteger(item?.quantity) ? item.quantity : 0), 0);
  const shown = document.getElementById('basket-count');
  if (shown && typeof count === 'number') shown.textContent = `(${count})`;
}

/** @param {CardBook} book */
function bookCard(book) {
  const item = document.createElement('li');
  item.className = 'card book-card';
  const cover = document.createElement('img');
  cover.className = 'cover';
  cover.alt = '';
  cover.src = `/bookshop/covers/${encodeURIComponent(book.slug)}.svg`;
  const title = document.createElement('a');
  title.className = 'title';
  title.href = `/bookshop/books/${encodeURIComponent(book.slug)}/`;
  title.textContent = book.title;
  const author = document.createElement('span');
  author.className = 'author';
  author.textContent = `${book.author} (${book.year})`;
  const moods = document.createElement('span');
  moods.className = 'moods';
  moods.textContent = book.moods.join(', ');
  const price = document.createElement('span');
  price.className = 'price';
  price.textContent = `£${book.price}`;
  const add = document.createElement('button');
  add.type = 'button';
  // The visible words start the accessible name (WCAG 2.5.3); the hidden title tells the cards apart.
  const which = document.createElement('span');
  which.className = 'visually-hidden';
  which.textContent = ` (${book.title})`;
  const label = (/** @type {string} */ words) => add.replaceChildren(words, which);
  label('Add to basket');
  // Never `disabled`: a disabled button drops the keyboard's focus to the page's body. Once the
  // book is in, the button says so and is aria-disabled; a second press adds nothing.
  let adding = false;
  add.addEventListener('click', async () => {
    if (adding || add.getAttribute('aria-disabled') === 'true') return;
    adding = true;
    label('Adding…');
    let added = false;
    try {
      const result = await tools.callToolResult('add_to_basket', { slug: book.slug });
      added = !result.isError;
      if (added) showBasketCount(result.structuredContent);
    } catch {
      added = false;
    } finally {
      label(added ? 'In your basket' : 'Could not add: try again');
      if (added) delete add.dataset.state;
      else add.dataset.state = 'error';                // the error colour (bookshop.css)
      if (added) add.setAttribute('aria-disabled', 'true');
      adding = false;
    }
  });
  item.append(cover, title, author, moods, price, add);
  return item;
}
