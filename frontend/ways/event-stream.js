// @ts-check
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
export async function* readEventStream(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let endedWithCr = false;
  let event = '';
  /** @type {string[]} */
  let data = [];
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      let piece = decoder.decode(value, { stream: true });
      // A "\r\n" split between two chunks is one line end, not two.
      if (endedWithCr && piece.startsWith('\n')) piece = piece.slice(1);
      endedWithCr = piece.endsWith('\r');
      buffer += piece;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const field = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (name === 'event') event = field;
        else if (name === 'data') data.push(field);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
