/**
 * Replace what `target` shows with `text`, drawn as paragraphs and lists.
 *
 * @param {HTMLElement} target
 * @param {string} text
 * @param {{ linkFor?: LinkFor }} [options]
 */
export function drawReply(target: HTMLElement, text: string, { linkFor }?: {
    linkFor?: LinkFor;
}): void;
/**
 * What a bracketed reference links to, or null to leave it as the text it is.
 */
export type LinkFor = (id: string) => {
    href: string;
    text: string;
} | null;
