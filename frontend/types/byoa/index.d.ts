export { findByoa } from "./discovery.js";
export { csrfToken } from "./csrf.js";
export { record } from "./recorder.js";
export { CallLimiter } from "./ratelimit.js";
export { requestGrant, callSkill, releaseOnPageHide } from "./extension.js";
export { showLinkedWallet, startLink } from "./link.js";
export { SAMPLE_RATE, resample, encodeWav, toBase64, wavInfo } from "./wav.js";
