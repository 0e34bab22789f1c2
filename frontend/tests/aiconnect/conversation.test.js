// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { DEFAULT_MAX_STEPS, finalAnswer, runConversation } from '../../aiconnect/conversation.js';

/** @typedef {import('../../aiconnect/types.js').ChatRequest} ChatRequest */
/** @typedef {import('../../aiconnect/types.js').ChatResponse} ChatResponse */
/** @typedef {import('../../aiconnect/types.js').ToolCall} ToolCall */

/**
 * A session that answers each chat with the next of `answers` (repeating the last), and
 * records the requests, copied as they were sent.
 *
 * @param {(Partial<import('../../aiconnect/types.js').AssistantMessage> | Error)[]} answers
 */
function scriptedSession(answers) {
  /** @type {ChatRequest[]} */
  const requests = [];
  return {
    requests,
    providerId: 'test',
    model: 'test-model',
    /** @param {ChatRequest} request @returns {Promise<ChatResponse>} */
    async chat(request) {
      requests.push({ ...request, messages: structuredClone(request.messages) });
      const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      if (answer.content) request.onText?.(answer.content);
      const message = { role: /** @type {const} */ ('assistant'), content: '', ...answer };
      return { message, finishReason: message.toolCalls ? 'toolCalls' : 'stop', model: 'test-model' };
    },
  };
}

/**
 * A tool source whose tools echo their arguments, with a log of what ran.
 *
 * @param {Record<string, (args: any) => Promise<string> | string>} [handlers]
 */
function recordingTools(handlers = {}) {
  /** @type {string[]} */
  const log = [];
  let listed = 0;
  return {
    log,
    listed: () => listed,
    async listTools() {
      listed += 1;
      return [
        { name: 'search_books', description: 'Find books', inputSchema: { type: 'object' } },
        { name: 'get_book', description: 'One book', inputSchema: { type: 'object' } },
      ];
    },
    /** @param {string} name @param {Record<string, unknown>} args */
    async callTool(name, args) {
      log.push(`start ${name}`);
      await Promise.resolve();
      const result = await (handlers[name]?.(args) ?? `${name}:${JSON.stringify(args)}`);
      log.push(`end ${name}`);
      return result;
    },
  };
}

/** @param {string} id @param {string} name @param {Record<string, unknown>} [args] @returns {ToolCall} */
const call = (id, name, args = {}) => ({ id, name, arguments: args });
const QUESTION = [{ role: /** @type {const} */ ('system'), content: 'Be brief' }, { role: /** @type {const} */ ('user'), content: 'A calm book' }];

