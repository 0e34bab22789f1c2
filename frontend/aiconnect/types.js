// @ts-check
/**
 * The types @aiconnect/core shares with AI Wallet (specs/aiconnect-core.md, "Chat types" to
 * "ChatEvent"; specs/wallet-provider.md, "Shared types"), written as JSDoc so that pages need no
 * build step and `tsc --checkJs` still checks every module against them.
 *
 * Import them in JSDoc: `@typedef {import('./aiconnect/types.js').ChatMessage} ChatMessage`.
 * This module exports no values.
 */

/** @typedef {{ type: 'text', text: string }} TextPart A piece of text in a message. */
/**
 * @typedef {{ type: 'image', url: string }} ImagePart
 * An image: a `data:` URL, or an https URL for the providers that fetch images themselves.
 */
/** @typedef {TextPart | ImagePart} ContentPart One part of a user message's content. */
/** @typedef {{ mediaType: string, data: string }} InlineData The pieces of a base64 `data:` URL. */

/** @typedef {{ role: 'system', content: string }} SystemMessage */
/** @typedef {{ role: 'user', content: string | ContentPart[] }} UserMessage */
/** @typedef {{ id: string, name: string, arguments: Record<string, unknown> }} ToolCall */
/** @typedef {{ role: 'assistant', content: string, toolCalls?: ToolCall[] }} AssistantMessage */
/**
 * @typedef {{ role: 'tool', toolCallId: string, name: string, content: string }} ToolMessage
 * Answers the `ToolCall` whose `id` it carries in `toolCallId`.
 */
/** @typedef {SystemMessage | UserMessage | AssistantMessage | ToolMessage} ChatMessage */

/** @typedef {{ [key: string]: unknown }} JsonSchema A JSON Schema object. */
/** @typedef {{ name: string, description: string, inputSchema: JsonSchema }} ToolDefinition */
/**
 * @typedef {object} McpToolAnnotations
 * A tool's hints as MCP's `tools/list` gives them (MCP 2025-06-18, "Tools"); absent
 * ones take MCP's defaults (readOnly false, destructive true, openWorld true).
 * @property {string} [title]
 * @property {boolean} [readOnlyHint]
 * @property {boolean} [destructiveHint]
 * @property {boolean} [idempotentHint]
 * @property {boolean} [openWorldHint]
 */
/**
 * @typedef {object} McpTool
 * A tool as MCP lists it, for a client that shows more than the model's three fields.
 * @property {string} name
 * @property {string} [title]
 * @property {string} [description]
 * @property {JsonSchema} inputSchema
 * @property {McpToolAnnotations} [annotations]
 */
/**
 * @typedef {object} McpToolResult
 * A tool's result as MCP gives it (`CallToolResult`), for a client that passes it on whole.
 * @property {{ type: string, [key: string]: unknown }[]} content
 * @property {boolean} isError
 * @property {Record<string, unknown>} [structuredContent]
 */
/**
 * @typedef {object} ToolResult
 * A tool's whole result, for the page. The model reads `text` only (with `Tool error: ` before it
 * when `isError`, see `toolResultText`); the page may render `structuredContent` (MCP's
 * `structuredContent`, a JSON object) and show a failed tool as failed.
 * @property {string} text The result's text parts joined with line breaks.
 * @property {boolean} isError True when the tool failed: the server marked the result `isError`,
 *   or calling it threw (then `text` is the error's message).
 * @property {Record<string, unknown>} [structuredContent] Absent when the tool sent none, or sent
 *   something other than a JSON object.
 */
/**
 * @typedef {object} ToolSource
 * The tools a site offers; `McpToolSource` is one, any object with the first two methods is another.
 * @property {() => Promise<ToolDefinition[]>} listTools
 * @property {(name: string, args: Record<string, unknown>) => Promise<string>} callTool What the
 *   model reads of a call's result.
 * @property {(name: string, args: Record<string, unknown>) => Promise<ToolResult>} [callToolResult]
 *   The call's whole result, when the source can give it (`McpToolSource` can); `runConversation`
 *   then uses it in place of `callTool` and hands it to `onToolResult`.
 */

/** @typedef {'auto' | 'none' | 'required' | { name: string }} ToolChoice */
/** @typedef {{ type: 'json', schema?: JsonSchema, name?: string, strict?: boolean }} ResponseFormat */
/**
 * @typedef {object} GenerationOptions
 * What the site asks of the answer. The first four are hints a connector may leave out.
 * @property {number} [maxTokens]
 * @property {number} [temperature]
 * @property {number} [topP]
 * @property {string[]} [stop]
 * @property {ToolChoice} [toolChoice]
 * @property {ResponseFormat} [responseFormat]
 */
