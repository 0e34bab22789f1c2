/**
 * The words that name who answers, shared by `<ai-connect-widget>` and the transcript. Its own
 * module because connect-widget.js defines a custom element on import, which needs a browser.
 */
/**
 * The words for a connected state or a chat's start ("Answered by Claude (claude-haiku-4-5)").
 *
 * @param {{ providerName: string, model?: string }} link
 * @returns {string}
 */
export function answeredBy({ providerName, model }: {
    providerName: string;
    model?: string;
}): string;
