// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { csrfToken } from '../../byoa/csrf.js';
import { fakeDocument } from '../helpers/fake-document.js';

describe('csrfToken', () => {
  it("should read Django's csrftoken cookie among others", () => {
    assert.equal(csrfToken(fakeDocument({ cookie: 'theme=dark; csrftoken=abc123; sessionid=x' })), 'abc123');
  });

  it('should not take a cookie whose name only ends in csrftoken', () => {
    assert.equal(csrfToken(fakeDocument({ cookie: 'xcsrftoken=nope' })), null);
  });

  it('should fall back to the csrfmiddlewaretoken input of a form', () => {
    const doc = fakeDocument({ elements: { 'input[name="csrfmiddlewaretoken"]': { value: 'from-input' } } });
    assert.equal(csrfToken(doc), 'from-input');
  });

  it('should fall back to <meta name="csrf-token">', () => {
    const meta = { getAttribute: (/** @type {string} */ name) => (name === 'content' ? 'from-meta' : null) };
    assert.equal(csrfToken(fakeDocument({ elements: { 'meta[name="csrf-token"]': meta } })), 'from-meta');
  });

  it('should prefer the cookie to the input', () => {
    const doc = fakeDocument({ cookie: 'csrftoken=c', elements: { 'input[name="csrfmiddlewaretoken"]': { value: 'i' } } });
    assert.equal(csrfToken(doc), 'c');
  });

  it('should return null when the page has no token (a site that exempts the view)', () => {
    assert.equal(csrfToken(fakeDocument()), null);
    assert.equal(csrfToken(fakeDocument({ cookie: 'csrftoken=' })), null);
  });

  it('should return null when reading cookies throws (a sandboxed document)', () => {
    assert.equal(csrfToken(fakeDocument({ cookie: () => { throw new DOMException('sandboxed', 'SecurityError'); } })), null);
  });

  it('should return null without a document', () => {
    assert.equal(csrfToken(), null);
  });
});