/** @typedef {'maxTokens' | 'stop' | 'temperature' | 'topP'} GenerationHint */

/** @typedef {{ providerName: string, model: string }} ChatStart Who answers a chat. */
/** @typedef {'stop' | 'length' | 'toolCalls' | 'contentFilter'} FinishReason */
/**
 * @typedef {{ inputTokens: number, outputTokens: number, cachedInputTokens: number }} Usage
 * `inputTokens` includes `cachedInputTokens`.
 */
/**
 * @typedef {object} ChatResponse
 * @property {AssistantMessage} message
 * @property {FinishReason} finishReason
 * @property {string} model The model that answered, as the provider named it.
 * @property {Usage} [usage] Absent when the provider reports no token counts.
 */
/**
 * @typedef {object} ChatRequest
 * @property {ChatMessage[]} messages
 * @property {ToolDefinition[]} [tools]
 * @property {GenerationOptions} [options]
 * @property {AbortSignal} [signal] Aborting it stops the chat in the wallet.
 * @property {(start: ChatStart) => void} [onStart] Who answers, once, before the first text or the result.
 * @property {(delta: string) => void} [onText] Each piece of the answer's text as it streams.
 */
/**
 * @typedef {object} ProviderSession
 * Answers chats. The wallet's has `providerId` `aiwallet`, and `model` '' with Auto.
 * @property {string} providerId
 * @property {string} model
 * @property {(request: ChatRequest) => Promise<ChatResponse>} chat
 */

/** @typedef {{ status: 'checking' }} CheckingState Looking for the wallet, or rendering on a server. */
/** @typedef {{ status: 'noWallet' }} NoWalletState No wallet answered within 300 ms. */
/** @typedef {{ status: 'disconnected' }} DisconnectedState The wallet answered; this site is not connected. */
/** @typedef {{ status: 'connecting' }} ConnectingState `connect()` waits for the visitor. */
/**
 * @typedef {{ status: 'connected', providerName: string, model?: string, session: ProviderSession }} ConnectedState
 * The site may chat; `providerName` is the answering account's name, or `Auto`.
 */
/** @typedef {{ status: 'error', message: string }} ErrorState The last `connect()` failed. */
/**
 * @typedef {CheckingState | NoWalletState | DisconnectedState | ConnectingState | ConnectedState | ErrorState} ConnectionState
 */
/** @typedef {(state: ConnectionState) => void} Listener */

/** @typedef {{ connected: false } | { connected: true, providerName: string, model?: string }} WalletLink */
/** @typedef {({ kind: 'start' } & ChatStart) | { kind: 'text', delta: string }} ChatEvent */
/** @typedef {{ messages: ChatMessage[], tools?: ToolDefinition[], options?: GenerationOptions }} WalletChatParams */
/**
 * @typedef {object} WalletProvider
 * `window.aiwallet`, as specs/wallet-provider.md defines it.
 * @property {true} isAIWallet
 * @property {string} [name]
 * @property {(method: string, params?: unknown, onEvent?: (event: ChatEvent) => void, signal?: AbortSignal) => Promise<unknown>} request
 * @property {(listener: (link: WalletLink) => void) => () => void} onLink
 */

/**
 * @typedef {(input: URL | RequestInfo, init?: RequestInit) => Promise<Response>} WalletFetch
 * A `fetch` that answers the AI SDKs' requests through the wallet, in their own protocol.
 */
/**
 * @typedef {{ apiKey: string, fetch: WalletFetch, dangerouslyAllowBrowser: true }} SdkOptions
 * The options an OpenAI or Anthropic SDK client takes to answer through the wallet.
 */

/**
 * @typedef {object} ConversationHooks
 * @property {(delta: string) => void} [onText] Each piece of text, across every step.
 * @property {(call: ToolCall) => void} [onToolCall] A tool call, before the tool runs.
 * @property {(call: ToolCall, result: string, details: ToolResult) => void} [onToolResult] The call,
 *   the result's text as the model reads it, and the whole result: whether the tool failed and its
 *   structured content (only from a source with `callToolResult`, such as `McpToolSource`).
 */
/**
 * @typedef {ConversationHooks & {
 *   session: ProviderSession,
 *   messages: ChatMessage[],
 *   tools?: ToolSource,
 *   maxSteps?: number,
 *   signal?: AbortSignal,
 * }} ConversationOptions
 */

export {};
