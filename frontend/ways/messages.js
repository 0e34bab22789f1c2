// @ts-check
/**
 * What the ways share about a request: the choices told as an instruction to models that have no
 * `choices` parameter, a model's answer read as one of the choices, and a promise that an
 * `AbortSignal` can end even when the way underneath cannot be stopped.
 */

/** @typedef {import('./types.js').TextMessage} TextMessage */

/**
 * Return `messages` with an instruction to answer with one of `choices` added to the system
 * prompt (a new system message when there is none). Without choices, `messages` as they are.
 *
 * @param {TextMessage[]} messages
 * @param {string[] | undefined} choices
 * @returns {TextMessage[]}
 */
export function withChoices(messages, choices) {
  if (!choices || choices.length === 0) return messages;
  const rule = `Answer with exactly one of these words and nothing else: ${choices.join(', ')}.`;
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${rule}` }, ...rest];
  return [{ role: 'system', content: rule }, ...messages];
}

/**
 * Return the choice a model's answer names, or `null` when it names none: case, surrounding
 * spaces, quotes and a final full stop are forgiven; anything else is not a choice.
 *
 * @param {string} text
 * @param {string[]} choices
 * @returns {string | null}
 */
export function matchChoice(text, choices) {
  if (typeof text !== 'string' || text.length > 200) return null;
  const plain = text.trim().replace(/^["'“‘«]+|["'”’».!]+$/gu, '').trim().toLowerCase();
  return choices.find((choice) => choice.toLowerCase() === plain) ?? null;
}

/**
 * Settle with `promise`, or reject with the signal's reason as soon as it aborts (the work
 * underneath may go on; its late result is dropped).
 *
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<T>}
 */
export function abortable(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error) => { signal.removeEventListener('abort', onAbort); reject(error); },
    );
  });
}
