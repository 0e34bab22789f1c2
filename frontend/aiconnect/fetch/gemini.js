// @ts-check
/**
 * WalletFetch translator for Gemini (`POST …/models/<model>:generateContent` and
 * `:streamGenerateContent`), streamed (SSE chunks of `GenerateContentResponse`) and whole.
 *
 * Gemini's function calls may come without ids: a call without one gets `call_<n>`, and a
 * function response without one answers the earliest unanswered call of the same name.
 * Gemini's own schema dialect spells types in capitals (`OBJECT`); they are lowered to JSON Schema.
 */

import { BadRequest, listOf, newId, setIf, sse } from './shared.js';
import { dataUrl, toolErrorText } from '../content.js';

/** @typedef {import('../types.js').ChatMessage} ChatMessage */
/** @typedef {import('../types.js').ContentPart} ContentPart */
/** @typedef {import('../types.js').ChatResponse} ChatResponse */
/** @typedef {import('../types.js').GenerationOptions} GenerationOptions */
/** @typedef {import('../types.js').JsonSchema} JsonSchema */
/** @typedef {import('./shared.js').WalletCall} WalletCall */

const FINISH = { stop: 'STOP', length: 'MAX_TOKENS', toolCalls: 'STOP', contentFilter: 'SAFETY' };
/** @type {Record<number, string>} */
const STATUS = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND',
  410: 'FAILED_PRECONDITION', 429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE',
};

/**
 * Read a generateContent request into the wallet's chat format.
 *
 * @param {any} body
 * @param {URL} url
 * @returns {WalletCall}
 */
export function read(body, url) {
  /** @type {ChatMessage[]} */
  const messages = [];
  const system = body?.systemInstruction;
  if (system) messages.push({ role: 'system', content: typeof system === 'string' ? system : partsText(system.parts) });
  /** @type {{ id: string, name: string, answered: boolean }[]} */
  const calls = [];
  for (const content of listOf(body?.contents, 'contents')) {
    const parts = listOf(content.parts, 'parts');
    if (content.role === 'model') messages.push(modelTurn(parts, calls));
    else messages.push(...userTurn(parts, calls));
  }
  return {
    messages, ...readTools(body.tools), options: readOptions(body),
    stream: url.pathname.endsWith(':streamGenerateContent'),
  };
}

/**
 * @param {any[]} parts
 * @param {{ id: string, name: string, answered: boolean }[]} calls
 * @returns {import('../types.js').AssistantMessage}
 */
function modelTurn(parts, calls) {
  let content = '';
  /** @type {import('../types.js').ToolCall[]} */
  const toolCalls = [];
  for (const part of parts) {
    if (typeof part.text === 'string' && !part.thought) content += part.text;
    if (part.functionCall) {
      const { id = `call_${calls.length + 1}`, name, args = {} } = part.functionCall;
      calls.push({ id, name, answered: false });
      toolCalls.push({ id, name, arguments: args });
    }
  }
  return { role: 'assistant', content, ...(toolCalls.length ? { toolCalls } : {}) };
}

/**
 * Return a user turn as the function responses it carries, then the rest as one user message.
 *
 * @param {any[]} parts
 * @param {{ id: string, name: string, answered: boolean }[]} calls
 * @returns {ChatMessage[]}
 */
function userTurn(parts, calls) {
  /** @type {ChatMessage[]} */
  const results = [];
  /** @type {ContentPart[]} */
  const content = [];
  for (const part of parts) {
    if (part.functionResponse) {
      const { id, name, response } = part.functionResponse;
      const call = calls.find((c) => !c.answered && (id ? c.id === id : c.name === name));
      if (call) call.answered = true;
      // By convention a function's answer is `{ output }` (or `{ error }`); anything else goes as JSON.
      const text = typeof response?.output === 'string' ? response.output
        : typeof response?.error === 'string' ? toolErrorText(response.error) : JSON.stringify(response ?? {});
      results.push({ role: 'tool', toolCallId: call?.id ?? id ?? name, name, content: text });
    } else if (typeof part.text === 'string') {
      content.push({ type: 'text', text: part.text });
    } else if (part.inlineData?.mimeType?.startsWith('image/')) {
      content.push({ type: 'image', url: dataUrl({ mediaType: part.inlineData.mimeType, data: part.inlineData.data }) });
    } else if (part.fileData?.fileUri && (part.fileData.mimeType ?? 'image/').startsWith('image/')) {
      content.push({ type: 'image', url: part.fileData.fileUri });
    } else {
      throw new BadRequest(`AI Wallet takes text and images, not this part: ${Object.keys(part).join(', ')}`);
    }
  }
  const textOnly = content.every((part) => part.type === 'text');
  const message = textOnly ? content.map((part) => /** @type {{ text: string }} */ (part).text).join('') : content;
  return content.length ? [...results, { role: 'user', content: message }] : results;
}

