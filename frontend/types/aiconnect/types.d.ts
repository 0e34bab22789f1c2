/**
 * A piece of text in a message.
 */
export type TextPart = {
    type: "text";
    text: string;
};
/**
 * An image: a `data:` URL, or an https URL for the providers that fetch images themselves.
 */
export type ImagePart = {
    type: "image";
    url: string;
};
/**
 * One part of a user message's content.
 */
export type ContentPart = TextPart | ImagePart;
/**
 * The pieces of a base64 `data:` URL.
 */
export type InlineData = {
    mediaType: string;
    data: string;
};
export type SystemMessage = {
    role: "system";
    content: string;
};
export type UserMessage = {
    role: "user";
    content: string | ContentPart[];
};
export type ToolCall = {
    id: string;
    name: string;
    arguments: Record<string, unknown>;
};
export type AssistantMessage = {
    role: "assistant";
    content: string;
    toolCalls?: ToolCall[];
};
/**
 * Answers the `ToolCall` whose `id` it carries in `toolCallId`.
 */
export type ToolMessage = {
    role: "tool";
    toolCallId: string;
    name: string;
    content: string;
};
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
/**
 * A JSON Schema object.
 */
export type JsonSchema = {
    [key: string]: unknown;
};
export type ToolDefinition = {
    name: string;
    description: string;
    inputSchema: JsonSchema;
};
/**
 * A tool's hints as MCP's `tools/list` gives them (MCP 2025-06-18, "Tools"); absent
 * ones take MCP's defaults (readOnly false, destructive true, openWorld true).
 */
export type McpToolAnnotations = {
    title?: string | undefined;
    readOnlyHint?: boolean | undefined;
    destructiveHint?: boolean | undefined;
    idempotentHint?: boolean | undefined;
    openWorldHint?: boolean | undefined;
};
/**
 * A tool as MCP lists it, for a client that shows more than the model's three fields.
 */
export type McpTool = {
    name: string;
    title?: string | undefined;
    description?: string | undefined;
    inputSchema: JsonSchema;
    annotations?: McpToolAnnotations | undefined;
};
/**
 * A tool's result as MCP gives it (`CallToolResult`), for a client that passes it on whole.
 */
export type McpToolResult = {
    content: {
        type: string;
        [key: string]: unknown;
    }[];
    isError: boolean;
    structuredContent?: Record<string, unknown> | undefined;
};
/**
 * A tool's whole result, for the page. The model reads `text` only (with `Tool error: ` before it
 * when `isError`, see `toolResultText`); the page may render `structuredContent` (MCP's
 * `structuredContent`, a JSON object) and show a failed tool as failed.
 */
export type ToolResult = {
    /**
     * The result's text parts joined with line breaks.
     */
    text: string;
    /**
     * True when the tool failed: the server marked the result `isError`,
     * or calling it threw (then `text` is the error's message).
     */
    isError: boolean;
    /**
     * Absent when the tool sent none, or sent
     * something other than a JSON object.
     */
    structuredContent?: Record<string, unknown> | undefined;
};
/**
 * The tools a site offers; `McpToolSource` is one, any object with the first two methods is another.
 */
export type ToolSource = {
    listTools: () => Promise<ToolDefinition[]>;
    /**
     * What the
     * model reads of a call's result.
     */
    callTool: (name: string, args: Record<string, unknown>) => Promise<string>;
    /**
     * The call's whole result, when the source can give it (`McpToolSource` can); `runConversation`
     * then uses it in place of `callTool` and hands it to `onToolResult`.
     */
    callToolResult?: ((name: string, args: Record<string, unknown>) => Promise<ToolResult>) | undefined;
};
export type ToolChoice = "auto" | "none" | "required" | {
    name: string;
};
export type ResponseFormat = {
    type: "json";
    schema?: JsonSchema;
    name?: string;
    strict?: boolean;
};
/**
 * What the site asks of the answer. The first four are hints a connector may leave out.
 */
export type GenerationOptions = {
    maxTokens?: number | undefined;
    temperature?: number | undefined;
    topP?: number | undefined;
    stop?: string[] | undefined;
    toolChoice?: ToolChoice | undefined;
    responseFormat?: ResponseFormat | undefined;
};
export type GenerationHint = "maxTokens" | "stop" | "temperature" | "topP";
/**
 * Who answers a chat.
 */
