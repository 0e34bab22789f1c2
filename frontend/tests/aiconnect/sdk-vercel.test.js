// @ts-check
/**
 * The Vercel AI SDK (`ai` + `@ai-sdk/openai`) as a peer: `createOpenAI` with `client.fetch`,
 * driven by `streamText`, over both the Responses API (the provider's default) and Chat Completions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, jsonSchema, streamText, tool } from 'ai';

import { USAGE, WEATHER_CALL, connectedClient } from '../helpers/connected-client.js';

/** @type {Awaited<ReturnType<typeof connectedClient>>} */
let page;
/** @type {ReturnType<typeof createOpenAI>} */
let openai;
before(async () => {
  page = await connectedClient();
  openai = createOpenAI({ apiKey: page.client.sdkOptions.apiKey, fetch: page.client.fetch });
});
after(() => page.restore());

const tools = {
  get_weather: tool({
    description: 'Weather by city',
    inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } } }),
  }),
};

for (const api of /** @type {const} */ (['responses', 'chat'])) {
  const model = () => (api === 'responses' ? openai.responses('gpt-ignored') : openai.chat('gpt-ignored'));

  describe(`streamText over OpenAI ${api === 'responses' ? 'Responses' : 'Chat Completions'} through the wallet`, () => {
    it('should stream the text and report finish reason, usage and the model that answered', async () => {
      page.wallet.queueChat({ text: ['Pira', 'nesi'], model: 'gpt-start', resultModel: 'gpt-5-2025', usage: USAGE });
      const result = streamText({ model: model(), system: 'Be brief', prompt: 'A calm book' });
      /** @type {string[]} */
      const deltas = [];
      for await (const delta of result.textStream) deltas.push(delta);
      assert.deepEqual(deltas, ['Pira', 'nesi']);
      assert.equal(await result.text, 'Piranesi');
      assert.equal(await result.finishReason, 'stop');
      const usage = await result.usage;
      assert.equal(usage.inputTokens, 120);
      assert.equal(usage.outputTokens, 30);
      assert.equal(usage.cachedInputTokens, 20);
      const response = await result.response;
      // The AI SDK takes the model from the stream's first event: the wallet's start event.
      assert.equal(response.modelId, 'gpt-start');
      const chat = page.wallet.requests.filter((r) => r.method === 'chat').at(-1)?.params;
      assert.deepEqual(chat.messages, [{ role: 'system', content: 'Be brief' }, { role: 'user', content: [{ type: 'text', text: 'A calm book' }] }].map((m) => (
        api === 'chat' && m.role === 'user' ? { role: 'user', content: 'A calm book' } : m)));
    });

    it('should report tool calls with parsed arguments', async () => {
      page.wallet.queueChat({ toolCalls: [WEATHER_CALL], usage: USAGE });
      const result = streamText({ model: model(), prompt: 'Paris?', tools });
      const calls = await result.toolCalls;
      assert.equal(calls.length, 1);
      assert.equal(calls[0].toolCallId, 'call_w1');
      assert.equal(calls[0].toolName, 'get_weather');
      assert.deepEqual(calls[0].input, { city: 'Paris', days: 2 });
      assert.equal(await result.finishReason, 'tool-calls');
      const chat = page.wallet.requests.filter((r) => r.method === 'chat').at(-1)?.params;
      assert.equal(chat.tools[0].name, 'get_weather');
    });

    for (const status of [401, 429, 499]) {
      it(`should raise APICallError with the wallet's ${status}`, async () => {
        page.wallet.queueChat({ error: { status, message: `failed with ${status}` } });
        /** @type {unknown[]} */
        const errors = [];
        const result = streamText({ model: model(), prompt: 'x', maxRetries: 0, onError: ({ error }) => { errors.push(error); } });
        await result.consumeStream();
        assert.equal(errors.length, 1);
        const error = /** @type {any} */ (errors[0]);
        assert.ok(APICallError.isInstance(error), `${error?.name} is an APICallError`);
        assert.equal(error.statusCode, status);
        assert.match(error.message, new RegExp(`failed with ${status}`));
      });
    }
  });
}

describe('streamText with tools that run, over several steps', () => {
  for (const api of /** @type {const} */ (['responses', 'chat'])) {
    it(`should send the first step's answer and tool result back in the second step (${api})`, async () => {
      const { stepCountIs } = await import('ai');
      page.wallet.queueChat({ text: 'Checking. ', toolCalls: [WEATHER_CALL] });
      page.wallet.queueChat({ text: 'Sunny in Paris.' });
      const before = page.wallet.requests.filter((r) => r.method === 'chat').length;
      /** @type {any[]} */
      const bodies = [];
      const spying = createOpenAI({
        apiKey: 'x',
        fetch: (input, init) => { bodies.push(JSON.parse(String(init?.body))); return page.client.fetch(input, init); },
      });
      const result = streamText({
        model: api === 'responses' ? spying.responses('m') : spying.chat('m'),
        prompt: 'Paris?',
        stopWhen: stepCountIs(3),
        tools: { get_weather: tool(/** @type {any} */ ({ ...tools.get_weather, execute: async (/** @type {any} */ { city }) => `22C in ${city}` })) },
      });
      assert.equal(await result.text, 'Sunny in Paris.');
      const chats = page.wallet.requests.filter((r) => r.method === 'chat').slice(before);
      assert.equal(chats.length, 2);
      assert.deepEqual(chats[1].params.messages.slice(1), [
        { role: 'assistant', content: 'Checking. ', toolCalls: [WEATHER_CALL] },
        { role: 'tool', toolCallId: 'call_w1', name: 'get_weather', content: '22C in Paris' },
      ]);
      if (api === 'responses') {
        // The AI SDK stores responses by default and refers to the first answer's items by id.
        assert.ok(bodies[1].input.some((/** @type {any} */ item) => item.type === 'item_reference'));
      }
    });
  }
});
