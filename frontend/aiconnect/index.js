// @ts-check
/** @aiconnect/core, re-exported. Types: ./types.js; WalletFetch loads from ./fetch/ on use. */

export { AiConnect } from './client.js';
export { McpToolSource } from './mcp.js';
export { runConversation, finalAnswer } from './conversation.js';
export { contentParts, textOf, inlineData, dataUrl } from './content.js';
export { WalletRequestError } from './errors.js';
