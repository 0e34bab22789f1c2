/** @typedef {import('../aiconnect/types.js').ToolCall} ToolCall */
/** @typedef {'answered' | 'stopped' | 'failed'} TurnOutcome */
/** @typedef {(element: HTMLElement, text: string) => void} Format */
/** @typedef {(start: { providerName: string, model?: string }) => string} Who */
/**
 * How a turn that ended with `error` ended: `answered` without one, `stopped` when the visitor
 * stopped it (an `AbortError` from the page's signal, or the wallet's 499 "stopped in AI
 * Wallet"), `failed` for any other error. Errors are recognised by name and status, not
 * instanceof, as aiconnect-core.md says of `WalletRequestError`.
 *
 * @param {unknown} [error]
 * @returns {TurnOutcome}
 */
export function outcomeOf(error?: unknown): TurnOutcome;
/** A transcript of question-and-answer turns, rendered into a container element. */
export class Transcript {
    /**
     * @param {HTMLElement} container Where the turns go, one after the other.
     * @param {{ status?: HTMLElement | null, format?: Format | null, who?: Who }} [options] `status`:
     *   an element (say `role="status"`) that shows what the open turn's latest tool is doing, and is
     *   emptied when the turn ends. `format`: draws an answer's whole text so far into its element, as
     *   reply-text.js's `drawReply` does (paragraphs, lists); without it the text is shown as it is.
     *   `who`: the words that name who answers a turn, from its chat's start (by default
     *   `answeredBy`'s, "Answered by Claude (claude-haiku-4-5)"); a page that knows more (a test
     *   wallet's scripted stand-in, not an AI) says so.
     */
    constructor(container: HTMLElement, { status, format, who }?: {
        status?: HTMLElement | null;
        format?: Format | null;
        who?: Who;
    });
    /**
     * Add the visitor's words and an empty answer below them; return the answer's turn.
     *
     * @param {string} text
     * @returns {TranscriptTurn}
     */
    ask(text: string): TranscriptTurn;
    #private;
}
/** One answer in a transcript: who answers, its tools, its streamed text, how it ended. */
export class TranscriptTurn {
    /**
     * Made by `Transcript.ask`.
     *
     * @param {Document} document
     * @param {HTMLElement | null} status
     * @param {Format | null} [format]
     * @param {Who} [who] the words that name who answers
     */
    constructor(document: Document, status: HTMLElement | null, format?: Format | null, who?: Who);
    /** The turn's element, `div.turn.assistant`. */
    element: HTMLDivElement;
    /**
     * Add a piece of the answer's text, as text.
     *
     * @param {string} delta
     */
    append(delta: string): void;
    /**
     * Say who answers (a chat's `onStart`), once a turn: a later start (the same turn's next chat,
     * after a tool) replaces the words, never adds to them.
     *
     * @param {{ providerName: string, model?: string }} start
     */
    showWho(start: {
        providerName: string;
        model?: string;
    }): void;
    /** How the turn ended, or `null` while it runs. */
    get outcome(): TurnOutcome | null;
    /**
     * Show a tool call as a running step, in the turn and in the status element.
     *
     * @param {ToolCall} call
     * @param {string} [label] The words for it while it runs ("Looking for calm books…"); by
     *   default its name.
     * @param {string} [done] The step's words once it is done ("Searched: calm books"); by default
     *   `label`.
     */
    toolStarted(call: ToolCall, label?: string, done?: string): void;
    /**
     * Show a tool call as done, or as failed when its result says so (`ToolResult.isError`).
     * A call this turn did not start is shown as started and finished at once.
     *
     * @param {ToolCall} call
     * @param {{ isError: boolean }} result
     */
    toolFinished(call: ToolCall, { isError }: {
        isError: boolean;
    }): void;
    /**
     * Place an element right after this turn (and after what was attached before), such as the
     * cards a tool's structured result names.
     *
     * @param {Element} element
     */
    attach(element: Element): void;
    /**
     * End the turn: answered without an error, else stopped or failed (see `outcomeOf`). Mark the
     * turn with that class, and any tool still running as failed; empty the status element.
     *
     * @param {unknown} [error]
     * @returns {TurnOutcome}
     */
    finish(error?: unknown): TurnOutcome;
    #private;
}
export type ToolCall = import("../aiconnect/types.js").ToolCall;
export type TurnOutcome = "answered" | "stopped" | "failed";
export type Format = (element: HTMLElement, text: string) => void;
export type Who = (start: {
    providerName: string;
    model?: string;
}) => string;
