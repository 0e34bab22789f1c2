// @ts-check
/**
 * The transcript element, on a tiny DOM double that has no HTML parser (setting innerHTML throws).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Transcript, outcomeOf } from '../../ui/transcript.js';
import { asHtmlElement, tinyDom } from '../helpers/tiny-dom.js';

/** A transcript in a fresh double, with its container and status element. */
function setUp() {
  const { document, container } = tinyDom();
  const status = document.createElement('p');
  const transcript = new Transcript(asHtmlElement(container), { status: asHtmlElement(status) });
  return { document, container, status, transcript };
}

/** @param {string} id @param {string} name */
const call = (id, name) => ({ id, name, arguments: {} });

describe('Transcript', () => {
  it('should add the question and an empty answer for each turn, in order', () => {
    const { container, transcript } = setUp();
    transcript.ask('A calm book?');
    transcript.ask('And another?');
    assert.deepEqual(container.children.map((c) => [c.className, c.byClass('text')[0]?.textContent ?? c.textContent]),
      [['turn user', 'A calm book?'], ['turn assistant', ''], ['turn user', 'And another?'], ['turn assistant', '']]);
  });

  it('should stream the answer into the turn\'s text, as text', () => {
    const { container, transcript } = setUp();
    const turn = transcript.ask('Hi');
    const { append } = turn;
    append('Once ');
    append('<img src=x onerror=alert(1)>');
    const [text] = container.byClass('turn assistant')[0].byClass('text');
    assert.equal(text.textContent, 'Once <img src=x onerror=alert(1)>');
    assert.deepEqual(container.findAll((e) => e.tagName === 'IMG'), []);
  });

  it('should keep the visitor\'s markup as text too', () => {
    const { container, transcript } = setUp();
    transcript.ask('<script>alert(2)</script>');
    assert.equal(container.children[0].textContent, '<script>alert(2)</script>');
    assert.equal(container.children[0].children.length, 0);
  });

  it('should name who answers', () => {
    const { container, transcript } = setUp();
    transcript.ask('Hi').showWho({ providerName: 'Claude', model: 'claude-haiku-4-5' });
    assert.equal(container.byClass('who')[0].textContent, 'Answered by Claude (claude-haiku-4-5)');
  });

  it('should name who answers in the page\'s words, once a turn however many chats it takes', () => {
    const { container, status } = setUp();
    const transcript = new Transcript(asHtmlElement(container), { status: asHtmlElement(status), who: ({ model }) => `Your model: ${model}` });
    const turn = transcript.ask('Hi');
    turn.showWho({ providerName: 'Claude', model: 'claude-haiku-4-5' });
    turn.showWho({ providerName: 'Claude', model: 'claude-haiku-4-5' }); // the chat after a tool call
    assert.equal(container.byClass('who').length, 1);
    assert.equal(container.byClass('who')[0].textContent, 'Your model: claude-haiku-4-5');
  });

  it('should show each tool as running, then done, and say the latest in the status', () => {
    const { container, status, transcript } = setUp();
    const turn = transcript.ask('Calm?');
    assert.equal(container.byClass('tools')[0].hidden, true, 'no tool list before a tool runs');
    turn.toolStarted(call('a', 'search_books'), 'Looking for calm books…');
    const [item] = container.byClass('tool');
    assert.deepEqual([item.dataset.state, item.textContent, status.textContent], ['running', 'Looking for calm books…', 'Looking for calm books…']);
    assert.equal(container.byClass('tools')[0].hidden, false);
    turn.toolFinished(call('a', 'search_books'), { isError: false });
    assert.deepEqual([item.dataset.state, item.textContent, status.textContent], ['done', 'Looking for calm books…', 'Looking for calm books…']);
  });

  it('should say a step in its own done words once it is done, the steps in order', () => {
    const { container, status, transcript } = setUp();
    const turn = transcript.ask('Calm?');
    turn.toolStarted(call('a', 'search_books'), 'Looking for calm books…', 'Searched: calm books');
    turn.toolStarted(call('b', 'get_book'), 'Reading about a book…', 'Read about a book');
    turn.toolFinished(call('a', 'search_books'), { isError: false });
    assert.equal(container.byClass('tools')[0].tagName, 'OL');
    assert.deepEqual(container.byClass('tool').map((i) => [i.dataset.state, i.textContent]),
      [['done', 'Searched: calm books'], ['running', 'Reading about a book…']]);
    assert.equal(status.textContent, 'Reading about a book…');
  });

  it('should show a typing indicator, with words for screen readers, until the first words or the end', () => {
    const { container, transcript } = setUp();
    const first = transcript.ask('Hi');
    const second = transcript.ask('Again');
    const typing = () => container.byClass('typing').map((t) => t.textContent);
    assert.deepEqual(typing(), ['Writing the answer…', 'Writing the answer…']);
    first.append('');
    assert.equal(typing().length, 2, 'an empty piece is no words yet');
    first.append('Hello');
    second.finish(new Error('the wallet failed'));
    assert.deepEqual(typing(), []);
    assert.equal(container.byClass('typing__dots').length, 0);
  });

  it('should show a failed tool as failed', () => {
    const { container, status, transcript } = setUp();
    const turn = transcript.ask('Sad?');
    turn.toolStarted(call('a', 'search_books'), 'Looking for sad books…');
    turn.toolFinished(call('a', 'search_books'), { isError: true });
    const [item] = container.byClass('tool');
    assert.deepEqual([item.dataset.state, item.textContent], ['failed', 'Looking for sad books… (failed)']);
    assert.equal(status.textContent, 'Looking for sad books… (failed)');
  });

  it('should name a tool by its name when the page gives no words', () => {
    const { container, transcript } = setUp();
    transcript.ask('?').toolStarted(call('a', 'list_moods'));
    assert.equal(container.byClass('tool')[0].textContent, 'Using the list_moods tool…');
  });

  it('should show a result for a call it did not see start as started and finished', () => {
    const { container, transcript } = setUp();
    transcript.ask('?').toolFinished(call('b', 'get_book'), { isError: false });
    assert.deepEqual(container.byClass('tool').map((i) => [i.dataset.state, i.textContent]), [['done', 'Using the get_book tool…']]);
  });

  it('should attach elements after the turn, each after the one before', () => {
    const { document, container, transcript } = setUp();
    const turn = transcript.ask('?');
    const first = document.createElement('ul');
    const second = document.createElement('ul');
    turn.attach(asHtmlElement(first));
    turn.attach(asHtmlElement(second));
    transcript.ask('next');
    assert.deepEqual(container.children.map((c) => c.className || c.tagName),
      ['turn user', 'turn assistant', 'UL', 'UL', 'turn user', 'turn assistant']);
    assert.equal(container.children[2], first);
  });

  it('should end an answered turn without a mark and empty the status', () => {
    const { container, status, transcript } = setUp();
    const turn = transcript.ask('?');
    turn.toolStarted(call('a', 'search_books'), 'Looking…');
    turn.toolFinished(call('a', 'search_books'), { isError: false });
    assert.equal(turn.finish(), 'answered');
    assert.equal(turn.outcome, 'answered');
    assert.equal(container.byClass('turn assistant')[0].className, 'turn assistant');
    assert.equal(status.textContent, '');
  });

  it('should mark a turn the visitor stopped as stopped, keeping its text', () => {
    const { container, transcript } = setUp();
    const turn = transcript.ask('A story');
    turn.append('Once ');
    assert.equal(turn.finish(new DOMException('Stopped on the page', 'AbortError')), 'stopped');
    assert.equal(container.byClass('turn assistant')[0].className, 'turn assistant stopped');
    assert.equal(container.byClass('text')[0].textContent, 'Once ');
  });

  it('should mark a turn that failed as failed, and a tool still running with it', () => {
    const { container, transcript } = setUp();
    const turn = transcript.ask('?');
    turn.toolStarted(call('a', 'search_books'), 'Looking…');
    assert.equal(turn.finish(Object.assign(new Error('Overloaded'), { name: 'WalletRequestError', status: 503 })), 'failed');
    assert.equal(container.byClass('turn assistant')[0].className, 'turn assistant failed');
    assert.equal(container.byClass('tool')[0].dataset.state, 'failed');
  });

  it('should work without a status element', () => {
    const { container } = tinyDom();
    const turn = new Transcript(asHtmlElement(container)).ask('?');
    turn.toolStarted(call('a', 'x'));
    turn.toolFinished(call('a', 'x'), { isError: true });
    assert.equal(turn.finish(), 'answered');
    assert.equal(container.byClass('tool')[0].dataset.state, 'failed');
  });
});

describe('outcomeOf', () => {
  it('should call no error answered', () => {
    assert.equal(outcomeOf(), 'answered');
    assert.equal(outcomeOf(null), 'answered');
  });

  it('should call the page\'s abort and the wallet\'s 499 stopped', () => {
    assert.equal(outcomeOf(new DOMException('Stopped', 'AbortError')), 'stopped');
    assert.equal(outcomeOf({ name: 'WalletRequestError', status: 499, message: 'The answer was stopped from AI Wallet' }), 'stopped');
  });

  it('should call any other error failed', () => {
    assert.equal(outcomeOf({ name: 'WalletRequestError', status: 503 }), 'failed');
    assert.equal(outcomeOf(new TypeError('Failed to fetch')), 'failed');
    assert.equal(outcomeOf('a string'), 'failed');
  });
});
