// @ts-check
/**
 * The agent loop in the page (specs/aiconnect-core.md, "runConversation"): one `session.chat`
 * is one model call (wallet-provider.md, "chat"), and the loop around it belongs to the page.
 */

import { toolResultText } from './content.js';

/** @typedef {import('./types.js').ChatMessage} ChatMessage */

/** The number of model calls a conversation makes at most, unless `maxSteps` says otherwise. */
export const DEFAULT_MAX_STEPS = 6;

/**
 * Run the agent loop; resolve with the messages it added, ending with the final answer.
 * `options.messages` is left untouched.
 *
 * @param {import('./types.js').ConversationOptions} options
 * @returns {Promise<ChatMessage[]>}
 */
export async function runConversation({
  session, messages, tools, maxSteps = DEFAULT_MAX_STEPS, signal, onText, onToolCall, onToolResult,
}) {
  if (typeof maxSteps !== 'number' || Number.isNaN(maxSteps)) {
    throw new RangeError(`maxSteps must be a number of model calls; got ${String(maxSteps)}`);
  }
  signal?.throwIfAborted();
  // "The number of model calls at most": none at all when it is below one.
  const steps = Math.floor(maxSteps);
  if (steps < 1) return [];
  /** @type {import('./types.js').ToolDefinition[]} */
  const definitions = tools ? await tools.listTools() : [];
  /** @type {ChatMessage[]} */
  const added = [];
  for (let step = 1; ; step += 1) {
    signal?.throwIfAborted();
    // The last step offers no tools, so the model has to conclude ("runConversation").
    const offered = step < steps && definitions.length > 0 ? definitions : undefined;
    const { message } = await session.chat({ messages: [...messages, ...added], tools: offered, signal, onText });
    added.push(message);
    const calls = message.toolCalls ?? [];
    if (!offered || calls.length === 0) return added;
    for (const call of calls) {
      signal?.throwIfAborted();
      onToolCall?.(call);
      const result = await runTool(/** @type {NonNullable<typeof tools>} */ (tools), call);
      const text = toolResultText(result);
      added.push({ role: 'tool', toolCallId: call.id, name: call.name, content: text });
      onToolResult?.(call, text, result);
    }
  }
}

/**
 * Return the last message when it is an assistant message, and `null` otherwise.
 *
 * @param {ChatMessage[]} messages
 * @returns {import('./types.js').AssistantMessage | null}
 */
export function finalAnswer(messages) {
  const last = messages.at(-1);
  return last?.role === 'assistant' ? last : null;
}

/**
 * Run one tool call; a throw becomes a failed result, which the model reads as a `Tool error`.
 *
 * @param {import('./types.js').ToolSource} tools
 * @param {import('./types.js').ToolCall} call
 * @returns {Promise<import('./types.js').ToolResult>}
 */
async function runTool(tools, call) {
  try {
    if (typeof tools.callToolResult === 'function') return await tools.callToolResult(call.name, call.arguments);
    // A source with callTool only: its text is what the model reads, whether or not it failed.
    return { text: await tools.callTool(call.name, call.arguments), isError: false };
  } catch (error) {
    return { text: String(/** @type {any} */ (error)?.message ?? error), isError: true };
  }
}
