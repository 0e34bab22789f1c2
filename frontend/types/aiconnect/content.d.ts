/**
 * Return the text of a failed tool's result, as the model reads it: `Tool error: ` and the reason
 * (aiconnect-core.md, "McpToolSource" and "runConversation").
 *
 * @param {string} reason
 * @returns {string}
 */
export function toolErrorText(reason: string): string;
/**
 * Return what the model reads of a tool's result: its text, or `Tool error: ` and the text when
 * the tool failed. The structured content is for the page only.
 *
 * @param {ToolResult} result
 * @returns {string}
 */
export function toolResultText({ text, isError }: ToolResult): string;
/**
 * Return the content as parts: a string becomes one text part, an empty string none.
 *
 * @param {string | ContentPart[]} content
 * @returns {ContentPart[]}
 */
export function contentParts(content: string | ContentPart[]): ContentPart[];
/**
 * Return the text of the content: its text parts joined as they are, without the images.
 *
 * @param {string | ContentPart[]} content
 * @returns {string}
 */
export function textOf(content: string | ContentPart[]): string;
/**
 * Return the media type and base64 data of a base64 `data:` URL, or `null` for any other URL.
 *
 * @param {string} url
 * @returns {InlineData | null}
 */
export function inlineData(url: string): InlineData | null;
/**
 * Return the base64 `data:` URL of inline data.
 *
 * @param {InlineData} inline
 * @returns {string}
 */
export function dataUrl({ mediaType, data }: InlineData): string;
export type ContentPart = import("./types.js").ContentPart;
export type InlineData = import("./types.js").InlineData;
export type ToolResult = import("./types.js").ToolResult;
