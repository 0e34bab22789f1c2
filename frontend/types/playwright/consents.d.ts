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
export function moreAsked(manifest: Record<string, any>, allowed: Record<string, any>, skills: string[]): string[];
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
    /**
     * Read a record `save` or the headless wallet wrote. Throws a TypeError naming what is wrong.
     *
     * @param {string} file
     * @returns {Consents}
     */
    static load(file: string): Consents;
    /**
     * The record of a JSON value as `toJSON` writes it. Throws a TypeError naming what is wrong.
     *
     * @param {unknown} value
     * @returns {Consents}
     */
    static fromJSON(value: unknown): Consents;
    /** @type {Map<string, Allowed>} what the visitor allowed each site */
    sites: Map<string, Allowed>;
    /** @type {Set<string>} the sites the visitor paused */
    paused: Set<string>;
    /**
     * Record that the visitor allowed `site` this manifest, with these skills ticked.
     *
     * @param {string} site
     * @param {Record<string, any>} manifest
     * @param {string[]} skills
     * @param {{ onItsOwn?: boolean }} [options] `onItsOwn`: "decide on my own" was ticked
     */
    allow(site: string, manifest: Record<string, any>, skills: string[], { onItsOwn }?: {
        onItsOwn?: boolean;
    }): void;
    /**
     * What a new consent shows: null for a site never allowed (all of it), else only what is more.
     *
     * @param {string} site
     * @param {Record<string, any>} manifest
     * @returns {string[] | null}
     */
    more(site: string, manifest: Record<string, any>): string[] | null;
    /** Pause `site`, as the visitor does in the wallet. @param {string} site */
    pause(site: string): void;
    /** Resume a paused `site`. @param {string} site */
    resume(site: string): void;
    /** The record as JSON: `{ sites: { [site]: { manifest, skills, onItsOwn } }, paused: [site, ...] }`. */
    toJSON(): {
        sites: {
            [k: string]: Allowed;
        };
        paused: string[];
    };
    /**
     * Write the record to `file` (whole, never half-written), for the headless wallet's `--consents FILE`.
     *
     * @param {string} file
     */
    save(file: string): void;
}
/**
 * One site's consent: the manifest the visitor read, the skills they ticked, "decide on my own".
 */
export type Allowed = {
    readonly manifest: Record<string, any>;
    readonly skills: readonly string[];
    readonly onItsOwn: boolean;
};
