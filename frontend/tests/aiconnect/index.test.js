// @ts-check
/**
 * The package surface and its house rules: the exports of specs/aiconnect-core.md, an index
 * that only re-exports, `// @ts-check` and JSDoc in every module, and translators that a page
 * loads only through `client.fetch`.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';

import * as core from '../../aiconnect/index.js';

const ROOT = new URL('../../aiconnect/', import.meta.url);

/** @returns {Promise<string[]>} every module, relative to aiconnect/ */
async function modules() {
  const names = await readdir(ROOT, { recursive: true });
  return names.filter((name) => name.endsWith('.js')).sort();
}

/** @param {string} name */
const source = (name) => readFile(new URL(name, ROOT), 'utf8');

describe('@aiconnect/core surface', () => {
  it('should export exactly the values the spec names', () => {
    assert.deepEqual(Object.keys(core).sort(), [
      'AiConnect', 'McpToolSource', 'WalletRequestError', 'contentParts', 'dataUrl', 'finalAnswer', 'inlineData',
      'runConversation', 'textOf',
    ]);
  });

  it('should keep index.js to re-exports', async () => {
    const code = (await source('index.js')).replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/^\/\/.*$/gm, '');
    for (const line of code.split('\n').filter((l) => l.trim())) {
      assert.match(line, /^export \{[^}]+\} from '\.\/[\w-]+\.js';$/, line);
    }
  });

  it('should open every module with // @ts-check', async () => {
    for (const name of await modules()) {
      assert.ok((await source(name)).startsWith('// @ts-check\n'), name);
    }
  });

  it('should document every exported function, class and constant with JSDoc', async () => {
    for (const name of await modules()) {
      const lines = (await source(name)).split('\n');
      lines.forEach((line, index) => {
        if (!/^export (async )?(function|class|const)/.test(line)) return;
        assert.match(lines[index - 1] ?? '', /\*\/\s*$/, `${name}:${index + 1} ${line}`);
      });
    }
  });

  it('should not import the translators statically from what a page loads', async () => {
    /** @type {Set<string>} */
    const seen = new Set();
    /** @param {string} name */
    const visit = async (name) => {
      if (seen.has(name)) return;
      seen.add(name);
      const code = await source(name);
      for (const [, target] of code.matchAll(/^(?:import|export) [^;]*? from '(\.[^']+)';/gm)) {
        await visit(new URL(target, new URL(name, ROOT)).href.slice(ROOT.href.length));
      }
    };
    await visit('index.js');
    assert.deepEqual([...seen].filter((name) => name.startsWith('fetch/')), []);
    assert.match(await source('client.js'), /await import\('\.\/fetch\/walletfetch\.js'\)/);
  });

  it('should build no HTML from text', async () => {
    for (const name of await modules()) {
      assert.doesNotMatch(await source(name), /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, name);
    }
  });
});
