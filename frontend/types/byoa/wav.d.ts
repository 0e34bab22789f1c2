/**
 * Return `samples` at `fromRate` resampled to `toRate`, low-passed so that nothing above the new
 * Nyquist frequency folds back in. Length: floor(n * toRate / fromRate).
 *
 * @param {Float32Array} samples
 * @param {number} fromRate
 * @param {number} [toRate]
 * @returns {Float32Array}
 */
export function resample(samples: Float32Array, fromRate: number, toRate?: number): Float32Array;
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
export function resampler(fromRate: number, toRate?: number): {
    length: (n: number) => number;
    ready: (n: number) => number;
    /** @param {Float32Array} input @param {number} n @param {Float32Array} output @param {number} start @param {number} end */
    run(input: Float32Array, n: number, output: Float32Array, start: number, end: number): void;
};
/**
 * Return a mono 16-bit PCM WAV of `samples`; values beyond [-1, 1] are clamped, never wrapped.
 *
 * @param {Float32Array} samples
 * @param {number} [sampleRate]
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function encodeWav(samples: Float32Array, sampleRate?: number): Uint8Array<ArrayBuffer>;
/**
 * Return `bytes` as base64, for `{ audio: { mime: 'audio/wav', base64 } }`.
 *
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toBase64(bytes: Uint8Array): string;
/**
 * Read a WAV's format and length as the wallet does: `seconds` counts the samples present,
 * whatever the header claims. Throws an Error for bytes that are not a RIFF/WAVE file.
 *
 * @param {Uint8Array} bytes
 * @returns {{ sampleRate: number, channels: number, bitsPerSample: number, seconds: number }}
 */
export function wavInfo(bytes: Uint8Array): {
    sampleRate: number;
    channels: number;
    bitsPerSample: number;
    seconds: number;
};
/**
 * The clip `audio.transcribe` takes: 16 kHz mono 16-bit PCM WAV, as base64. The wallet measures
 * the clip itself, so the header must tell the truth and the samples must really be at 16 kHz.
 */
/** The skill's sample rate. */
export const SAMPLE_RATE: 16000;