describe('runConversation', () => {
  it('should answer once without tools and offer none', async () => {
    const session = scriptedSession([{ content: 'Piranesi.' }]);
    const added = await runConversation({ session, messages: QUESTION });
    assert.deepEqual(added, [{ role: 'assistant', content: 'Piranesi.' }]);
    assert.equal(session.requests.length, 1);
    assert.equal(session.requests[0].tools, undefined);
    assert.equal(session.requests[0].options, undefined, 'it sends no generation options');
  });

  it('should list the tools once and offer them on each step but the last', async () => {
    const session = scriptedSession([{ toolCalls: [call('1', 'search_books')] }, { toolCalls: [call('2', 'get_book')] }, { content: 'Done' }]);
    const tools = recordingTools();
    await runConversation({ session, tools, messages: QUESTION });
    assert.equal(tools.listed(), 1);
    assert.deepEqual(session.requests.map((r) => r.tools?.map((t) => t.name)), [
      ['search_books', 'get_book'], ['search_books', 'get_book'], ['search_books', 'get_book'],
    ]);
  });

  it('should run the tools one after the other in the model\'s order and add each result', async () => {
    const session = scriptedSession([
      { content: '', toolCalls: [call('a', 'search_books', { mood: 'calm' }), call('b', 'get_book', { id: 7 })] },
      { content: 'Try Piranesi.' },
    ]);
    const tools = recordingTools();
    const added = await runConversation({ session, tools, messages: QUESTION });
    assert.deepEqual(tools.log, ['start search_books', 'end search_books', 'start get_book', 'end get_book']);
    assert.deepEqual(added.slice(1), [
      { role: 'tool', toolCallId: 'a', name: 'search_books', content: 'search_books:{"mood":"calm"}' },
      { role: 'tool', toolCallId: 'b', name: 'get_book', content: 'get_book:{"id":7}' },
      { role: 'assistant', content: 'Try Piranesi.' },
    ]);
    assert.deepEqual(session.requests[1].messages, [...QUESTION, ...added.slice(0, 3)]);
  });

  it('should turn a tool that throws into a Tool error result', async () => {
    const session = scriptedSession([{ toolCalls: [call('a', 'search_books')] }, { content: 'Sorry' }]);
    const tools = recordingTools({ search_books: () => { throw new Error('catalog offline'); } });
    const added = await runConversation({ session, tools, messages: QUESTION });
    assert.equal(added[1].content, 'Tool error: catalog offline');
  });

  it('should stop after six steps by default, the last offering no tools', async () => {
    const session = scriptedSession([{ toolCalls: [call('x', 'search_books')] }]);
    const added = await runConversation({ session, tools: recordingTools(), messages: QUESTION });
    assert.equal(DEFAULT_MAX_STEPS, 6);
    assert.equal(session.requests.length, 6);
    assert.equal(session.requests[5].tools, undefined);
    assert.ok(session.requests.slice(0, 5).every((r) => r.tools?.length === 2));
    assert.equal(added.length, 6 + 5, 'six assistant turns and the five results before the last');
    assert.equal(added.at(-1)?.role, 'assistant');
  });

  it('should stop after maxSteps steps', async () => {
    const session = scriptedSession([{ toolCalls: [call('x', 'search_books')] }]);
    await runConversation({ session, tools: recordingTools(), messages: QUESTION, maxSteps: 2 });
    assert.equal(session.requests.length, 2);
    assert.equal(session.requests[1].tools, undefined);
  });

  for (const maxSteps of [0, -1]) {
    it(`should make no model call and add nothing when maxSteps is ${maxSteps}`, async () => {
      const session = scriptedSession([{ content: 'never' }]);
      const added = await runConversation({ session, tools: recordingTools(), messages: QUESTION, maxSteps });
      assert.deepEqual(added, []);
      assert.equal(session.requests.length, 0);
    });
  }

  it('should reject a maxSteps that is not a number without calling the model', async () => {
    const session = scriptedSession([{ content: 'never' }]);
    await assert.rejects(
      runConversation({ session, messages: QUESTION, maxSteps: Number.NaN }),
      { name: 'RangeError', message: 'maxSteps must be a number of model calls; got NaN' },
    );
    assert.equal(session.requests.length, 0);
  });

  it('should stop as soon as an answer has no tool calls', async () => {
    const session = scriptedSession([{ toolCalls: [call('x', 'search_books')] }, { content: 'Here.' }, { content: 'never' }]);
    const added = await runConversation({ session, tools: recordingTools(), messages: QUESTION });
    assert.equal(session.requests.length, 2);
    assert.equal(finalAnswer(added)?.content, 'Here.');
  });

  it('should leave the input messages untouched', async () => {
    const messages = structuredClone(QUESTION);
    const session = scriptedSession([{ toolCalls: [call('x', 'search_books')] }, { content: 'ok' }]);
    await runConversation({ session, tools: recordingTools(), messages });
    assert.deepEqual(messages, QUESTION);
  });

  it('should call the hooks in order across every step', async () => {
    const session = scriptedSession([{ content: 'Looking. ', toolCalls: [call('a', 'search_books')] }, { content: 'Found.' }]);
    /** @type {string[]} */
    const heard = [];
    await runConversation({
      session, tools: recordingTools(), messages: QUESTION,
      onText: (delta) => heard.push(`text ${delta}`),
      onToolCall: (c) => heard.push(`call ${c.name}`),
      onToolResult: (c, result) => heard.push(`result ${c.name} ${result}`),
    });
    assert.deepEqual(heard, ['text Looking. ', 'call search_books', 'result search_books search_books:{}', 'text Found.']);
  });

  it('should hand onToolResult the whole result of a source with callToolResult', async () => {
    const session = scriptedSession([{ toolCalls: [call('a', 'search_books')] }, { content: 'ok' }]);
    const whole = { text: '2 books', isError: false, structuredContent: { books: [{ slug: 'dune' }, { slug: 'emma' }] } };
    /** @type {unknown[][]} */
    const heard = [];
    const tools = { ...recordingTools(), callTool: async () => 'never used', callToolResult: async () => whole };
    const added = await runConversation({
      session, tools, messages: QUESTION, onToolResult: (c, text, details) => heard.push([c.id, text, details]),
    });
    assert.deepEqual(heard, [['a', '2 books', whole]]);
    assert.deepEqual(added[1], { role: 'tool', toolCallId: 'a', name: 'search_books', content: '2 books' });
  });

  it('should give the model a failed result as a Tool error and the page the failure', async () => {
    const session = scriptedSession([{ toolCalls: [call('a', 'search_books')] }, { content: 'ok' }]);
    const failed = { text: 'There is no mood sad', isError: true };
    /** @type {unknown[][]} */
    const heard = [];
    const tools = { ...recordingTools(), callToolResult: async () => failed };
    const added = await runConversation({
      session, tools, messages: QUESTION, onToolResult: (_c, text, details) => heard.push([text, details]),
    });
    assert.deepEqual(heard, [['Tool error: There is no mood sad', failed]]);
    assert.equal(added[1].content, 'Tool error: There is no mood sad');
  });

  it('should hand a tool that throws to onToolResult as a failed result', async () => {
    const session = scriptedSession([{ toolCalls: [call('a', 'search_books')] }, { content: 'ok' }]);
    /** @type {unknown[]} */
    const heard = [];
    const tools = recordingTools({ search_books: () => { throw new Error('the shelf fell over'); } });
    await runConversation({ session, tools, messages: QUESTION, onToolResult: (_c, _t, details) => heard.push(details) });
    assert.deepEqual(heard, [{ text: 'the shelf fell over', isError: true }]);
  });

  it('should hand a callTool-only source\'s text to onToolResult as a result that did not fail', async () => {
    const session = scriptedSession([{ toolCalls: [call('a', 'get_book')] }, { content: 'ok' }]);
    /** @type {unknown[]} */
    const heard = [];
    await runConversation({ session, tools: recordingTools(), messages: QUESTION, onToolResult: (_c, _t, details) => heard.push(details) });
    assert.deepEqual(heard, [{ text: 'get_book:{}', isError: false }]);
  });

  it('should pass the signal to every chat', async () => {
    const session = scriptedSession([{ toolCalls: [call('a', 'search_books')] }, { content: 'ok' }]);
    const { signal } = new AbortController();
    await runConversation({ session, tools: recordingTools(), messages: QUESTION, signal });
    assert.ok(session.requests.every((r) => r.signal === signal));
  });

  it('should reject with the signal\'s reason and run no more tools once aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by the visitor');
    const session = scriptedSession([{ toolCalls: [call('a', 'search_books'), call('b', 'get_book')] }, { content: 'ok' }]);
    const tools = recordingTools({ search_books: () => { controller.abort(reason); return 'r'; } });
    await assert.rejects(runConversation({ session, tools, messages: QUESTION, signal: controller.signal }), (e) => e === reason);
    assert.deepEqual(tools.log, ['start search_books', 'end search_books']);
    assert.equal(session.requests.length, 1);
  });

  it('should reject with the session\'s error', async () => {
    const refusal = Object.assign(new Error('The answer was stopped from AI Wallet'), { name: 'WalletRequestError', status: 499 });
    const session = scriptedSession([refusal]);
    await assert.rejects(runConversation({ session, messages: QUESTION }), { name: 'WalletRequestError', status: 499 });
  });
});

describe('finalAnswer', () => {
  it('should return the last message when it is the assistant\'s', () => {
    const answer = { role: /** @type {const} */ ('assistant'), content: 'Piranesi' };
    assert.equal(finalAnswer([...QUESTION, answer]), answer);
  });

  it('should return null when the last message is not the assistant\'s', () => {
    assert.equal(finalAnswer([{ role: 'tool', toolCallId: 'a', name: 't', content: 'r' }]), null);
    assert.equal(finalAnswer([]), null);
  });
});
