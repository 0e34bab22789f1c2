// @ts-check
// The npm package's type declarations (types/, committed and published) are exactly what
// `npm run build:types` makes of today's sources: a change to a module's JSDoc without rebuilding
// them would ship types that describe another version.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const FRONTEND = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(FRONTEND, 'node_modules', 'typescript', 'bin', 'tsc');

/** @param {string} folder @returns {Map<string, string>} each .d.ts below it, by its path inside */
function declarations(folder) {
  const found = new Map();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.d.ts')) {
      const path = join(entry.parentPath, entry.name);
      found.set(relative(folder, path), readFileSync(path, 'utf8'));
    }
  }
  return found;
}

it('the committed types are what build:types makes of the sources', () => {
  const built = mkdtempSync(join(tmpdir(), 'visitor-ai-types-'));
  try {
    execFileSync(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', built], { cwd: FRONTEND });
    const fresh = declarations(built);
    const committed = declarations(join(FRONTEND, 'types'));
    assert.deepEqual([...committed.keys()].sort(), [...fresh.keys()].sort(), 'run npm run build:types');
    for (const [path, text] of fresh) assert.equal(committed.get(path), text, `${path}: run npm run build:types`);
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
});
