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
 * How the weight is counted: benchmarks/_page_weight.mjs.
 */

import { RELATIVE_URLS, STATIC_IMPORTS, fetchedFrom, printWeight } from './_page_weight.mjs';

const ROOT = new URL('../frontend/byoa/', import.meta.url);
const TARGET_BYTES = 5 * 1024;

// What a browser fetches because of a module: its static imports and re-exports, and the
// worklets it loads by a URL relative to itself.
printWeight('geography page', await fetchedFrom(ROOT, 'index.js', [STATIC_IMPORTS, RELATIVE_URLS]), TARGET_BYTES);
