// @ts-check
/**
 * A model's reply drawn as it reads: paragraphs, "- " and "1. " lists, **bold**, and the page's
 * own references in square brackets (a bookshop's "[a-brief-history-of-time]") as links, when the
 * page knows them. Built from elements and text nodes only, never from HTML: the words are a
 * model's. Drawn again from the whole text on each streamed piece, so a list forms as it streams.
 *
 *   import { drawReply } from '/static/ui/reply-text.js';
 *   drawReply(element, 'Two books:\n- **Dune** [dune]\n- Emma', { linkFor: (id) => ... });
 */

/**
 * What a bracketed reference links to, or null to leave it as the text it is.
 *
 * @typedef {(id: string) => { href: string, text: string } | null} LinkFor
 */

const LIST_ITEM = /^\s*(?:([-*•])|(\d{1,3})[.)])\s+(.*)$/u;
// A reference is "[id]" alone: not markdown's "[text](url)" or "![image](url)", which stay text.
const INLINE = /\*\*([^*\n]+)\*\*|(?<![!\]])\[([A-Za-z0-9][\w-]{0,119})\](?![(\[])/gu;

/**
 * Replace what `target` shows with `text`, drawn as paragraphs and lists.
 *
 * @param {HTMLElement} target
 * @param {string} text
 * @param {{ linkFor?: LinkFor }} [options]
 */
export function drawReply(target, text, { linkFor } = {}) {
  const document = target.ownerDocument;
  /** @type {HTMLElement[]} */
  const blocks = [];
  /** @type {HTMLElement | null} */
  let list = null;
  /** @type {HTMLElement | null} */
  let paragraph = null;
  for (const line of String(text).split('\n')) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      const tag = item[1] ? 'UL' : 'OL';
      if (!list || list.tagName !== tag) {
        list = document.createElement(tag.toLowerCase());
        blocks.push(list);
      }
      paragraph = null;
      const entry = document.createElement('li');
      inline(entry, item[3], linkFor);
      list.append(entry);
      continue;
    }
    list = null;
    if (line.trim() === '') {
      paragraph = null;
      continue;
    }
    if (paragraph) {
      paragraph.append(document.createElement('br'));
    } else {
      paragraph = document.createElement('p');
      blocks.push(paragraph);
    }
    inline(paragraph, line, linkFor);
  }
  target.textContent = '';
  target.append(...blocks);
}

/**
 * Append `text` to `parent`, its **bold** parts as `<strong>` and its known references as links.
 *
 * @param {HTMLElement} parent
 * @param {string} text
 * @param {LinkFor | undefined} linkFor
 */
function inline(parent, text, linkFor) {
  const document = parent.ownerDocument;
  let at = 0;
  for (const found of text.matchAll(INLINE)) {
    const [whole, bold, id] = found;
    const index = found.index ?? 0;
    /** @type {HTMLElement | string} */
    let node = whole;
    if (bold !== undefined) {
      node = document.createElement('strong');
      node.textContent = bold;
    } else {
      const link = linkFor?.(id) ?? null;
      if (link) {
        node = document.createElement('a');
        node.setAttribute('href', link.href);
        node.textContent = link.text;
      }
    }
    if (index > at) parent.append(text.slice(at, index));
    parent.append(node);
    at = index + whole.length;
  }
  if (at < text.length) parent.append(text.slice(at));
}
