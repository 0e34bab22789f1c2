export { AiConnect } from "./client.js";
export { McpToolSource } from "./mcp.js";
export { WalletRequestError } from "./errors.js";
export { runConversation, finalAnswer } from "./conversation.js";
export { contentParts, textOf, inlineData, dataUrl } from "./content.js";
