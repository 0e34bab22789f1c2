/**
 * The ways in, named as the chooser offers them (chooser.js, `WAY_ORDER`).
 */
export type WayId = "aiwallet" | "extension" | "link" | "builtin" | "own";
/**
 * - `absent`: not in this browser; never offered.
 * - `offered`: present, and needs the visitor's click to start (consent, a link, a download).
 * - `connecting`: started from a click; waiting for the visitor, the wallet or a download.
 * - `ready`: can generate text now.
 */
export type WayStatus = "absent" | "offered" | "connecting" | "ready";
/**
 * One chat message of plain text: what `text.generate` takes (specs/byoa-sites.md).
 */
export type TextMessage = {
    role: "system" | "user" | "assistant";
    content: string;
};
/**
 * What a page asks of whichever way answers.
 */
export type GenerateRequest = {
    /**
     * The conversation, system prompt first.
     */
    messages: TextMessage[];
    /**
     * The answers allowed (`params.choices` of text.generate); ways
     * without such a parameter get them as an instruction. The page still checks the answer.
     */
    choices?: string[] | undefined;
    /**
     * The longest answer, in tokens.
     */
    maxTokens?: number | undefined;
    /**
     * A granted model code (`m1`, `m2`...), for ways with several models;
     * absent: the way's first. Ways with one model ignore it.
     */
    model?: string | undefined;
    /**
     * Aborting it stops the generation; the promise rejects with its reason.
     */
    signal?: AbortSignal | undefined;
    /**
     * Each piece of text as it streams, where the way streams.
     */
    onText?: ((delta: string) => void) | undefined;
    /**
     * The way must wait this long before it may call (the
     * manifest's `maxCallsPerMinute`); it then calls by itself.
     */
    onWait?: ((ms: number) => void) | undefined;
    /**
     * For ways where the site's server calls the model (the BYOA link):
     * what that server needs to build the prompt itself. Ways in the page ignore it.
     */
    serverBody?: object | undefined;
};
/**
 * An answer. `text` is user input: render it as text, never as HTML.
 */
export type Generated = {
    text: string;
    /**
     * The model code or name that answered, when the way says.
     */
    model?: string | undefined;
    /**
     * Anything more the site's server answered (the BYOA link way).
     */
    data?: unknown;
};
export type ConnectOptions = {
    signal?: AbortSignal | undefined;
    /**
     * A model download's progress, 0 to 1.
     */
    onProgress?: ((fraction: number) => void) | undefined;
};
/**
 * One way in. Every method resolves; a "no" is `false` or `null`, never an error page.
 */
export type Way = {
    id: WayId;
    /**
     * What the page calls it in the visitor's words ("AI Wallet", "Your AI in this browser"...); no protocol's name.
     */
    label: string;
    /**
     * Whether `onText` receives the answer as it is written.
     */
    streams: boolean;
    status: WayStatus;
    /**
     * Who answers or what it waits for, in plain words ('' when nothing to say).
     */
    detail: string;
    /**
     * The model codes granted (`m1`, `m2`...); empty for a way with one model.
     */
    models: string[];
    /**
     * Find out whether the way is
     * present; call `changed` whenever status, detail or models change later on their own.
     */
    detect: (changed: () => void) => Promise<WayStatus>;
    /**
     * Start the way. Call it from a
     * click handler: wallets answer only after one.
     */
    connect: (options?: ConnectOptions) => Promise<boolean>;
    /**
     * `null` is the
     * way's "no" (declined, failed, not connected); an abort rejects with the signal's reason.
     */
    generate: (request: GenerateRequest) => Promise<Generated | null>;
};
