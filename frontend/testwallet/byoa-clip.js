// @ts-check
/**
 * How the test wallet's `window.byoa` (frontend/testwallet/byoa.js) reads an `audio.transcribe`
 * clip: strict base64, then the seconds of samples in the skill table's WAV format (skills.json)
 * the RIFF/WAVE bytes actually hold, never a length the page states. A classic script, loaded before byoa-manifest.js and
 * byoa.js (as an init script, or a plain `<script>`): it leaves its functions on
 * `window.__testwalletByoaClip`, which byoa.js takes and removes before any page script runs.
 */
(() => {
  'use strict';

  /** Base64 longer than this is not a 15 s clip, whatever it holds: refused before decoding. */
  const MAX_AUDIO_BASE64 = 4 * 1024 * 1024;

  /**
   * Measure a clip from its bytes: the seconds of samples actually present, or
   * null when it is not a RIFF/WAVE file of the format the skill takes. The wallet never
   * trusts a length the page states.
   * @param {Uint8Array} bytes
   * @param {{ format: number, channels: number, rate: number, bits: number }} WAV The skill's `wav` (skills.json).
   * @returns {number | null}
   */
  function clipSeconds(bytes, WAV) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    /** @param {number} at */
    const tag = (at) => String.fromCharCode(...bytes.subarray(at, at + 4));
    if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
    let fmt = null;
    let samples = null;
    let at = 12;
    while (at + 8 <= bytes.length) {
      const id = tag(at);
      const size = view.getUint32(at + 4, true);
      const body = Math.max(0, Math.min(size, bytes.length - at - 8)); // what is there, not what the header claims
      if (id === 'fmt ' && body >= 16) {
        fmt = {
          format: view.getUint16(at + 8, true),
          channels: view.getUint16(at + 10, true),
          rate: view.getUint32(at + 12, true),
          bits: view.getUint16(at + 22, true),
        };
      } else if (id === 'data') {
        samples = body;
        break;
      }
      at += 8 + size + (size & 1);
    }
    if (fmt === null || samples === null) return null;
    if (fmt.format !== WAV.format || fmt.channels !== WAV.channels || fmt.rate !== WAV.rate || fmt.bits !== WAV.bits) {
      return null;
    }
    return samples / (WAV.rate * WAV.channels * (WAV.bits / 8));
  }

  /**
   * Strict base64 (the alphabet, padded to a multiple of 4), or null.
   * @param {unknown} text
   * @returns {Uint8Array | null}
   */
  function decodeBase64(text) {
    if (typeof text !== 'string' || text.length > MAX_AUDIO_BASE64) return null;
    if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
    try {
      return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
    } catch {
      return null;
    }
  }

  Object.defineProperty(window, '__testwalletByoaClip', {
    value: Object.freeze({ clipSeconds, decodeBase64 }),
    configurable: true, // byoa.js removes it
  });
})();
