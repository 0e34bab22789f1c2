// @ts-check
/**
 * The published `openai` SDK as a peer: configured with `client.sdkOptions`, it talks to the fake
 * wallet through WalletFetch, for Chat Completions and Responses, streamed and whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import OpenAI from 'openai';

import { USAGE, WEATHER_CALL, connectedClient } from '../helpers/connected-client.js';

/** @type {Awaited<ReturnType<typeof connectedClient>>} */
let page;
/** @type {OpenAI} */
let openai;
before(async () => {
  page = await connectedClient();
  openai = new OpenAI(page.client.sdkOptions);
});
after(() => page.restore());

const WEATHER_TOOL = {
  type: /** @type {const} */ ('function'),
  function: { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/** @returns {any} */
const lastChat = () => page.wallet.requests.filter((r) => r.method === 'chat').at(-1)?.params;

describe('openai chat.completions through the wallet', () => {
  it('should answer a whole completion with the text, finish reason, usage and model', async () => {
    page.wallet.queueChat({ text: ['Hello', ' there'], model: 'gpt-start', resultModel: 'gpt-5-2025', usage: USAGE });
    const completion = await openai.chat.completions.create({
      model: 'ignored-by-the-wallet', messages: [{ role: 'system', content: 'Be kind' }, { role: 'user', content: 'Hi' }],
    });
    assert.equal(completion.choices[0].message.content, 'Hello there');
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.equal(completion.model, 'gpt-5-2025');
    assert.equal(completion.usage?.prompt_tokens, 120);
    assert.equal(completion.usage?.completion_tokens, 30);
    assert.equal(completion.usage?.total_tokens, 150);
    assert.equal(completion.usage?.prompt_tokens_details?.cached_tokens, 20);
    assert.deepEqual(lastChat().messages, [{ role: 'system', content: 'Be kind' }, { role: 'user', content: 'Hi' }]);
  });

  it('should carry tools, tool choice, response format and the four hints to the wallet', async () => {
    page.wallet.queueChat({ text: '{}' });
    await openai.chat.completions.create({
      model: 'm', messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER_TOOL],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' }, strict: true } },
      max_completion_tokens: 50, temperature: 0.2, top_p: 0.9, stop: ['END'],
    });
    const params = lastChat();
    assert.deepEqual(params.tools, [{ name: 'get_weather', description: 'Weather by city', inputSchema: WEATHER_TOOL.function.parameters }]);
    assert.deepEqual(params.options, {
      maxTokens: 50, temperature: 0.2, topP: 0.9, stop: ['END'], toolChoice: { name: 'get_weather' },
      responseFormat: { type: 'json', schema: { type: 'object' }, name: 'w', strict: true },
    });
  });

  it('should carry images, assistant tool calls and tool results to the wallet', async () => {
    page.wallet.queueChat({ text: 'Sunny' });
    await openai.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'This city?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '22C' },
      ],
    });
    assert.deepEqual(lastChat().messages, [
      { role: 'user', content: [{ type: 'text', text: 'This city?' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: '22C' },
    ]);
  });

  it('should answer tool calls with parsed arguments in a whole completion', async () => {
    page.wallet.queueChat({ toolCalls: [WEATHER_CALL] });
    const completion = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER_TOOL] });
    const choice = completion.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    const [call] = /** @type {any[]} */ (choice.message.tool_calls);
    assert.equal(call.id, 'call_w1');
    assert.equal(call.function.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Paris', days: 2 });
  });

  it('should stream chunks whose first names the model from the start event', async () => {
    page.wallet.queueChat({ text: ['Pira', 'nesi'], model: 'gpt-start', resultModel: 'gpt-5-2025', usage: USAGE });
    const stream = await openai.chat.completions.create({
      model: 'm', messages: [{ role: 'user', content: 'A book' }], stream: true, stream_options: { include_usage: true },
    });
    /** @type {any[]} */
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks[0].model, 'gpt-start');
    assert.equal(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''), 'Piranesi');
    assert.equal(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1).usage, { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 20 } });
  });

  it('should stream tool calls that the SDK assembles with parsed arguments', async () => {
    page.wallet.queueChat({ toolCalls: [WEATHER_CALL], resultModel: 'gpt-5-2025' });
    const stream = openai.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'Paris?' }], tools: [WEATHER_TOOL] });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.deepEqual(JSON.parse(/** @type {any} */ (choice.message.tool_calls)[0].function.arguments), { city: 'Paris', days: 2 });
    assert.equal(completion.model, 'gpt-5-2025');
  });
});

