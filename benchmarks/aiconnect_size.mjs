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
 * How the weight is counted: benchmarks/_page_weight.mjs.
 */

import { readFile, readdir } from 'node:fs/promises';

import { STATIC_IMPORTS, fetchedFrom, gzipped, kb, printWeight } from './_page_weight.mjs';

const ROOT = new URL('../frontend/aiconnect/', import.meta.url);
const TARGET_BYTES = 8 * 1024;

printWeight('bookshop page', await fetchedFrom(ROOT, 'index.js', [STATIC_IMPORTS]), TARGET_BYTES);

const lazy = (await readdir(new URL('fetch/', ROOT))).filter((name) => name.endsWith('.js'));
let lazyTotal = 0;
for (const name of lazy) lazyTotal += gzipped(await readFile(new URL(`fetch/${name}`, ROOT), 'utf8'));
console.log(`not loaded by the page: ${lazy.length} WalletFetch modules, ${lazyTotal} bytes gzipped per file (${kb(lazyTotal)})`);
