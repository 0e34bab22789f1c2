/** The Playwright binding the page calls. */
export const BINDING: "__testwalletAiwallet";
/** The in-page provider, to add as an init script. */
export const SCRIPT_PATH: string;
/** Raised by `check()` when a chat had no recording in the cassette: names the chat and what differs. */
export class NotRecorded extends Error {
    /** @param {string} message */
    constructor(message: string);
}
/**
 * @typedef {{ connected: false } | { connected: true, providerName: string, model?: string }} WalletLink
 * @typedef {{ kind: 'start', providerName: string, model: string }
 *   | { kind: 'text', delta: string }
 *   | { kind: 'result', result: unknown }
 *   | { kind: 'error', status: number, message: string }} WalletEvent
 * @typedef {{ name: string, arguments?: Record<string, unknown> | string, id?: string }} ToolCall
 *   A tool the model asks for; `arguments` an object or the JSON text of one.
 * @typedef {object} ReplyOptions
 * @property {ToolCall[]} [toolCalls]
 * @property {string} [finishReason] default: 'toolCalls' with tool calls, else 'stop'
 * @property {string} [model] the model as the provider names it (default: the account's)
 * @typedef {{ kind: 'reply', deltas: string[], toolCalls: ToolCall[], finishReason?: string, model?: string }
 *   | { kind: 'fail', status: number, detail: string }} Scripted
 * @typedef {object} Request A request the page sent, and the last event it got.
 * @property {string} method
 * @property {unknown} params
 * @property {string} origin taken from the frame that sent it
 * @property {WalletEvent | null} answer
 * @typedef {object} Chat A chat that reached the model.
 * @property {any[]} messages
 * @property {any[] | undefined} tools
 * @property {string} origin
 * @property {string} account
 * @property {string} model
 * @property {'answered' | 'failed' | 'cancelled' | null} outcome
 */
/** The wallet behind one test's `window.aiwallet`. */
export class AiWallet {
    /** The one AI account: its name and model, as the page sees them. */
    account: {
        name: string;
        model: string;
    };
    /** @type {Request[]} every request the page sent */
    requests: Request[];
    /** @type {Chat[]} every chat that reached the model */
    chats: Chat[];
    /** @type {[string, WalletLink][]} every link notice sent, with its origin */
    notices: [string, WalletLink][];
    /** @type {string[]} the cassette's message for each chat it had no recording of */
    misses: string[];
    /**
     * Called with the message of each chat the cassette had no recording of, before the page gets it
     * (the fixture attaches it to the test's report).
     * @type {((message: string) => unknown) | null}
     */
    onMiss: ((message: string) => unknown) | null;
    set consent(choice: import("./driver.js").Consent);
    /**
     * What the visitor does in the approval window `connect` opens: 'allow' (Approve, the default),
     * 'decline' or 'close' (the page gets 403 "The connection was declined").
     */
    get consent(): import("./driver.js").Consent;
    /**
     * Define `window.aiwallet` in every document `target` (a Page or BrowserContext) loads from now
     * on, before the page's scripts run.
     *
     * @param {import('./driver.js').Target} target
     */
    install(target: import("./driver.js").Target): Promise<void>;
    /**
     * Queue the model's next answer: `text` a string or the list of deltas it streams, and tool calls.
     *
     * @param {string | string[]} [text]
     * @param {ReplyOptions} [options]
     */
    reply(text?: string | string[], { toolCalls, finishReason, model }?: ReplyOptions): void;
    /**
     * Answer every chat the queue does not from the cassette `python -m testwallet.cassette serve`
     * serves at `url` (its /v1 base): the chat goes there as the page sent it (`POST <url>/wallet/chat`)
     * and its events come back as they stream, so that Python alone turns chats into a model's
     * requests and its answers into the wallet's events. A chat the cassette has no recording of
     * gets 409 and the cassette's message, and makes `check()` throw NotRecorded.
     *
     * @param {string | null} url null: back to the echo model
     */
    answerFrom(url: string | null): void;
    /**
     * Queue a provider refusal: the page gets `<account> answered <status>: <detail>` with `status`.
     *
     * @param {number} status
     * @param {string} detail
     */
    fail(status: number, detail: string): void;
    /**
     * Approve the origin of `url` beforehand, as if the visitor had.
     *
     * @param {string} url
     */
    approveSite(url: string): void;
    /**
     * The link of `origin`, as `status` answers it.
     *
     * @param {string} origin
     * @returns {WalletLink}
     */
    link(origin: string): WalletLink;
    /**
     * Wait until `predicate(wallet)` is true, such as `(w) => w.chats.length === 2`.
     *
     * @param {(wallet: AiWallet) => unknown} predicate
     * @param {{ timeout?: number }} [options] in milliseconds
     */
    waitUntil(predicate: (wallet: AiWallet) => unknown, { timeout }?: {
        timeout?: number;
    }): Promise<void>;
    /** Throw the first error the test's script caused (a ScriptError), and forget them. */
    check(): void;
    /** End every pending wait of the pages: the test is over. */
    close(): Promise<void>;
    #private;
}
export type WalletLink = {
    connected: false;
} | {
    connected: true;
    providerName: string;
    model?: string;
};
export type WalletEvent = {
    kind: "start";
    providerName: string;
    model: string;
} | {
    kind: "text";
    delta: string;
} | {
    kind: "result";
    result: unknown;
} | {
    kind: "error";
    status: number;
    message: string;
};
/**
 * A tool the model asks for; `arguments` an object or the JSON text of one.
 */
export type ToolCall = {
    name: string;
    arguments?: Record<string, unknown> | string;
    id?: string;
};
export type ReplyOptions = {
    toolCalls?: ToolCall[] | undefined;
    /**
     * default: 'toolCalls' with tool calls, else 'stop'
     */
    finishReason?: string | undefined;
    /**
     * the model as the provider names it (default: the account's)
     */
    model?: string | undefined;
};
export type Scripted = {
    kind: "reply";
    deltas: string[];
    toolCalls: ToolCall[];
    finishReason?: string;
    model?: string;
} | {
    kind: "fail";
    status: number;
    detail: string;
};
/**
 * A request the page sent, and the last event it got.
 */
export type Request = {
    method: string;
    params: unknown;
    /**
     * taken from the frame that sent it
     */
    origin: string;
    answer: WalletEvent | null;
};
/**
 * A chat that reached the model.
 */
export type Chat = {
    messages: any[];
    tools: any[] | undefined;
    origin: string;
    account: string;
    model: string;
    outcome: "answered" | "failed" | "cancelled" | null;
};
