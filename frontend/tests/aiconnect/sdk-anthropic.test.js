// @ts-check
/**
 * The published `@anthropic-ai/sdk` as a peer: configured with `client.sdkOptions`, it talks to
 * the fake wallet through WalletFetch, with `messages.create` (whole and `stream: true`) and
 * `messages.stream().finalMessage()`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';

import { USAGE, WEATHER_CALL, connectedClient } from '../helpers/connected-client.js';

/** @type {Awaited<ReturnType<typeof connectedClient>>} */
let page;
/** @type {Anthropic} */
let anthropic;
before(async () => {
  page = await connectedClient();
  anthropic = new Anthropic(page.client.sdkOptions);
});
after(() => page.restore());

const WEATHER_TOOL = { name: 'get_weather', description: 'Weather by city', input_schema: /** @type {const} */ ({ type: 'object', properties: { city: { type: 'string' } } }) };
/** @returns {any} */
const lastChat = () => page.wallet.requests.filter((r) => r.method === 'chat').at(-1)?.params;

describe('anthropic messages through the wallet', () => {
  it('should answer a whole message with the text, stop reason, usage and model', async () => {
    page.wallet.queueChat({ text: ['Hello', ' there'], resultModel: 'claude-test-2025', usage: USAGE });
    const message = await anthropic.messages.create({
      model: 'ignored', max_tokens: 100, system: 'Be kind', messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello there' }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.model, 'claude-test-2025');
    // Anthropic counts cached input apart; the wallet's inputTokens include it.
    assert.equal(message.usage.input_tokens, 100);
    assert.equal(message.usage.cache_read_input_tokens, 20);
    assert.equal(message.usage.output_tokens, 30);
    assert.deepEqual(lastChat().messages, [{ role: 'system', content: 'Be kind' }, { role: 'user', content: 'Hi' }]);
    assert.equal(lastChat().options.maxTokens, 100);
  });

  it('should carry images, tool use, tool results and tool choice to the wallet', async () => {
    page.wallet.queueChat({ text: 'Sunny' });
    // This SDK version's types leave `temperature` out; the Messages API still takes it.
    await anthropic.messages.create(/** @type {any} */ ({
      model: 'm', max_tokens: 10, tools: [WEATHER_TOOL], tool_choice: { type: 'any' }, stop_sequences: ['END'], temperature: 0.5,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'This city?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tu1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: '22C' }, { type: 'text', text: 'And tomorrow?' }] },
      ],
    }));
    const params = lastChat();
    assert.deepEqual(params.messages, [
      { role: 'user', content: [{ type: 'text', text: 'This city?' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'tu1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'tu1', name: 'get_weather', content: '22C' },
      { role: 'user', content: 'And tomorrow?' },
    ]);
    assert.deepEqual(params.tools, [{ name: 'get_weather', description: 'Weather by city', inputSchema: WEATHER_TOOL.input_schema }]);
    assert.deepEqual(params.options, { maxTokens: 10, temperature: 0.5, stop: ['END'], toolChoice: 'required' });
  });

  it('should answer tool use with parsed input in a whole message', async () => {
    page.wallet.queueChat({ text: 'Let me check.', toolCalls: [WEATHER_CALL] });
    const message = await anthropic.messages.create({ model: 'm', max_tokens: 10, tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'Paris?' }] });
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(message.content[1], { type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris', days: 2 } });
  });

  it('should stream events with create({ stream: true }), the model from the start event first', async () => {
    page.wallet.queueChat({ text: ['Pira', 'nesi'], model: 'claude-start', resultModel: 'claude-test-2025', usage: USAGE });
    const stream = await anthropic.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'A book' }], stream: true });
    /** @type {any[]} */
    const events = [];
    for await (const event of stream) events.push(event);
    assert.equal(events[0].type, 'message_start');
    assert.equal(events[0].message.model, 'claude-start');
    assert.equal(events.filter((e) => e.type === 'content_block_delta').map((e) => e.delta.text).join(''), 'Piranesi');
    const delta = events.find((e) => e.type === 'message_delta');
    assert.equal(delta.delta.stop_reason, 'end_turn');
    assert.equal(delta.usage.output_tokens, 30);
    assert.equal(events.at(-1).type, 'message_stop');
  });

  it('should assemble a streamed answer with tool use in messages.stream().finalMessage()', async () => {
    page.wallet.queueChat({ text: 'Checking. ', toolCalls: [WEATHER_CALL], model: 'claude-start', usage: USAGE });
    /** @type {string[]} */
    const texts = [];
    const stream = anthropic.messages.stream({ model: 'm', max_tokens: 10, tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'Paris?' }] });
    stream.on('text', (delta) => texts.push(delta));
    const message = await stream.finalMessage();
    assert.equal(texts.join(''), 'Checking. ');
    assert.equal(message.model, 'claude-start');
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(message.content, [
      { type: 'text', text: 'Checking. ' },
      { type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris', days: 2 } },
    ]);
    assert.equal(message.usage.input_tokens, 100);
    assert.equal(message.usage.output_tokens, 30);
    assert.equal(message.usage.cache_read_input_tokens, 20);
  });
});

describe('anthropic errors through the wallet', () => {
  for (const [status, errorClass] of /** @type {const} */ ([
    [401, 'AuthenticationError'], [429, 'RateLimitError'], [499, 'APIError'],
  ])) {
    it(`should raise ${errorClass} for the wallet's ${status}, whole and streamed, without retrying`, async () => {
      for (const useStream of [false, true]) {
        page.wallet.queueChat({ error: { status, message: `failed with ${status}` } });
        const before = page.wallet.requests.length;
        const params = { model: 'm', max_tokens: 10, messages: [{ role: /** @type {const} */ ('user'), content: 'x' }] };
        const request = useStream ? anthropic.messages.stream(params).finalMessage() : anthropic.messages.create(params);
        await assert.rejects(request, (/** @type {any} */ error) => {
          assert.ok(error instanceof Anthropic[errorClass], `${error.constructor.name} is an ${errorClass}`);
          assert.equal(error.status, status);
          assert.match(error.message, new RegExp(`failed with ${status}`));
          return true;
        });
        assert.equal(page.wallet.requests.length, before + 1, 'one chat, no retry');
      }
    });
  }

  it('should raise the error event of a stream that fails after its first text', async () => {
    page.wallet.queueChat({ text: 'Half', error: { status: 502, message: 'fetch failed' } });
    const stream = anthropic.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    await assert.rejects(stream.finalMessage(), (/** @type {any} */ error) => error instanceof Anthropic.APIError && /fetch failed/.test(error.message));
  });

  it('should raise the SDK\'s abort error and stop the chat in the wallet', async () => {
    page.wallet.queueChat({ text: 'Once', hang: true });
    const stream = anthropic.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    stream.on('text', () => stream.abort());
    await assert.rejects(stream.finalMessage(), (/** @type {any} */ error) => error instanceof Anthropic.APIUserAbortError);
    const chat = page.wallet.requests.filter((r) => r.method === 'chat').at(-1);
    assert.equal(chat?.signal?.aborted, true);
  });
});
