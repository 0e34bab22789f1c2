// @ts-check
/**
 * Draw the geography game's pictures of each country it asks about, from maintained data packages,
 * into sites/geography/static/geography/: `maps/<cc>.svg`, a globe turned to the country with the
 * country marked (Natural Earth's borders from `world-atlas`, drawn with `d3-geo`), shown once a
 * round is judged; `clues/<digest>.svg`, a larger globe with the place circled, shown with the
 * question (named by its own digest so that its name never tells the answer; the server finds it
 * through sites/geography/clues.json); and `flags/<cc>.svg`, the country's flag (`flag-icons`,
 * MIT). The files are committed and served as static files: the page fetches nothing from
 * elsewhere, and nothing is drawn in the browser.
 *
 * `node scripts/build-geography.js` writes them; `--check` exits 1 when a committed file differs
 * from what the packages make (tests/geography/test_pictures.py runs it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoCentroid, geoOrthographic, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { feature, mesh } from 'topojson-client';

const require = createRequire(import.meta.url);
const PLACES = new URL('../../sites/geography/places.json', import.meta.url);
const OUT = new URL('../../sites/geography/static/geography/', import.meta.url);
/** Each country's clue file, for the server (not a static file: its names would give the answers away). */
const CLUES = '../../clues.json';
const SIZE = 160;
/** The question's globe: large enough to learn where the place is. */
const CLUE_SIZE = 240;
/** A country smaller than this on the globe (in px) gets a ring around it, so it can be found. */
const SMALL = 10;

// The borders: the coarse 1:110m set for the globe, the 1:50m set for the country marked on it.
const coarse = require('world-atlas/countries-110m.json');
const fine = require('world-atlas/countries-50m.json');
const land = feature(coarse, coarse.objects.land);
const borders = mesh(coarse, coarse.objects.countries, (a, b) => a !== b);
/** @param {any} topology @returns {Map<string, any>} its countries by ISO 3166-1 numeric code */
const byNumber = (topology) => new Map(feature(topology, topology.objects.countries).features.map((f) => [f.id, f]));
const coarseCountries = byNumber(coarse);
const fineCountries = byNumber(fine);
/** A country at least this big on the globe (in px) is drawn from the coarse set: the fine one only adds bytes. */
const BIG = 12;

/** The country codes places.json asks about (ISO 3166-1 alpha-2), each once, sorted. */
function askedCountries() {
  const places = JSON.parse(readFileSync(PLACES, 'utf8'));
  return [...new Set([...places.capitals, ...places.landmarks].map((place) => place.country))].sort();
}

/**
 * A projection that drops each point nearer than `min` px to the last one kept: the globe is 160 px
 * wide, and the coarse set's every point would be most of each file's bytes. (A radial-distance
 * thinning, in the projection's own stream: topojson-simplify's would need its own pass per view.)
 * @param {import('d3-geo').GeoProjection} projection @param {number} min
 * @returns {import('d3-geo').GeoStreamWrapper}
 */
function thinned(projection, min) {
  return {
    stream(output) {
      let last = /** @type {[number, number] | null} */ (null);
      return projection.stream({
        point(x, y) {
          if (last && Math.hypot(x - last[0], y - last[1]) < min) return;
          last = [x, y];
          output.point(x, y);
        },
        lineStart() { last = null; output.lineStart(); },
        lineEnd() { output.lineEnd(); },
        polygonStart() { output.polygonStart(); },
        polygonEnd() { output.polygonEnd(); },
        sphere() { output.sphere?.(); },
      });
    },
  };
}

/**
 * The globe for one country: the sea, the land, the borders, and the country in the marked colour
 * (`answer`), or the place only circled, its country not marked (the question's clue).
 * Colours follow the visitor's theme (an SVG image reads prefers-color-scheme as the page does).
 * @param {string} code ISO 3166-1 alpha-2
 * @param {{ size?: number, answer?: boolean }} [options]
 */
