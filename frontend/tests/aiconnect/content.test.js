// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { contentParts, dataUrl, inlineData, textOf, toolErrorText, toolResultText } from '../../aiconnect/content.js';

describe('contentParts', () => {
  it('should turn a string into one text part', () => {
    assert.deepEqual(contentParts('hi'), [{ type: 'text', text: 'hi' }]);
  });

  it('should turn an empty string into no parts', () => {
    assert.deepEqual(contentParts(''), []);
  });

  it('should return a list of parts as it is', () => {
    const parts = [{ type: 'text', text: 'a' }, { type: 'image', url: 'https://x/y.png' }];
    assert.deepEqual(contentParts(/** @type {any} */ (parts)), parts);
  });
});

describe('textOf', () => {
  it('should return a string as it is', () => {
    assert.equal(textOf('plain'), 'plain');
  });

  it('should join the text parts and leave the images out', () => {
    const parts = /** @type {any} */ ([
      { type: 'text', text: 'Which book ' }, { type: 'image', url: 'data:image/png;base64,AAAA' }, { type: 'text', text: 'is this?' },
    ]);
    assert.equal(textOf(parts), 'Which book is this?');
  });
});

describe('inlineData', () => {
  it('should read the media type and data of a base64 data URL', () => {
    assert.deepEqual(inlineData('data:image/png;base64,iVBORw0KGgo='), { mediaType: 'image/png', data: 'iVBORw0KGgo=' });
  });

  it('should skip parameters before base64', () => {
    assert.deepEqual(inlineData('data:image/svg+xml;charset=utf-8;base64,PHN2Zz4='), { mediaType: 'image/svg+xml', data: 'PHN2Zz4=' });
  });

  it('should read a data URL without a media type as text/plain, as RFC 2397 says', () => {
    assert.deepEqual(inlineData('data:;base64,aGk='), { mediaType: 'text/plain', data: 'aGk=' });
    assert.deepEqual(inlineData('data:;charset=utf-8;base64,aGk='), { mediaType: 'text/plain', data: 'aGk=' });
  });

  it('should return null for an https URL', () => {
    assert.equal(inlineData('https://example.com/cover.jpg'), null);
  });

  it('should return null for a data URL that is not base64', () => {
    assert.equal(inlineData('data:text/plain,hello'), null);
  });
});

describe('dataUrl', () => {
  it('should build the data URL that inlineData reads back', () => {
    const inline = { mediaType: 'image/jpeg', data: '/9j/4AAQ' };
    assert.equal(dataUrl(inline), 'data:image/jpeg;base64,/9j/4AAQ');
    assert.deepEqual(inlineData(dataUrl(inline)), inline);
  });
});

describe('toolResultText', () => {
  it('should give the text of a result that did not fail as it is', () => {
    assert.equal(toolResultText({ text: '2 books', isError: false, structuredContent: { books: [] } }), '2 books');
  });

  it('should put Tool error before the text of a failed result', () => {
    assert.equal(toolResultText({ text: 'No mood sad', isError: true }), 'Tool error: No mood sad');
    assert.equal(toolResultText({ text: 'No mood sad', isError: true }), toolErrorText('No mood sad'));
  });
});
