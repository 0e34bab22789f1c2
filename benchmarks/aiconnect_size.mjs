// @ts-check
/**
 * Print the gzipped size of what the bookshop page loads of @aiconnect/core: the modules that
 * `frontend/aiconnect/index.js` reaches through static imports (AiConnect, runConversation,
 * McpToolSource, the content helpers, WalletRequestError). The WalletFetch translators are
 * reached only through `import()` when a page calls `client.fetch`, so they are not counted;
 * their size is printed apart. Target: 8 KB or less.
 *
 * Run it: node benchmarks/aiconnect_size.mjs
 *
 * Each module is a static file the browser fetches on its own, so the figure that counts is
 * the sum of each file gzipped alone (level 9, as a server's static gzip would); the size of
 * all of them gzipped as one stream is printed too, as a lower bound.
 */

import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const ROOT = new URL('../frontend/aiconnect/', import.meta.url);
const TARGET_BYTES = 8 * 1024;

/**
 * Return the modules reachable from `entry` through static imports, in visit order.
 *
 * @param {string} entry A path relative to ROOT.
 * @returns {Promise<Map<string, string>>} path -> source
 */
async function staticGraph(entry) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  /** @param {string} name */
  const visit = async (name) => {
    if (seen.has(name)) return;
    const code = await readFile(new URL(name, ROOT), 'utf8');
    seen.set(name, code);
    for (const [, target] of code.matchAll(/^(?:import|export) [^;]*? from '(\.[^']+)';/gm)) {
      await visit(new URL(target, new URL(name, ROOT)).href.slice(ROOT.href.length));
    }
  };
  await visit(entry);
  return seen;
}

/** @param {string} text */
const gzipped = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;
/** @param {number} bytes */
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

const page = await staticGraph('index.js');
let perFile = 0;
console.log('module'.padEnd(28), 'raw'.padStart(8), 'gzip'.padStart(8));
for (const [name, code] of page) {
  const size = gzipped(code);
  perFile += size;
  console.log(name.padEnd(28), String(code.length).padStart(8), String(size).padStart(8));
}
const together = gzipped([...page.values()].join('\n'));

const lazy = (await readdir(new URL('fetch/', ROOT))).filter((name) => name.endsWith('.js'));
let lazyTotal = 0;
for (const name of lazy) lazyTotal += gzipped(await readFile(new URL(`fetch/${name}`, ROOT), 'utf8'));

console.log('');
console.log(`bookshop page, gzipped per file: ${perFile} bytes (${kb(perFile)}), target <= ${kb(TARGET_BYTES)}: ${perFile <= TARGET_BYTES ? 'met' : 'MISSED'}`);
console.log(`bookshop page, gzipped as one stream: ${together} bytes (${kb(together)})`);
console.log(`not loaded by the page: ${lazy.length} WalletFetch modules, ${lazyTotal} bytes gzipped per file (${kb(lazyTotal)})`);
