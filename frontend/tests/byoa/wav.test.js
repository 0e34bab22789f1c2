// @ts-check
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { SAMPLE_RATE, encodeWav, resample, toBase64, wavInfo } from '../../byoa/wav.js';

/** `seconds` of a sine of `hz` at `rate`, amplitude `amp`. */
function tone(/** @type {number} */ hz, /** @type {number} */ rate, seconds = 1, amp = 0.5) {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amp * Math.sin(2 * Math.PI * hz * i / rate);
  return out;
}

/** The amplitude of the `hz` component of `x` (a single-bin DFT over the middle, away from the edges). */
function amplitudeAt(/** @type {Float32Array} */ x, /** @type {number} */ hz, rate = SAMPLE_RATE) {
  const part = x.subarray(rate / 4, x.length - rate / 4);
  let re = 0;
  let im = 0;
  for (let i = 0; i < part.length; i++) {
    re += part[i] * Math.cos(2 * Math.PI * hz * i / rate);
    im -= part[i] * Math.sin(2 * Math.PI * hz * i / rate);
  }
  return 2 * Math.hypot(re, im) / part.length;
}

/** The RMS of `x` away from its edges. */
function rms(/** @type {Float32Array} */ x) {
  const part = x.subarray(1000, x.length - 1000);
  return Math.sqrt(part.reduce((sum, v) => sum + v * v, 0) / part.length);
}

/** Sign changes per second. */
function crossingsPerSecond(/** @type {Float32Array} */ x, rate = SAMPLE_RATE) {
  let n = 0;
  for (let i = 1; i < x.length; i++) if ((x[i - 1] < 0) !== (x[i] < 0)) n++;
  return n * rate / x.length;
}

/** The mistake the low-pass prevents: keep every third sample. */
const dropSamples = (/** @type {Float32Array} */ x) => x.filter((_, i) => i % 3 === 0);

describe('encodeWav', () => {
  const samples = new Float32Array([0, 0.5, -0.5, 0.25]);
  const bytes = encodeWav(samples);
  const view = new DataView(bytes.buffer);
  const text = (/** @type {number} */ at) => String.fromCharCode(...bytes.subarray(at, at + 4));

  it('should write a 44-byte header and 2 bytes a sample', () => {
    assert.equal(bytes.length, 44 + samples.length * 2);
  });

  it('should put RIFF size = 36 + data size and data size = 2 bytes a sample', () => {
    assert.equal(text(0), 'RIFF');
    assert.equal(view.getUint32(4, true), 36 + 8);
    assert.equal(view.getUint32(4, true), bytes.length - 8);
    assert.equal(text(8), 'WAVE');
    assert.equal(text(36), 'data');
    assert.equal(view.getUint32(40, true), 8);
  });

  it('should describe 16 kHz mono 16-bit PCM in the fmt chunk', () => {
    assert.equal(text(12), 'fmt ');
    assert.equal(view.getUint32(16, true), 16, 'fmt chunk size');
    assert.equal(view.getUint16(20, true), 1, 'PCM');
    assert.equal(view.getUint16(22, true), 1, 'mono');
    assert.equal(view.getUint32(24, true), 16000, 'sample rate');
    assert.equal(view.getUint32(28, true), 32000, 'byte rate');
    assert.equal(view.getUint16(32, true), 2, 'block align');
    assert.equal(view.getUint16(34, true), 16, 'bits per sample');
  });

  it('should write the samples as little-endian int16, rounded', () => {
    assert.deepEqual([0, 1, 2, 3].map((i) => view.getInt16(44 + i * 2, true)), [0, 16384, -16384, 8192]);
  });

  it('should clamp values beyond ±1 to 32767 and -32768, never wrap around', () => {
    const loud = encodeWav(new Float32Array([1, -1, 1.5, -1.5, 40, -40, Infinity, -Infinity, 1.00001]));
    const v = new DataView(loud.buffer);
    assert.deepEqual(Array.from({ length: 9 }, (_, i) => v.getInt16(44 + i * 2, true)),
      [32767, -32768, 32767, -32768, 32767, -32768, 32767, -32768, 32767]);
  });

  it('should write NaN as silence', () => {
    assert.equal(new DataView(encodeWav(new Float32Array([NaN])).buffer).getInt16(44, true), 0);
  });

  it('should write the rate it is given, with its byte rate', () => {
    const v = new DataView(encodeWav(new Float32Array(3), 8000).buffer);
    assert.equal(v.getUint32(24, true), 8000);
    assert.equal(v.getUint32(28, true), 16000);
  });

  it('should encode an empty clip as a valid WAV of 0 s', () => {
    const empty = encodeWav(new Float32Array(0));
    assert.equal(empty.length, 44);
    assert.equal(wavInfo(empty).seconds, 0);
  });
});

