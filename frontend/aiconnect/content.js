// @ts-check
/**
 * Chat content helpers (specs/aiconnect-core.md, "Chat content helpers"): content is a string,
 * or parts when a message carries images; these read both forms the same way.
 */

/** @typedef {import('./types.js').ContentPart} ContentPart */
/** @typedef {import('./types.js').InlineData} InlineData */
/** @typedef {import('./types.js').ToolResult} ToolResult */

// data:[<media type>][;<parameter>...];base64,<data>
const BASE64_DATA_URL = /^data:([^;,]*)(?:;[^;,]*)*;base64,(.*)$/is;
// What a data URL without a media type holds (RFC 2397, section 2).
const DEFAULT_MEDIA_TYPE = 'text/plain';

/**
 * Return the text of a failed tool's result, as the model reads it: `Tool error: ` and the reason
 * (aiconnect-core.md, "McpToolSource" and "runConversation").
 *
 * @param {string} reason
 * @returns {string}
 */
export function toolErrorText(reason) {
  return `Tool error: ${reason}`;
}

/**
 * Return what the model reads of a tool's result: its text, or `Tool error: ` and the text when
 * the tool failed. The structured content is for the page only.
 *
 * @param {ToolResult} result
 * @returns {string}
 */
export function toolResultText({ text, isError }) {
  return isError ? toolErrorText(text) : text;
}

/**
 * Return the content as parts: a string becomes one text part, an empty string none.
 *
 * @param {string | ContentPart[]} content
 * @returns {ContentPart[]}
 */
export function contentParts(content) {
  if (typeof content !== 'string') return content;
  return content === '' ? [] : [{ type: 'text', text: content }];
}

/**
 * Return the text of the content: its text parts joined as they are, without the images.
 *
 * @param {string | ContentPart[]} content
 * @returns {string}
 */
export function textOf(content) {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/**
 * Return the media type and base64 data of a base64 `data:` URL, or `null` for any other URL.
 *
 * @param {string} url
 * @returns {InlineData | null}
 */
export function inlineData(url) {
  const match = BASE64_DATA_URL.exec(url);
  return match ? { mediaType: match[1] || DEFAULT_MEDIA_TYPE, data: match[2] } : null;
}

/**
 * Return the base64 `data:` URL of inline data.
 *
 * @param {InlineData} inline
 * @returns {string}
 */
export function dataUrl({ mediaType, data }) {
  return `data:${mediaType};base64,${data}`;
}
