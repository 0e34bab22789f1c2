// @ts-check
/**
 * Copy the demos' typeface from its npm package into sites/home/static/home/fonts/: Fraunces
 * (@fontsource-variable/fraunces, SIL Open Font License 1.1), the Latin subset with its weight
 * axis, one compressed WOFF2 file, with its licence beside it. The files are committed and served
 * as static files under hashed names (cached for good): the pages fetch no font from elsewhere.
 *
 * `node scripts/build-fonts.js` writes them; `--check` exits 1 when a committed file differs from
 * the package's (tests/home/test_face.py runs it).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const PACKAGE = dirname(require.resolve('@fontsource-variable/fraunces/package.json'));
const OUT = new URL('../../sites/home/static/home/fonts/', import.meta.url);
/** committed name -> the package's file */
const FILES = {
  'fraunces-latin-wght-normal.woff2': join(PACKAGE, 'files', 'fraunces-latin-wght-normal.woff2'),
  'fraunces-OFL.txt': join(PACKAGE, 'LICENSE'),
};

const check = process.argv.includes('--check');
let stale = 0;
mkdirSync(OUT, { recursive: true });
for (const [name, source] of Object.entries(FILES)) {
  const wanted = readFileSync(source);
  const target = new URL(name, OUT);
  if (check) {
    let kept = null;
    try {
      kept = readFileSync(target);
    } catch {
      // missing: stale
    }
    if (!kept || !kept.equals(wanted)) {
      console.error(`${name} is not the package's: run npm run build:fonts`);
      stale += 1;
    }
  } else {
    writeFileSync(target, wanted);
  }
}
process.exit(stale ? 1 : 0);