function globe(code, { size = SIZE, answer = true } = {}) {
  const number = countries.alpha2ToNumeric(code);
  let country = fineCountries.get(number);
  if (!country) throw new Error(`world-atlas has no country ${code}: check places.json`);
  const [lon, lat] = geoCentroid(country);
  const projection = geoOrthographic().rotate([-lon, -Math.max(-60, Math.min(60, lat))]).fitExtent(
    [[2, 2], [size - 2, size - 2]], { type: 'Sphere' });
  const path = geoPath(projection).digits(1);
  const whole = geoPath(thinned(projection, 1.5)).digits(0);  // the globe's land and borders: whole pixels do
  const [[x0, y0], [x1, y1]] = path.bounds(country);
  if (Math.max(x1 - x0, y1 - y0) >= BIG && coarseCountries.has(number)) country = coarseCountries.get(number);
  const [cx, cy] = /** @type {[number, number]} */ (projection([lon, lat]));
  let marked;
  if (answer) {
    marked = `<path class="country" d="${path(country)}"/>`;
    if (Math.max(x1 - x0, y1 - y0) < SMALL) marked += `<circle class="ring" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="9"/>`;
  } else {
    // Around the country's extent, not on it: "somewhere here", the answer's globe then shows which.
    const r = Math.min(size * 0.3, Math.max(14, 0.6 * Math.hypot(x1 - x0, y1 - y0)));
    marked = `<circle class="area" cx="${((x0 + x1) / 2).toFixed(1)}" cy="${((y0 + y1) / 2).toFixed(1)}" r="${r.toFixed(1)}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}">
<style>.sea{fill:#cfe3ee}.land{fill:#e8e4d8}.borders{fill:none;stroke:#a9a392;stroke-width:.4}${answer
    ? '.country{fill:#c2410c;stroke:#7c2d12;stroke-width:.5}.ring{fill:none;stroke:#c2410c;stroke-width:2}'
    : '.area{fill:#c2410c;fill-opacity:.14;stroke:#c2410c;stroke-width:2.5;stroke-dasharray:6 4}'}
@media (prefers-color-scheme:dark){.sea{fill:#12303f}.land{fill:#3b4b42}.borders{stroke:#63756a}${answer
    ? '.country{fill:#fb923c;stroke:#fed7aa}.ring{stroke:#fb923c}' : '.area{fill:#fb923c;stroke:#fb923c}'}}</style>
<circle class="sea" cx="${size / 2}" cy="${size / 2}" r="${size / 2 - 2}"/>
<path class="land" d="${whole(land)}"/>
<path class="borders" d="${whole(borders)}"/>
${marked}
</svg>
`;
}

/** Every file this script makes, by its path under OUT. @returns {Map<string, string | Buffer>} */
function pictures() {
  /** @type {Map<string, string | Buffer>} */
  const files = new Map();
  const flags = require.resolve('flag-icons/flags/4x3/gb.svg').replace(/gb\.svg$/, '');
  /** @type {Record<string, string>} */
  const clues = {};
  for (const code of askedCountries()) {
    const cc = code.toLowerCase();
    files.set(`maps/${cc}.svg`, globe(code));
    files.set(`flags/${cc}.svg`, readFileSync(`${flags}${cc}.svg`));
    const clue = globe(code, { size: CLUE_SIZE, answer: false });
    clues[code] = `clues/${createHash('sha256').update(clue).digest('hex').slice(0, 12)}.svg`;
    files.set(clues[code], clue);
  }
  files.set(CLUES, `${JSON.stringify({
    about: 'Written by frontend/scripts/build-geography.js: the file of each country\'s clue (its question\'s globe) under static/geography/.',
    clues,
  }, null, 1)}\n`);
  files.set('flags/LICENSE', readFileSync(require.resolve('flag-icons/LICENSE')));
  const globes = `The globes are drawn by frontend/scripts/build-geography.js from world-atlas
${require('world-atlas/package.json').version} (Natural Earth's 1:110m and 1:50m countries: public domain,
https://www.naturalearthdata.com/), packaged under this licence:

${readFileSync(require.resolve('world-atlas/LICENSE'), 'utf8')}`;
  files.set('maps/LICENSE', globes);
  files.set('clues/LICENSE', globes);
  return files;
}

const files = pictures();
if (process.argv.includes('--check')) {
  const stale = [...files].filter(([name, data]) => {
    try {
      return !readFileSync(new URL(name, OUT)).equals(Buffer.from(data));
    } catch {
      return true;
    }
  }).map(([name]) => name);
  // A picture of a country the game no longer asks about is stale too.
  for (const folder of ['maps', 'flags', 'clues']) {
    for (const name of readdirSync(new URL(`${folder}/`, OUT))) {
      if (!files.has(`${folder}/${name}`)) stale.push(`${folder}/${name}`);
    }
  }
  if (stale.length) {
    console.error(`Not what the packages make: ${stale.join(', ')}. Run \`npm run build:geography\` in frontend/.`);
    process.exit(1);
  }
} else {
  for (const folder of ['maps', 'flags', 'clues']) mkdirSync(new URL(`${folder}/`, OUT), { recursive: true });
  for (const [name, data] of files) writeFileSync(new URL(name, OUT), data);
  console.log(`Wrote ${files.size} files under sites/geography/static/geography/.`);
}
