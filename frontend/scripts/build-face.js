// @ts-check
/**
 * The demos' own face, copied from npm packages into sites/home/static/home/ with their licences:
 * - `fonts/`: Fraunces (@fontsource-variable/fraunces, SIL Open Font License 1.1), the Latin
 *   subset with its weight axis, one compressed WOFF2 file;
 * - `art/`: the pictures of the home page and the demos, one set in one style: Microsoft's Fluent
 *   Emoji Flat (@iconify-json/fluent-emoji-flat, MIT), each an SVG file of its own. Each demo has
 *   one for its opening screen (its character, also on the home page) and one for its end.
 * The files are committed and served as static files under hashed names (cached for good): the
 * pages fetch nothing from elsewhere.
 *
 * `node scripts/build-face.js` writes them; `--check` exits 1 when a committed file differs from
 * what the packages give (tests/home/test_face.py runs it).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const OUT = new URL('../../sites/home/static/home/', import.meta.url);
const FONT = dirname(require.resolve('@fontsource-variable/fraunces/package.json'));
const ART = dirname(require.resolve('@iconify-json/fluent-emoji-flat/package.json'));

/** The pictures: our name -> the set's icon. */
const PICTURES = {
  books: 'books', // the bookshop's opening
  package: 'package', // its end: the demo checkout
  globe: 'globe-showing-europe-africa', // geography's opening
  trophy: 'trophy', // its end: the score
  genie: 'man-genie', // Twenty Questions' character, asking
  'party-popper': 'party-popper', // its end: the reveal
  compass: 'compass', // the site's own "not here" page
  tools: 'hammer-and-wrench', // and its "something went wrong"
};

/** @type {Record<string, Buffer>} committed path (under OUT) -> its bytes */
const files = {
  'fonts/fraunces-latin-wght-normal.woff2': readFileSync(join(FONT, 'files', 'fraunces-latin-wght-normal.woff2')),
  'fonts/fraunces-OFL.txt': readFileSync(join(FONT, 'LICENSE')),
};
const set = JSON.parse(readFileSync(join(ART, 'icons.json'), 'utf8'));
const info = JSON.parse(readFileSync(join(ART, 'info.json'), 'utf8'));
for (const [name, icon] of Object.entries(PICTURES)) {
  const { body, width = set.width, height = set.height } = set.icons[icon];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${body}</svg>\n`;
  files[`art/${name}.svg`] = Buffer.from(svg);
}
// The set's package carries its licence as data (info.json): the MIT licence, written out with its holder.
files['art/LICENSE.txt'] = Buffer.from(`The pictures in this folder are from ${info.name} (${info.author.url}),
packaged as @iconify-json/fluent-emoji-flat, under the ${info.license.title} licence (${info.license.url}):

MIT License

Copyright (c) ${info.author.name}.

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`);

const check = process.argv.includes('--check');
let stale = 0;
for (const [path, wanted] of Object.entries(files)) {
  const target = new URL(path, OUT);
  if (check) {
    let kept = null;
    try {
      kept = readFileSync(target);
    } catch {
      // missing: stale
    }
    if (!kept || !kept.equals(wanted)) {
      console.error(`${path} is not what the packages give: run npm run build:face`);
      stale += 1;
    }
  } else {
    mkdirSync(new URL('.', target), { recursive: true });
    writeFileSync(target, wanted);
  }
}
process.exit(stale ? 1 : 0);
