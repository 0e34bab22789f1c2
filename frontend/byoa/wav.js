// @ts-check
/**
 * The clip `audio.transcribe` takes: 16 kHz mono 16-bit PCM WAV, as base64. The wallet measures
 * the clip itself, so the header must tell the truth and the samples must really be at 16 kHz.
 */

/** The skill's sample rate. */
export const SAMPLE_RATE = 16000;

/**
 * Return `samples` at `fromRate` resampled to `toRate`, low-passed so that nothing above the new
 * Nyquist frequency folds back in. Length: floor(n * toRate / fromRate).
 *
 * @param {Float32Array} samples
 * @param {number} fromRate
 * @param {number} [toRate]
 * @returns {Float32Array}
 */
export function resample(samples, fromRate, toRate = SAMPLE_RATE) {
  const r = resampler(fromRate, toRate);
  const out = new Float32Array(r.length(samples.length));
  r.run(samples, samples.length, out, 0, out.length);
  return out;
}

/**
 * Return the resampler behind `resample`, for a recorder that resamples as samples come:
 * `run(input, n, output, start, end)` writes `output[start..end)` from `input[0..n)` (zeros past
 * `n`); `length(n)` is the output length for `n` inputs, `ready(n)` how many outputs `n` inputs
 * fully determine.
 *
 * Written here, not taken from an OfflineAudioContext, whose resampling quality browsers leave
 * unspecified: a polyphase windowed sinc (Blackman), cut-off at 0.42 of the lower rate (6.7 kHz
 * for 16 kHz), 2.75 kHz wide, so from 8 kHz up the band is down by about 74 dB.
 *
 * @param {number} fromRate
 * @param {number} [toRate]
 */
export function resampler(fromRate, toRate = SAMPLE_RATE) {
  const from = Math.round(fromRate);
  const to = Math.round(toRate);
  if (!(from > 0 && to > 0)) throw new RangeError(`resample: rates must be positive, not ${fromRate} and ${toRate}`);
  let g = from;
  for (let r = to; r;) [g, r] = [r, g % r];
  const phases = to / g; // distinct positions of an output instant between two inputs
  const band = Math.min(1, to / from);
  const half = from === to ? 1 : 16 / band; // the kernel's half width, in inputs
  const reach = Math.ceil(half);
  const width = 2 * reach;
  const kernels = new Float32Array(phases * width);
  for (let p = 0, k = 0; p < phases; p++, k += width) {
    let sum = 0;
    for (let m = 0; m < width; m++) {
      const d = Math.abs(p / phases + reach - 1 - m); // output instant to input k + m
      const x = 2 * Math.PI * 0.42 * band * d;
      const w = d < half ? 0.42 + 0.5 * Math.cos(Math.PI * d / half) + 0.08 * Math.cos(2 * Math.PI * d / half) : 0;
      sum += kernels[k + m] = from === to ? +(d === 0) : (d ? Math.sin(x) / x : 1) * w;
    }
    for (let m = 0; m < width; m++) kernels[k + m] /= sum; // gain 1 at 0 Hz in every phase
  }
  const length = (/** @type {number} */ n) => Math.floor(n * to / from);
  return {
    length,
    ready: (/** @type {number} */ n) => Math.max(0, Math.min(length(n), Math.ceil((n - reach) * to / from))),
    /** @param {Float32Array} input @param {number} n @param {Float32Array} output @param {number} start @param {number} end */
    run(input, n, output, start, end) {
      for (let i = start; i < end; i++) {
        const first = Math.floor(i * from / to) - reach + 1;
        const k = ((i * from) % to) / g * width;
        let acc = 0;
        for (let m = Math.max(0, -first), last = Math.min(width, n - first); m < last; m++) acc += input[first + m] * kernels[k + m];
        output[i] = acc;
      }
    },
  };
}

/**
 * Return a mono 16-bit PCM WAV of `samples`; values beyond [-1, 1] are clamped, never wrapped.
 *
 * @param {Float32Array} samples
 * @param {number} [sampleRate]
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function encodeWav(samples, sampleRate = SAMPLE_RATE) {
  const size = samples.length * 2;
  const v = new DataView(new ArrayBuffer(44 + size));
  const tag = (/** @type {number} */ at, /** @type {string} */ text) => { for (let i = 0; i < 4; i++) v.setUint8(at + i, text.charCodeAt(i)); };
  tag(0, 'RIFF'); v.setUint32(4, 36 + size, true); tag(8, 'WAVE');
  tag(12, 'fmt '); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true); // PCM, mono
  v.setUint32(24, sampleRate, true); v.setUint32(28, sampleRate * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
  tag(36, 'data'); v.setUint32(40, size, true);
  samples.forEach((x, i) => {
    // -1 -> -32768, 1 -> 32767: both ends of int16 reached, none passed; NaN is silence.
    v.setInt16(44 + i * 2, x >= 1 ? 32767 : x <= -1 ? -32768 : Math.round(x * (x < 0 ? 32768 : 32767)) || 0, true);
  });
  return new Uint8Array(v.buffer);
}

/**
 * Return `bytes` as base64, for `{ audio: { mime: 'audio/wav', base64 } }`.
 *
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toBase64(bytes) {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}

/**
 * Read a WAV's format and length as the wallet does: `seconds` counts the samples present,
 * whatever the header claims. Throws an Error for bytes that are not a RIFF/WAVE file.
 *
 * @param {Uint8Array} bytes
 * @returns {{ sampleRate: number, channels: number, bitsPerSample: number, seconds: number }}
 */
export function wavInfo(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (/** @type {number} */ at) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('wavInfo: not a WAV file (no RIFF....WAVE)');
  let format;
  for (let at = 12, size; at + 8 <= bytes.length; at += 8 + size + (size & 1)) { // chunks are padded to even sizes
    size = v.getUint32(at + 4, true);
    if (tag(at) === 'fmt ' && at + 24 <= bytes.length) {
      format = { sampleRate: v.getUint32(at + 12, true), channels: v.getUint16(at + 10, true), bitsPerSample: v.getUint16(at + 22, true) };
    } else if (tag(at) === 'data' && format) {
      const perSecond = format.sampleRate * format.channels * format.bitsPerSample / 8;
      if (!perSecond) break;
      return { ...format, seconds: Math.min(size, bytes.length - at - 8) / perSecond };
    }
  }
  throw new Error('wavInfo: not a usable WAV file (no fmt chunk before the data)');
}
