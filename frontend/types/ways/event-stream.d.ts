/**
 * Read a server-sent event stream from a `fetch` response body: EventSource cannot POST, cannot
 * send a CSRF header and cannot be stopped by an AbortSignal, so pages that ask their server to
 * stream a model's answer (the BYOA link way) read the body themselves. Only `event` and `data`
 * fields are read (the WHATWG "server-sent events" rules for those two: a comment line starts
 * with ":", one optional space after the colon, several data lines joined with "\n").
 */
/** @typedef {{ event: string, data: string }} ServerEvent */
/**
 * Yield each event of `body` as it arrives; stops when the body ends or its reader is cancelled.
 *
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<ServerEvent>}
 */
export function readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent>;
export type ServerEvent = {
    event: string;
    data: string;
};
