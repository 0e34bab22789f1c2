// @ts-check
/**
 * The published `@google/genai` SDK as a peer: given `client.fetch` in its `httpOptions`, it
 * talks to the fake wallet through WalletFetch, with `generateContent` and `generateContentStream`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { ApiError, FinishReason, GoogleGenAI, Type } from '@google/genai';

import { USAGE, WEATHER_CALL, connectedClient } from '../helpers/connected-client.js';

/** @type {Awaited<ReturnType<typeof connectedClient>>} */
let page;
/** @type {GoogleGenAI} */
let google;
before(async () => {
  page = await connectedClient();
  google = new GoogleGenAI({ apiKey: page.client.sdkOptions.apiKey, httpOptions: { fetch: page.client.fetch } });
});
after(() => page.restore());

const WEATHER_TOOLS = [{ functionDeclarations: [{
  name: 'get_weather', description: 'Weather by city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } },
}] }];
/** @returns {any} */
const lastChat = () => page.wallet.requests.filter((r) => r.method === 'chat').at(-1)?.params;

describe('google generateContent through the wallet', () => {
  it('should answer with the text, finish reason, usage and model', async () => {
    page.wallet.queueChat({ text: ['Hello', ' there'], resultModel: 'gemini-test-001', usage: USAGE });
    const response = await google.models.generateContent({
      model: 'gemini-ignored', contents: 'Hi', config: { systemInstruction: 'Be kind' },
    });
    assert.equal(response.text, 'Hello there');
    assert.equal(response.candidates?.[0].finishReason, FinishReason.STOP);
    assert.equal(response.modelVersion, 'gemini-test-001');
    assert.equal(response.usageMetadata?.promptTokenCount, 120);
    assert.equal(response.usageMetadata?.candidatesTokenCount, 30);
    assert.equal(response.usageMetadata?.cachedContentTokenCount, 20);
    assert.deepEqual(lastChat().messages, [{ role: 'system', content: 'Be kind' }, { role: 'user', content: 'Hi' }]);
  });

  it('should carry images, function calls and responses, tools and the hints to the wallet', async () => {
    page.wallet.queueChat({ text: '{"ok":true}' });
    await google.models.generateContent({
      model: 'm',
      contents: [
        { role: 'user', parts: [{ text: 'This city?' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
        { role: 'model', parts: [{ functionCall: { id: 'f1', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'f1', name: 'get_weather', response: { output: '22C' } } }] },
      ],
      config: {
        tools: WEATHER_TOOLS, maxOutputTokens: 40, temperature: 0.3, topP: 0.8, stopSequences: ['END'],
        toolConfig: { functionCallingConfig: { mode: /** @type {any} */ ('ANY'), allowedFunctionNames: ['get_weather'] } },
        responseMimeType: 'application/json', responseJsonSchema: { type: 'object' },
      },
    });
    const params = lastChat();
    assert.deepEqual(params.messages, [
      { role: 'user', content: [{ type: 'text', text: 'This city?' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'f1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'f1', name: 'get_weather', content: '22C' },
    ]);
    assert.deepEqual(params.tools, [{
      name: 'get_weather', description: 'Weather by city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    }]);
    assert.deepEqual(params.options, {
      maxTokens: 40, temperature: 0.3, topP: 0.8, stop: ['END'], toolChoice: { name: 'get_weather' },
      responseFormat: { type: 'json', schema: { type: 'object' } },
    });
  });

  it('should answer function calls with parsed arguments', async () => {
    page.wallet.queueChat({ toolCalls: [WEATHER_CALL] });
    const response = await google.models.generateContent({ model: 'm', contents: 'Paris?', config: { tools: WEATHER_TOOLS } });
    assert.deepEqual(response.functionCalls, [{ id: 'call_w1', name: 'get_weather', args: { city: 'Paris', days: 2 } }]);
  });

  it('should stream chunks whose first names the model from the start event', async () => {
    page.wallet.queueChat({ text: ['Pira', 'nesi'], model: 'gemini-start', resultModel: 'gemini-test-001', usage: USAGE });
    const stream = await google.models.generateContentStream({ model: 'm', contents: 'A book' });
    /** @type {any[]} */
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks[0].modelVersion, 'gemini-start');
    assert.equal(chunks.map((c) => c.text ?? '').join(''), 'Piranesi');
    const last = chunks.at(-1);
    assert.equal(last.candidates[0].finishReason, FinishReason.STOP);
    assert.equal(last.usageMetadata.totalTokenCount, 150);
    assert.equal(last.modelVersion, 'gemini-test-001');
  });

  it('should stream function calls with parsed arguments', async () => {
    page.wallet.queueChat({ text: 'Checking. ', toolCalls: [WEATHER_CALL] });
    const stream = await google.models.generateContentStream({ model: 'm', contents: 'Paris?', config: { tools: WEATHER_TOOLS } });
    /** @type {any[]} */
    const calls = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    assert.deepEqual(calls, [{ id: 'call_w1', name: 'get_weather', args: { city: 'Paris', days: 2 } }]);
  });
});

describe('google errors through the wallet', () => {
  for (const status of [401, 429, 499]) {
    it(`should raise ApiError with the wallet's ${status}, whole and streamed`, async () => {
      for (const stream of [false, true]) {
        page.wallet.queueChat({ error: { status, message: `failed with ${status}` } });
        const request = stream
          ? google.models.generateContentStream({ model: 'm', contents: 'x' })
          : google.models.generateContent({ model: 'm', contents: 'x' });
        await assert.rejects(request, (/** @type {any} */ error) => {
          assert.ok(error instanceof ApiError, `${error.constructor.name} is an ApiError`);
          assert.equal(error.status, status);
          assert.match(error.message, new RegExp(`failed with ${status}`));
          return true;
        });
      }
    });
  }

  it('should raise ApiError for a stream that fails after its first text', async () => {
    page.wallet.queueChat({ text: 'Half', error: { status: 429, message: 'Gemini answered 429: quota' } });
    const stream = await google.models.generateContentStream({ model: 'm', contents: 'x' });
    await assert.rejects(async () => { for await (const chunk of stream) void chunk; },
      (/** @type {any} */ error) => error instanceof ApiError && error.status === 429);
  });

  it('should stop the chat in the wallet when the SDK\'s signal aborts', async () => {
    page.wallet.queueChat({ hang: true });
    const controller = new AbortController();
    const request = google.models.generateContent({ model: 'm', contents: 'x', config: { abortSignal: controller.signal } });
    const count = page.wallet.requests.filter((r) => r.method === 'chat').length;
    const chat = await page.wallet.waitForRequest('chat', count + 1);
    controller.abort();
    await assert.rejects(request);
    assert.equal(chat.signal?.aborted, true);
  });
});
