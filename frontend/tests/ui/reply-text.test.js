// @ts-check
/**
 * A model's reply drawn as paragraphs and lists, on the tiny DOM double that has no HTML parser
 * (setting innerHTML throws): the words stay text, whatever they hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { answeredBy } from '../../ui/answered-by.js';
import { drawReply } from '../../ui/reply-text.js';
import { Transcript } from '../../ui/transcript.js';
import { asHtmlElement, tinyDom } from '../helpers/tiny-dom.js';

/** @param {any} element @returns {any[]} [tag, text] of each child, a list's items nested */
const shape = (element) => element.children.map((/** @type {any} */ child) => (
  child.tagName === 'UL' || child.tagName === 'OL'
    ? [child.tagName, child.children.map((/** @type {any} */ item) => item.textContent)]
    : [child.tagName, child.textContent]));

const bookLinks = (/** @type {string} */ id) => ({ href: `/books/${id}/`, text: 'details' });

describe('drawReply', () => {
  it('should draw "- " lines as one list and the other lines as paragraphs', () => {
    const { container } = tinyDom();
    drawReply(asHtmlElement(container), 'Two calm books:\n- Dune\n- Emma\n\nEnjoy.');
    assert.deepEqual(shape(container), [['P', 'Two calm books:'], ['UL', ['Dune', 'Emma']], ['P', 'Enjoy.']]);
  });

  it('should draw numbered lines as an ordered list and **bold** as strong', () => {
    const { container } = tinyDom();
    drawReply(asHtmlElement(container), '1. **Dune** by Frank Herbert\n2. Emma');
    assert.deepEqual(shape(container), [['OL', ['Dune by Frank Herbert', 'Emma']]]);
    assert.equal(container.findAll((e) => e.tagName === 'STRONG')[0].textContent, 'Dune');
  });

  it('should link the references the page knows and leave the others as they are', () => {
    const { container } = tinyDom();
    drawReply(asHtmlElement(container), '- Dune [dune] and [not known]', {
      linkFor: (id) => (id === 'dune' ? bookLinks(id) : null),
    });
    const [link] = container.findAll((e) => e.tagName === 'A');
    assert.equal(link.getAttribute('href'), '/books/dune/');
    assert.equal(container.textContent, 'Dune details and [not known]');
  });

  it('should keep markup in a reply as text', () => {
    const { container } = tinyDom();
    drawReply(asHtmlElement(container), '- <img src=x onerror=alert(1)> **<b>x</b>**');
    assert.equal(container.textContent, '<img src=x onerror=alert(1)> <b>x</b>');
    assert.deepEqual(container.findAll((e) => e.tagName === 'IMG' || e.tagName === 'B'), []);
  });

  it('should form the list as the reply streams in a transcript', () => {
    const { container } = tinyDom();
    const transcript = new Transcript(asHtmlElement(container), { format: (element, text) => drawReply(element, text) });
    const turn = transcript.ask('Calm books?');
    for (const piece of ['It has:', '\n- Du', 'ne\n- Em', 'ma']) turn.append(piece);
    const [text] = container.byClass('turn assistant')[0].byClass('text formatted');
    assert.deepEqual(shape(text), [['P', 'It has:'], ['UL', ['Dune', 'Emma']]]);
  });
});

describe('answeredBy', () => {
  it('should name the model once when the provider\'s name already says it', () => {
    assert.equal(answeredBy({ providerName: 'Test wallet (scripted)', model: 'scripted' }), 'Answered by Test wallet (scripted)');
    assert.equal(answeredBy({ providerName: 'Claude', model: 'claude-haiku-4-5' }), 'Answered by Claude (claude-haiku-4-5)');
  });
});
