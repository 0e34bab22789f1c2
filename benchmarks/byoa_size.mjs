// @ts-check
/**
 * Print the gzipped size of what the voice geography page loads of the BYOA page library:
 * `frontend/byoa/index.js`, every module it reaches through static imports, and the
 * AudioWorklet module that recorder.js loads by URL (`new URL('./…', import.meta.url)`).
 * types.js is only named in JSDoc, so a browser never fetches it and it is not counted.
 * Target: 5 KB or less.
 *
 * Run it: node benchmarks/byoa_size.mjs
 *
 * Each module is a static file fetched on its own, so the figure that counts is the sum of
 * each file gzipped alone (level 9, as a server's static gzip would); one stream of all of
 * them is printed too, as a lower bound.
 */

import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const ROOT = new URL('../frontend/byoa/', import.meta.url);
const TARGET_BYTES = 5 * 1024;
// What a browser fetches because of a module: its static imports and re-exports, and the
// worklets it loads by a URL relative to itself.
const FETCHED = [
  /^(?:import|export) [^;]*? from '(\.[^']+)';/gm,
  /new URL\('(\.[^']+)', import\.meta\.url\)/g,
];

/**
 * Return every module the page fetches starting from `entry`, in visit order.
 *
 * @param {string} entry A path relative to ROOT.
 * @returns {Promise<Map<string, string>>} path -> source
 */
async function fetchedFrom(entry) {
  /** @type {Map<string, string>} */
  const files = new Map();
  /** @param {string} name */
  const visit = async (name) => {
    if (files.has(name)) return;
    const source = await readFile(new URL(name, ROOT), 'utf8');
    files.set(name, source);
    for (const pattern of FETCHED) {
      for (const [, target] of source.matchAll(pattern)) {
        await visit(new URL(target, new URL(name, ROOT)).href.slice(ROOT.href.length));
      }
    }
  };
  await visit(entry);
  return files;
}

/** @param {string} text */
const gzipped = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;
/** @param {number} bytes */
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

const files = await fetchedFrom('index.js');
let total = 0;
console.log('module'.padEnd(24), 'raw'.padStart(8), 'gzip'.padStart(8));
for (const [name, source] of files) {
  const size = gzipped(source);
  total += size;
  console.log(name.padEnd(24), String(Buffer.byteLength(source)).padStart(8), String(size).padStart(8));
}
const together = gzipped([...files.values()].join('\n'));
console.log('');
console.log(`geography page, gzipped per file: ${total} bytes (${kb(total)}), target <= ${kb(TARGET_BYTES)}: ${total <= TARGET_BYTES ? 'met' : 'MISSED'}`);
console.log(`geography page, gzipped as one stream: ${together} bytes (${kb(together)})`);