/**
 * @param {any} parts
 * @returns {string}
 */
function partsText(parts) {
  return listOf(parts ?? [], 'parts').map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

/**
 * @param {any} tools
 * @returns {{ tools?: import('../types.js').ToolDefinition[] }}
 */
function readTools(tools) {
  if (!tools?.length) return {};
  const definitions = [];
  for (const tool of tools) {
    if (!tool.functionDeclarations) {
      throw new BadRequest(`AI Wallet offers function declarations only, not ${Object.keys(tool).join(', ')}`);
    }
    for (const fn of tool.functionDeclarations) {
      definitions.push({
        name: fn.name, description: fn.description ?? '',
        inputSchema: fn.parametersJsonSchema ?? (fn.parameters ? lowerTypes(fn.parameters) : { type: 'object', properties: {} }),
      });
    }
  }
  return { tools: definitions };
}

/**
 * @param {any} body
 * @returns {GenerationOptions}
 */
function readOptions(body) {
  const config = body.generationConfig ?? {};
  /** @type {GenerationOptions} */
  const options = {};
  setIf(options, 'maxTokens', config.maxOutputTokens);
  setIf(options, 'temperature', config.temperature);
  setIf(options, 'topP', config.topP);
  setIf(options, 'stop', config.stopSequences);
  const calling = body.toolConfig?.functionCallingConfig;
  const allowed = calling?.allowedFunctionNames;
  if (calling?.mode === 'ANY') options.toolChoice = allowed?.length === 1 ? { name: allowed[0] } : 'required';
  else if (calling?.mode === 'NONE') options.toolChoice = 'none';
  else if (calling?.mode) options.toolChoice = 'auto';
  if (config.responseMimeType === 'application/json') {
    options.responseFormat = { type: 'json' };
    const schema = config.responseJsonSchema ?? (config.responseSchema && lowerTypes(config.responseSchema));
    setIf(options.responseFormat, 'schema', schema);
  }
  return options;
}

/**
 * Return a Gemini schema with its `type` names in JSON Schema's spelling (`OBJECT` -> `object`).
 *
 * @param {any} schema
 * @returns {any}
 */
function lowerTypes(schema) {
  if (Array.isArray(schema)) return schema.map(lowerTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [
    key, key === 'type' && typeof value === 'string' ? value.toLowerCase() : lowerTypes(value),
  ]));
}

/**
 * @param {ChatResponse} response
 */
function usageOf(response) {
  const usage = response.usage;
  if (!usage) return undefined;
  return {
    promptTokenCount: usage.inputTokens, candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens, cachedContentTokenCount: usage.cachedInputTokens,
  };
}

/**
 * @param {ChatResponse} response
 */
function callParts(response) {
  return (response.message.toolCalls ?? []).map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.arguments } }));
}

/**
 * Return the `GenerateContentResponse` body of a whole answer.
 *
 * @param {ChatResponse} response
 */
export function whole(response) {
  const text = response.message.content;
  const parts = [...(text ? [{ text }] : []), ...callParts(response)];
  return {
    candidates: [{ content: { role: 'model', parts: parts.length ? parts : [{ text: '' }] },
      finishReason: FINISH[response.finishReason] ?? 'STOP', index: 0 }],
    usageMetadata: usageOf(response), modelVersion: response.model, responseId: newId(''),
  };
}

/**
 * Return the writer of a streamGenerateContent SSE stream.
 *
 * @param {import('../types.js').ChatStart} start
 * @returns {import('./shared.js').StreamWriter}
 */
export function stream(start) {
  const responseId = newId('');
  return {
    // Gemini's stream has no opening event: its first chunk is the first text, which names the
    // model from the wallet's `start` event.
    open: () => '',
    text: (delta) => sse({
      candidates: [{ content: { role: 'model', parts: [{ text: delta }] }, index: 0 }], modelVersion: start.model, responseId,
    }),
    end: (response) => sse({
      candidates: [{ content: { role: 'model', parts: callParts(response) }, finishReason: FINISH[response.finishReason] ?? 'STOP', index: 0 }],
      usageMetadata: usageOf(response), modelVersion: response.model, responseId,
    }),
    fail: (status, message) => sse(errorBody(status, message)),
  };
}

/**
 * Return Google's error body.
 *
 * @param {number} status
 * @param {string} message
 */
export function errorBody(status, message) {
  return { error: { code: status, message, status: STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
}
