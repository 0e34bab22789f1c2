/**
 * Run the agent loop; resolve with the messages it added, ending with the final answer.
 * `options.messages` is left untouched.
 *
 * @param {import('./types.js').ConversationOptions} options
 * @returns {Promise<ChatMessage[]>}
 */
export function runConversation({ session, messages, tools, maxSteps, signal, onText, onToolCall, onToolResult, }: import("./types.js").ConversationOptions): Promise<ChatMessage[]>;
/**
 * Return the last message when it is an assistant message, and `null` otherwise.
 *
 * @param {ChatMessage[]} messages
 * @returns {import('./types.js').AssistantMessage | null}
 */
export function finalAnswer(messages: ChatMessage[]): import("./types.js").AssistantMessage | null;
/** @typedef {import('./types.js').ChatMessage} ChatMessage */
/** The number of model calls a conversation makes at most, unless `maxSteps` says otherwise. */
export const DEFAULT_MAX_STEPS: 6;
export type ChatMessage = import("./types.js").ChatMessage;
