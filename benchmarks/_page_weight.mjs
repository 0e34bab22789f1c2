// @ts-check
/**
 * What a page's static modules weigh once gzipped, for the size benchmarks (aiconnect_size.mjs,
 * byoa_size.mjs). Each module is a static file the browser fetches on its own, so the figure that
 * counts is the sum of each file gzipped alone (level 9, as a server's static gzip would); all of
 * them gzipped as one stream is printed too, as a lower bound.
 */

import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

/** A module's static imports and re-exports of a relative path. */
export const STATIC_IMPORTS = /^(?:import|export) [^;]*? from '(\.[^']+)';/gm;
/** A file a module loads by a URL relative to itself (an AudioWorklet, say). */
export const RELATIVE_URLS = /new URL\('(\.[^']+)', import\.meta\.url\)/g;

/**
 * Return every file the browser fetches starting from `entry`, in visit order.
 *
 * @param {URL} root The folder the paths are relative to (ending in a slash).
 * @param {string} entry A path relative to `root`.
 * @param {RegExp[]} patterns Global patterns whose first group is a path a file makes the browser fetch.
 * @returns {Promise<Map<string, string>>} path -> source
 */
export async function fetchedFrom(root, entry, patterns) {
  /** @type {Map<string, string>} */
  const files = new Map();
  /** @param {string} name */
  const visit = async (name) => {
    if (files.has(name)) return;
    const source = await readFile(new URL(name, root), 'utf8');
    files.set(name, source);
    for (const pattern of patterns) {
      for (const [, target] of source.matchAll(pattern)) {
        await visit(new URL(target, new URL(name, root)).href.slice(root.href.length));
      }
    }
  };
  await visit(entry);
  return files;
}

/**
 * Return the size of a text gzipped at level 9, in bytes.
 *
 * @param {string} text
 */
export const gzipped = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;

/**
 * Return a size in bytes as KB with two decimals.
 *
 * @param {number} bytes
 */
export const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

/**
 * Print each file's raw and gzipped size, then the page's total against its target.
 *
 * @param {string} page What the figures are of, e.g. 'bookshop page'.
 * @param {Map<string, string>} files path -> source, as fetchedFrom returns them.
 * @param {number} targetBytes The most the page may load, gzipped per file.
 */
export function printWeight(page, files, targetBytes) {
  const width = Math.max(24, ...[...files.keys()].map((name) => name.length + 4));
  let perFile = 0;
  console.log('module'.padEnd(width), 'raw'.padStart(8), 'gzip'.padStart(8));
  for (const [name, source] of files) {
    const size = gzipped(source);
    perFile += size;
    console.log(name.padEnd(width), String(Buffer.byteLength(source)).padStart(8), String(size).padStart(8));
  }
  const together = gzipped([...files.values()].join('\n'));
  const verdict = perFile <= targetBytes ? 'met' : 'MISSED';
  console.log('');
  console.log(`${page}, gzipped per file: ${perFile} bytes (${kb(perFile)}), target <= ${kb(targetBytes)}: ${verdict}`);
  console.log(`${page}, gzipped as one stream: ${together} bytes (${kb(together)})`);
}
