// @ts-check
// Recorded answers in Playwright Test (docs/howto/recorded-answers.md): the `aiwallet` fixture
// answers from a cassette served by `python -m testwallet.cassette serve`, started once per worker
// by the `testwalletCassette` option. The recording is the one tests/testwallet/test_aiwallet_recorded.py
// replays (a real model, SmolLM2-135M, answering this chat), so the JavaScript wallet must ask it
// exactly as the Python one does. A chat never recorded reaches the page as the wallet's 409,
// is attached to the report, and fails the test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '../playwright/fixtures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECORDING = join(ROOT, 'tests', 'recordings', 'stand-ins.json');
/** The chat of the recording (test_aiwallet_recorded.py's CHAT, with aiwallet_cases.py's TOOLS). */
const CHAT = {
  messages: [{ role: 'user', content: 'Name one calm book for tonight.' }],
  tools: [
    { name: 'search_books', description: 'Find books by mood.', inputSchema: { type: 'object' } },
    { name: 'get_book', description: 'Read one book.', inputSchema: { type: 'object' } },
  ],
  options: { maxTokens: 48, temperature: 0 },
};

// Replay only, whatever TESTWALLET_RECORD says: this spec checks the recording, it never makes one.
test.use({ testwalletCassette: { file: RECORDING, record: 'none', python: process.env.PYTHON ?? join(ROOT, '.venv', 'bin', 'python') } });

/**
 * Connect the page's origin and run one chat in the page; return what the page saw.
 *
 * @param {import('@playwright/test').Page} page
 * @param {object} chat
 */
async function chatInPage(page, chat) {
  return page.evaluate(async (params) => {
    const wallet = /** @type {any} */ (window).aiwallet;
    await wallet.request('connect');
    /** @type {string[]} */
    const pieces = [];
    /** @type {string[]} */
    const kinds = [];
    const onEvent = (/** @type {any} */ event) => {
      kinds.push(event.kind);
      if (event.kind === 'text') pieces.push(event.delta);
    };
    try {
      const result = await wallet.request('chat', params, onEvent);
      return { pieces, kinds, content: result.message.content, error: null };
    } catch (error) {
      const { status, message } = /** @type {any} */ (error);
      return { pieces, kinds, content: null, error: { status, message } };
    }
  }, chat);
}

/** The text pieces of the recording's one answer, in order. */
function recordedPieces() {
  const { entries } = JSON.parse(readFileSync(RECORDING, 'utf8'));
  return entries[0].answer.stream.map((/** @type {any} */ event) => event.choices?.[0]?.delta?.content).filter(Boolean);
}

test('a recorded chat replays to the page piece for piece', async ({ page, aiwallet }) => {
  await page.goto('/');
  const seen = await chatInPage(page, CHAT);
  expect(seen.error).toBeNull();
  expect(seen.pieces).toEqual(recordedPieces());
  expect(seen.content).toBe(recordedPieces().join(''));
  expect(aiwallet.chats.map((chat) => chat.outcome)).toEqual(['answered']);
  expect(aiwallet.misses).toEqual([]);
});

test('a chat never recorded is refused on the page with what differs, and in the report', async ({ page, aiwallet }) => {
  await page.goto('/');
  const seen = await chatInPage(page, { ...CHAT, messages: [{ role: 'user', content: 'Name one cheerful book for tonight.' }] });
  const difference = 'nearest is entry 0: messages[0].content: recorded "Name one calm book for tonight.", asked "Name one cheerful book for tonight."';
  expect(seen.error?.status).toBe(409);
  expect(seen.error?.message).toContain(difference);
  expect(seen.kinds).toEqual([]); // no start: nothing answered
  const attached = test.info().attachments.find((attachment) => attachment.name === 'testwallet: not recorded');
  expect(attached?.body?.toString()).toContain(difference);
  expect(() => aiwallet.check()).toThrow(difference); // what fails the test when it does not look
});
