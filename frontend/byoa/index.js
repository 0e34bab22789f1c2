// @ts-check
/** The BYOA page library (specs/byoa-sites.md), re-exported. Types: ./types.js. */

export { findByoa } from './discovery.js';
export { requestGrant, callSkill, releaseOnPageHide } from './extension.js';
export { csrfToken } from './csrf.js';
export { showLinkedWallet, startLink } from './link.js';
export { SAMPLE_RATE, resample, encodeWav, toBase64, wavInfo } from './wav.js';
export { record } from './recorder.js';
export { CallLimiter } from './ratelimit.js';