describe('resample', () => {
  it('should make 16000 samples of a second at 48 kHz and at 44.1 kHz', () => {
    assert.equal(resample(new Float32Array(48000), 48000).length, 16000);
    assert.equal(resample(new Float32Array(44100), 44100).length, 16000);
    assert.equal(resample(new Float32Array(48000 * 15), 48000).length, 15 * 16000);
    assert.equal(resample(new Float32Array(44101), 44100).length, 16000, 'never longer than the input lasted');
  });

  for (const rate of [48000, 44100]) {
    it(`should keep a 440 Hz tone at 440 Hz and its level, from ${rate} Hz`, () => {
      const out = resample(tone(440, rate, 2), rate);
      assert.ok(Math.abs(crossingsPerSecond(out) - 880) <= 2, `crossings ${crossingsPerSecond(out)}`);
      assert.ok(Math.abs(amplitudeAt(out, 440) - 0.5) < 0.005, `amplitude ${amplitudeAt(out, 440)}`);
    });

    for (const hz of [9000, 10000, 12000, 20000]) {
      it(`should remove a ${hz} Hz tone from ${rate} Hz instead of folding it into the band (-60 dB)`, () => {
        const out = resample(tone(hz, rate), rate);
        assert.ok(rms(out) < 0.001 * rms(tone(hz, rate)), `left ${20 * Math.log10(rms(out) / rms(tone(hz, rate)))} dB`);
      });
    }
  }

  it('should keep speech frequencies up to 5 kHz within 0.5 dB', () => {
    for (const hz of [100, 1000, 3000, 5000]) {
      const out = resample(tone(hz, 48000), 48000);
      assert.ok(Math.abs(20 * Math.log10(amplitudeAt(out, hz) / 0.5)) < 0.5, `${hz} Hz`);
    }
  });

  it('should be a measure that catches dropping samples without a low-pass', () => {
    // The same check on the naive way: a 10 kHz tone folds to 6 kHz at full level.
    const folded = dropSamples(tone(10000, 48000));
    assert.ok(rms(folded) > 0.3);
    assert.ok(amplitudeAt(folded, 6000) > 0.45);
  });

  it('should upsample 8 kHz to 16 kHz, keeping the tone', () => {
    const out = resample(tone(440, 8000, 2), 8000);
    assert.equal(out.length, 32000);
    assert.ok(Math.abs(amplitudeAt(out, 440) - 0.5) < 0.005);
  });

  it('should return a copy at the same rate', () => {
    const input = tone(440, 16000);
    const out = resample(input, 16000);
    assert.notEqual(out, input);
    assert.deepEqual(out, input);
  });

  it('should refuse a rate that is not positive', () => {
    assert.throws(() => resample(new Float32Array(1), 0), RangeError);
    assert.throws(() => resample(new Float32Array(1), NaN), RangeError);
    assert.throws(() => resample(new Float32Array(1), 48000, -16000), RangeError);
  });
});

describe('toBase64', () => {
  it('should encode bytes as standard base64, also past 32 KB', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7) & 255);
    assert.equal(toBase64(bytes), Buffer.from(bytes).toString('base64'));
    assert.equal(toBase64(new Uint8Array([0xfb, 0xff])), '+/8=');
    assert.equal(toBase64(new Uint8Array(0)), '');
  });
});

describe('wavInfo', () => {
  it('should read back what encodeWav wrote', () => {
    assert.deepEqual(wavInfo(encodeWav(new Float32Array(24000))), { sampleRate: 16000, channels: 1, bitsPerSample: 16, seconds: 1.5 });
  });

  it('should measure the samples present, not the size the header claims', () => {
    const cut = encodeWav(new Float32Array(16000)).subarray(0, 44 + 8000);
    assert.equal(wavInfo(cut).seconds, 0.25);
  });

  it('should read past other chunks, with their padding, to the data', () => {
    const wav = encodeWav(new Float32Array(1600));
    const list = new Uint8Array([...'LIST'].map((c) => c.charCodeAt(0)).concat([3, 0, 0, 0, 1, 2, 3, 0]));
    const longer = new Uint8Array([...wav.subarray(0, 36), ...list, ...wav.subarray(36)]);
    assert.equal(wavInfo(longer).seconds, 0.1);
  });

  it('should read a sliced view at its own offset', () => {
    const wav = encodeWav(new Float32Array(1600));
    const padded = new Uint8Array(wav.length + 10);
    padded.set(wav, 10);
    assert.equal(wavInfo(padded.subarray(10)).seconds, 0.1);
  });

  for (const [name, bytes] of /** @type {[string, Uint8Array][]} */ ([
    ['nothing', new Uint8Array(0)],
    ['an MP3 frame', new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
    ['a RIFF that is not WAVE', new TextEncoder().encode('RIFF\x04\x00\x00\x00AVI ')],
    ['a WAVE without chunks', new TextEncoder().encode('RIFF\x04\x00\x00\x00WAVE')],
  ])) {
    it(`should refuse ${name} with an error that says it is not a WAV`, () => {
      assert.throws(() => wavInfo(bytes), /not a (usable )?WAV/);
    });
  }

  it('should refuse data that comes before any fmt chunk', () => {
    const bytes = new TextEncoder().encode('RIFF\x0c\x00\x00\x00WAVEdata\x00\x00\x00\x00');
    assert.throws(() => wavInfo(bytes), /no fmt chunk/);
  });
});
