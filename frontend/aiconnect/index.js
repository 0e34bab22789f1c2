// @ts-check
/**
 * @aiconnect/core: the site's side of AI Connect, as plain browser ES modules.
 *
 * This module only re-exports. The WalletFetch translators are not here: `client.fetch` loads
 * them when a page first uses it. The shared types are JSDoc typedefs in `./types.js`.
 */

export { AiConnect } from './client.js';
export { McpToolSource } from './mcp.js';
export { runConversation, finalAnswer } from './conversation.js';
export { contentParts, textOf, inlineData, dataUrl } from './content.js';
export { WalletRequestError } from './errors.js';
