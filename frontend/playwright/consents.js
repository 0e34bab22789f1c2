// @ts-check
/**
 * What the visitor allowed each site and which sites they paused, in one record for the BYOA
 * wallet's two ways in (the extension's `window.byoa` and the direct link), as testwallet/_consents.py's
 * `Consents` keeps it for pytest: `byoaExtension.consents` is one. `save(file)` and
 * `Consents.load(file)` carry it to and from the headless wallet (`python -m testwallet.direct
 * --consents FILE`). What a site asks for more is worked out by the stub's own byoa-consent.js.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import vm from 'node:vm';

/**
 * byoa-consent.js's functions, run as a browser runs it (a window with the skill table and the
 * manifest rules, nothing else), so that the driver and the panel say the same.
 * @type {{ moreAsked: (manifest: object, allowed: object, skills: string[]) => object[], logText: (item: object) => string }}
 */
const CONSENT = (() => {
  /** @type {Record<string, any>} */
  const page = {};
  page.window = page;
  vm.createContext(page);
  for (const name of ['byoa-skills.js', 'byoa-manifest.js', 'byoa-consent.js']) {
    vm.runInContext(readFileSync(new URL(`../testwallet/${name}`, import.meta.url), 'utf8'), page, { filename: name });
  }
  return page.__testwalletByoaConsent;
})();

/**
 * What `manifest` asks beyond the `allowed` manifest and the skills the visitor ticked, as text
 * (testwallet/_consents.py's `more_asked`): a skill outside those ticked, more models for a skill,
 * a limit raised, or a limit left out (no bound is looser than any bound). Both manifests valid.
 *
 * @param {Record<string, any>} manifest
 * @param {Record<string, any>} allowed
 * @param {string[]} skills
 * @returns {string[]}
 */
export function moreAsked(manifest, allowed, skills) {
  return Array.from(CONSENT.moreAsked(manifest, allowed, skills), (item) => String(CONSENT.logText(item)));
}

/**
 * One site's consent: the manifest the visitor read, the skills they ticked, "decide on my own".
 * @typedef {{ readonly manifest: Record<string, any>, readonly skills: readonly string[], readonly onItsOwn: boolean }} Allowed
 */

/**
 * The visitor's consents and pauses, by site (a page origin such as 'http://127.0.0.1:8000').
 * specs/byoa-sites.md: "a site allowed one way is allowed the other way too"; "a site that asks
 * for more later gets a new consent showing only the difference"; "A site the visitor paused is
 * not reconnected".
 */
export class Consents {
  /** @type {Map<string, Allowed>} what the visitor allowed each site */
  sites = new Map();
  /** @type {Set<string>} the sites the visitor paused */
  paused = new Set();

  /**
   * Record that the visitor allowed `site` this manifest, with these skills ticked.
   *
   * @param {string} site
   * @param {Record<string, any>} manifest
   * @param {string[]} skills
   * @param {{ onItsOwn?: boolean }} [options] `onItsOwn`: "decide on my own" was ticked
   */
  allow(site, manifest, skills, { onItsOwn = false } = {}) {
    this.sites.set(site, Object.freeze({ manifest, skills: Object.freeze([...skills].sort()), onItsOwn }));
  }

  /**
   * What a new consent shows: null for a site never allowed (all of it), else only what is more.
   *
   * @param {string} site
   * @param {Record<string, any>} manifest
   * @returns {string[] | null}
   */
  more(site, manifest) {
    const allowed = this.sites.get(site);
    return allowed === undefined ? null : moreAsked(manifest, allowed.manifest, [...allowed.skills]);
  }

  /** Pause `site`, as the visitor does in the wallet. @param {string} site */
  pause(site) {
    this.paused.add(site);
  }

  /** Resume a paused `site`. @param {string} site */
  resume(site) {
    this.paused.delete(site);
  }

  /** The record as JSON: `{ sites: { [site]: { manifest, skills, onItsOwn } }, paused: [site, ...] }`. */
  toJSON() {
    return { sites: Object.fromEntries(this.sites), paused: [...this.paused].sort() };
  }

  /**
   * Write the record to `file` (whole, never half-written), for the headless wallet's `--consents FILE`.
   *
   * @param {string} file
   */
  save(file) {
    writeFileSync(`${file}.tmp`, `${JSON.stringify(this, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }

  /**
   * Read a record `save` or the headless wallet wrote. Throws a TypeError naming what is wrong.
   *
   * @param {string} file
   * @returns {Consents}
   */
  static load(file) {
    return Consents.fromJSON(JSON.parse(readFileSync(file, 'utf8')));
  }

  /**
   * The record of a JSON value as `toJSON` writes it. Throws a TypeError naming what is wrong.
   *
   * @param {unknown} value
   * @returns {Consents}
   */
  static fromJSON(value) {
    const record = /** @type {any} */ (value);
    const object = (/** @type {unknown} */ item) => typeof item === 'object' && item !== null && !Array.isArray(item);
    const strings = (/** @type {unknown} */ item) => Array.isArray(item) && item.every((entry) => typeof entry === 'string');
    if (!object(record) || !object(record.sites) || !strings(record.paused)) {
      throw new TypeError('consents are { "sites": { site: { manifest, skills, onItsOwn } }, "paused": [site, ...] }');
    }
    const consents = new Consents();
    for (const [site, allowed] of Object.entries(record.sites)) {
      const manifest = object(allowed) && allowed.manifest;
      if (!object(manifest) || !object(manifest.skills) || !object(manifest.purpose) || !strings(allowed.skills)
        || typeof allowed.onItsOwn !== 'boolean') {
        throw new TypeError(`the consent of ${JSON.stringify(site)} is { manifest: {...}, skills: [...], onItsOwn: true or false }`);
      }
      consents.allow(site, allowed.manifest, allowed.skills, { onItsOwn: allowed.onItsOwn });
    }
    for (const site of record.paused) consents.pause(site);
    return consents;
  }
}