export type ChatStart = {
    providerName: string;
    model: string;
};
export type FinishReason = "stop" | "length" | "toolCalls" | "contentFilter";
/**
 * `inputTokens` includes `cachedInputTokens`.
 */
export type Usage = {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens: number;
};
export type ChatResponse = {
    message: AssistantMessage;
    finishReason: FinishReason;
    /**
     * The model that answered, as the provider named it.
     */
    model: string;
    /**
     * Absent when the provider reports no token counts.
     */
    usage?: Usage | undefined;
};
export type ChatRequest = {
    messages: ChatMessage[];
    tools?: ToolDefinition[] | undefined;
    options?: GenerationOptions | undefined;
    /**
     * Aborting it stops the chat in the wallet.
     */
    signal?: AbortSignal | undefined;
    /**
     * Who answers, once, before the first text or the result.
     */
    onStart?: ((start: ChatStart) => void) | undefined;
    /**
     * Each piece of the answer's text as it streams.
     */
    onText?: ((delta: string) => void) | undefined;
};
/**
 * Answers chats. The wallet's has `providerId` `aiwallet`, and `model` '' with Auto.
 */
export type ProviderSession = {
    providerId: string;
    model: string;
    chat: (request: ChatRequest) => Promise<ChatResponse>;
};
/**
 * Looking for the wallet, or rendering on a server.
 */
export type CheckingState = {
    status: "checking";
};
/**
 * No wallet answered within 300 ms.
 */
export type NoWalletState = {
    status: "noWallet";
};
/**
 * The wallet answered; this site is not connected.
 */
export type DisconnectedState = {
    status: "disconnected";
};
/**
 * `connect()` waits for the visitor.
 */
export type ConnectingState = {
    status: "connecting";
};
/**
 * The site may chat; `providerName` is the answering account's name, or `Auto`.
 */
export type ConnectedState = {
    status: "connected";
    providerName: string;
    model?: string;
    session: ProviderSession;
};
/**
 * The last `connect()` failed.
 */
export type ErrorState = {
    status: "error";
    message: string;
};
export type ConnectionState = CheckingState | NoWalletState | DisconnectedState | ConnectingState | ConnectedState | ErrorState;
export type Listener = (state: ConnectionState) => void;
export type WalletLink = {
    connected: false;
} | {
    connected: true;
    providerName: string;
    model?: string;
};
export type ChatEvent = ({
    kind: "start";
} & ChatStart) | {
    kind: "text";
    delta: string;
};
export type WalletChatParams = {
    messages: ChatMessage[];
    tools?: ToolDefinition[];
    options?: GenerationOptions;
};
/**
 * `window.aiwallet`, as specs/wallet-provider.md defines it.
 */
export type WalletProvider = {
    isAIWallet: true;
    name?: string | undefined;
    request: (method: string, params?: unknown, onEvent?: (event: ChatEvent) => void, signal?: AbortSignal) => Promise<unknown>;
    onLink: (listener: (link: WalletLink) => void) => () => void;
};
/**
 * A `fetch` that answers the AI SDKs' requests through the wallet, in their own protocol.
 */
export type WalletFetch = (input: URL | RequestInfo, init?: RequestInit) => Promise<Response>;
/**
 * The options an OpenAI or Anthropic SDK client takes to answer through the wallet.
 */
export type SdkOptions = {
    apiKey: string;
    fetch: WalletFetch;
    dangerouslyAllowBrowser: true;
};
export type ConversationHooks = {
    /**
     * Each piece of text, across every step.
     */
    onText?: ((delta: string) => void) | undefined;
    /**
     * A tool call, before the tool runs.
     */
    onToolCall?: ((call: ToolCall) => void) | undefined;
    /**
     * The call,
     * the result's text as the model reads it, and the whole result: whether the tool failed and its
     * structured content (only from a source with `callToolResult`, such as `McpToolSource`).
     */
    onToolResult?: ((call: ToolCall, result: string, details: ToolResult) => void) | undefined;
};
export type ConversationOptions = ConversationHooks & {
    session: ProviderSession;
    messages: ChatMessage[];
    tools?: ToolSource;
    maxSteps?: number;
    signal?: AbortSignal;
};
