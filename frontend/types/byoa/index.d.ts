export { findByoa } from "./discovery.js";
export { record } from "./recorder.js";
export { CallLimiter } from "./ratelimit.js";
export { requestGrant, callSkill, releaseOnPageHide } from "./extension.js";
export { csrfToken, showLinkedWallet, startLink } from "./link.js";
export { SAMPLE_RATE, resample, encodeWav, toBase64, wavInfo } from "./wav.js";