describe('openai responses through the wallet', () => {
  it('should answer a whole response with output_text, usage and model', async () => {
    page.wallet.queueChat({ text: 'Calm.', resultModel: 'gpt-5-2025', usage: USAGE });
    const response = await openai.responses.create({ model: 'm', instructions: 'Be brief', input: 'A mood?' });
    assert.equal(response.output_text, 'Calm.');
    assert.equal(response.status, 'completed');
    assert.equal(response.model, 'gpt-5-2025');
    assert.equal(response.usage?.input_tokens, 120);
    assert.equal(response.usage?.output_tokens, 30);
    assert.equal(response.usage?.input_tokens_details.cached_tokens, 20);
    assert.deepEqual(lastChat().messages, [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'A mood?' }]);
  });

  it('should answer function calls with parsed arguments', async () => {
    page.wallet.queueChat({ toolCalls: [WEATHER_CALL] });
    const response = await openai.responses.create({
      model: 'm', input: 'Paris?', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }],
    });
    const call = /** @type {any} */ (response.output.find((item) => item.type === 'function_call'));
    assert.equal(call.call_id, 'call_w1');
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Paris', days: 2 });
  });

  it('should read function calls and their outputs back into the conversation', async () => {
    page.wallet.queueChat({ text: 'Sunny' });
    await openai.responses.create({
      model: 'm',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Paris?' }] },
        { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'c1', output: '22C' },
      ],
    });
    assert.deepEqual(lastChat().messages, [
      { role: 'user', content: [{ type: 'text', text: 'Paris?' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: '22C' },
    ]);
  });

  it('should stream response events whose first names the model from the start event', async () => {
    page.wallet.queueChat({ text: ['Pira', 'nesi'], model: 'gpt-start', resultModel: 'gpt-5-2025', usage: USAGE });
    const stream = await openai.responses.create({ model: 'm', input: 'A book', stream: true });
    /** @type {any[]} */
    const events = [];
    for await (const event of stream) events.push(event);
    assert.equal(events[0].type, 'response.created');
    assert.equal(events[0].response.model, 'gpt-start');
    assert.equal(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join(''), 'Piranesi');
    const done = events.at(-1);
    assert.equal(done.type, 'response.completed');
    assert.equal(done.response.model, 'gpt-5-2025');
    assert.equal(done.response.usage.output_tokens, 30);
  });

  it('should stream a function call that the SDK helper assembles', async () => {
    page.wallet.queueChat({ text: 'Checking. ', toolCalls: [WEATHER_CALL], usage: USAGE });
    const stream = openai.responses.stream({ model: 'm', input: 'Paris?', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }] });
    const response = await stream.finalResponse();
    assert.equal(response.output_text, 'Checking. ');
    const call = /** @type {any} */ (response.output.find((item) => item.type === 'function_call'));
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Paris', days: 2 });
  });

  it('should report an answer cut at the token limit as incomplete', async () => {
    page.wallet.queueChat({ text: 'Once upon', finishReason: 'length' });
    const response = await openai.responses.create({ model: 'm', input: 'A story', max_output_tokens: 2 });
    assert.equal(response.status, 'incomplete');
    assert.equal(response.incomplete_details?.reason, 'max_output_tokens');
    assert.equal(lastChat().options.maxTokens, 2);
  });
});

describe('openai errors through the wallet', () => {
  for (const [status, errorClass] of /** @type {const} */ ([
    [401, 'AuthenticationError'], [429, 'RateLimitError'], [499, 'APIError'],
  ])) {
    it(`should raise ${errorClass} for the wallet's ${status}, whole and streamed, without retrying`, async () => {
      for (const stream of [false, true]) {
        page.wallet.queueChat({ error: { status, message: `failed with ${status}` } });
        const before = page.wallet.requests.length;
        const request = openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream });
        await assert.rejects(request, (/** @type {any} */ error) => {
          assert.ok(error instanceof OpenAI[errorClass], `${error.constructor.name} is an ${errorClass}`);
          assert.equal(error.status, status);
          assert.match(error.message, new RegExp(`failed with ${status}`));
          return true;
        });
        assert.equal(page.wallet.requests.length, before + 1, 'one chat, no retry');
      }
    });
  }

  it('should raise the error event of a stream that fails after its first text', async () => {
    page.wallet.queueChat({ text: 'Half', error: { status: 429, message: 'OpenAI answered 429: quota' } });
    const stream = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    /** @type {string[]} */
    const texts = [];
    await assert.rejects(async () => {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta?.content ?? '');
    }, (/** @type {any} */ error) => error instanceof OpenAI.APIError && /quota/.test(error.message));
    assert.equal(texts.join(''), 'Half');
  });

  it('should end the SDK\'s stream and stop the chat in the wallet when aborted', async () => {
    page.wallet.queueChat({ text: 'Once', hang: true });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }, { signal: controller.signal });
    const chat = page.wallet.requests.filter((r) => r.method === 'chat').at(-1);
    /** @type {string[]} */
    const texts = [];
    // The SDK ends its iteration quietly on its own abort.
    for await (const chunk of stream) {
      texts.push(chunk.choices[0]?.delta?.content ?? '');
      if (texts.join('') === 'Once') controller.abort();
    }
    assert.equal(texts.join(''), 'Once');
    assert.equal(chat?.signal?.aborted, true);
  });

  it('should raise the SDK\'s abort error for a whole answer aborted while it waits', async () => {
    page.wallet.queueChat({ hang: true });
    const controller = new AbortController();
    const request = openai.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal });
    const count = page.wallet.requests.filter((r) => r.method === 'chat').length;
    const chat = await page.wallet.waitForRequest('chat', count + 1);
    controller.abort();
    await assert.rejects(request, (/** @type {any} */ error) => error instanceof OpenAI.APIUserAbortError);
    assert.equal(chat.signal?.aborted, true);
  });
});
