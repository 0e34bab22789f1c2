// @ts-check
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';

import { ClipAssembler, record } from '../../byoa/recorder.js';
import { resample, wavInfo } from '../../byoa/wav.js';

/** `seconds` of a sine of `hz` at `rate` (amplitude 0.3, well above the speech level). */
function tone(/** @type {number} */ hz, /** @type {number} */ rate, /** @type {number} */ seconds, amp = 0.3) {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amp * Math.sin(2 * Math.PI * hz * i / rate);
  return out;
}

/** Split `samples` into the worklet's 1024-frame blocks. */
function* blocks(/** @type {Float32Array} */ samples, size = 1024) {
  for (let at = 0; at < samples.length; at += size) yield samples.slice(at, at + size);
}

/** Feed `samples` block by block; return every push's answer. */
function feed(/** @type {ClipAssembler} */ clip, /** @type {Float32Array} */ samples) {
  return [...blocks(samples)].map((block) => clip.push(block));
}

/** Join Float32Arrays. */
function join(/** @type {Float32Array[]} */ ...parts) {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

describe('ClipAssembler', () => {
  for (const rate of [48000, 44100]) {
    it(`should make a 16 kHz clip as long as the ${rate} Hz recording, by its samples and its WAV`, () => {
      const clip = new ClipAssembler({ sampleRate: rate });
      feed(clip, tone(440, rate, 2));
      const result = clip.finish('button');
      assert.equal(result.samples.length, 32000);
      assert.equal(result.seconds, 2);
      assert.deepEqual(wavInfo(result.wav), { sampleRate: 16000, channels: 1, bitsPerSample: 16, seconds: 2 });
      assert.equal(result.stoppedBy, 'button');
    });
  }

  it('should resample while recording to exactly what resampling the whole recording gives', () => {
    const input = join(tone(440, 44100, 1.3), tone(3000, 44100, 0.7, 0.1));
    const clip = new ClipAssembler({ sampleRate: 44100 });
    feed(clip, input);
    assert.deepEqual(clip.finish('button').samples, resample(input, 44100));
  });

  it('should keep the tone a tone: the WAV holds 440 Hz, not 1320 Hz (samples left at 48 kHz)', () => {
    const clip = new ClipAssembler({ sampleRate: 48000 });
    feed(clip, tone(440, 48000, 1));
    const { wav } = clip.finish('button');
    const pcm = new Int16Array(wav.buffer.slice(44));
    let crossings = 0;
    for (let i = 1; i < pcm.length; i++) if ((pcm[i - 1] < 0) !== (pcm[i] < 0)) crossings++;
    assert.ok(Math.abs(crossings - 880) <= 2, `crossings ${crossings}`);
  });

  for (const rate of [48000, 44100]) {
    it(`should stop at the 15 s cap of a 17 s recording at ${rate} Hz and cut the clip there`, () => {
      const clip = new ClipAssembler({ sampleRate: rate });
      const answers = feed(clip, tone(440, rate, 17));
      const stops = answers.map((a, i) => [i, a.stop]).filter(([, stop]) => stop);
      assert.deepEqual(stops, [[Math.ceil(15 * rate / 1024) - 1, 'cap']], 'one stop, on the block that reaches 15 s');
      const result = clip.finish('cap');
      assert.equal(result.seconds, 15);
      assert.equal(result.samples.length, 15 * 16000);
      assert.equal(wavInfo(result.wav).seconds, 15);
    });
  }

  it('should honour a shorter cap', () => {
    const clip = new ClipAssembler({ sampleRate: 48000, maxSeconds: 3 });
    feed(clip, tone(440, 48000, 4));
    assert.equal(clip.finish('cap').seconds, 3);
  });

  it('should stop after silenceSeconds of silence that follows speech', () => {
    const rate = 48000;
    const clip = new ClipAssembler({ sampleRate: rate, silenceSeconds: 1.5 });
    const answers = feed(clip, join(tone(440, rate, 1), new Float32Array(rate * 3)));
    const at = answers.findIndex((a) => a.stop === 'silence');
    const seconds = ((at + 1) * 1024) / rate;
    assert.ok(seconds >= 2.5 && seconds < 2.5 + 1024 / rate, `stopped at ${seconds} s`);
    assert.equal(answers.filter((a) => a.stop).length, 1);
  });

  it('should keep the sound and half a second either side of it, not the silence around it', () => {
    const rate = 48000;
    const clip = new ClipAssembler({ sampleRate: rate });
    feed(clip, join(new Float32Array(rate * 2), tone(440, rate, 1), new Float32Array(rate * 3)));
    const result = clip.finish('silence');
    assert.ok(Math.abs(result.samples.length - 2 * 16000) <= 2, `${result.samples.length} samples`); // from the first sample over the level
    assert.ok(Math.max(...result.samples.slice(0, 7900).map(Math.abs)) < 1e-3, 'the margin before it is silent');
  });

  it('should give the same sound the same clip to the byte, however the recording and its blocks fell around it', () => {
    const rate = 44100;
    const sound = join(tone(440, rate, 0.4), new Float32Array(rate / 5), tone(660, rate, 0.3, 0.2));
    const wavs = [0, 333, 1024, 7777].map((shift) => {
      const clip = new ClipAssembler({ sampleRate: rate });
      feed(clip, join(new Float32Array(rate + shift), sound, new Float32Array(rate * 2 + shift)));
      return clip.finish('silence').wav;
    });
    for (const wav of wavs.slice(1)) assert.deepEqual(wav, wavs[0]);
    assert.ok(Math.abs(wavInfo(wavs[0]).seconds - 1.9) < 1e-3, `${wavInfo(wavs[0]).seconds} s`);
  });

  it('should keep the whole recording when nothing in it reached the speech level', () => {
    const clip = new ClipAssembler({ sampleRate: 48000 });
    feed(clip, tone(440, 48000, 2, 0.005));
    assert.equal(clip.finish('button').seconds, 2);
  });

  it('should not stop for silence before any speech', () => {
    const clip = new ClipAssembler({ sampleRate: 48000 });
    assert.ok(feed(clip, new Float32Array(48000 * 5)).every((a) => a.stop === null));
  });

  it('should not stop for a pause shorter than silenceSeconds, and count the silence anew after it', () => {
    const rate = 48000;
    const clip = new ClipAssembler({ sampleRate: rate, silenceSeconds: 1.5 });
    const speech = tone(440, rate, 0.5);
    const answers = feed(clip, join(speech, new Float32Array(rate), speech, new Float32Array(rate), speech));
    assert.ok(answers.every((a) => a.stop === null));
  });

  it('should count quiet noise (below the speech level) as silence', () => {
    const rate = 48000;
    const clip = new ClipAssembler({ sampleRate: rate });
    const hiss = tone(5000, rate, 2, 0.005);
    assert.ok(feed(clip, join(tone(440, rate, 0.5), hiss)).some((a) => a.stop === 'silence'));
  });

  it('should meter the level from 0 (silence, -60 dBFS) to 1 (full scale)', () => {
    const clip = new ClipAssembler({ sampleRate: 48000 });
    const level = (/** @type {number} */ amp) => clip.push(tone(1000, 48000, 0.0213, amp)).level;
    assert.equal(clip.push(new Float32Array(1024)).level, 0);
    assert.ok(level(0.0001) === 0);
    assert.ok(Math.abs(level(Math.SQRT2 * 0.1) - 2 / 3) < 0.01, 'an RMS of -20 dBFS is two thirds up');
    assert.ok(Math.abs(level(Math.SQRT2) - 1) < 0.01);
    assert.ok(level(0.01) < level(0.1) && level(0.1) < level(0.5));
  });

  it('should count the whole seconds left before the cap', () => {
    const rate = 48000;
    const clip = new ClipAssembler({ sampleRate: rate });
    const left = feed(clip, tone(440, rate, 15)).map((a) => a.secondsLeft);
    assert.equal(left[0], 15);
    assert.equal(left[Math.floor(rate / 1024) + 1], 14);
    assert.equal(left.at(-1), 0);
    assert.deepEqual([...new Set(left)], Array.from({ length: 16 }, (_, i) => 15 - i));
  });

  it('should keep nothing pushed after the cap', () => {
    const clip = new ClipAssembler({ sampleRate: 16000, maxSeconds: 1 });
    feed(clip, tone(440, 16000, 1));
    const after = clip.push(new Float32Array(1024).fill(0.9));
    assert.equal(after.stop, null);
    assert.equal(clip.finish('cap').samples.length, 16000);
  });

  it('should make an empty clip when stopped before any sample', () => {
    const result = new ClipAssembler({ sampleRate: 48000 }).finish('button');
    assert.equal(result.seconds, 0);
    assert.equal(wavInfo(result.wav).seconds, 0);
  });
});

describe('recorder-worklet.js', () => {
  /** @type {any} */
  let Processor;
  /** @type {string | undefined} */
  let registeredName;

  beforeEach(async () => {
    if (Processor) return;
    const scope = /** @type {any} */ (globalThis);
    scope.AudioWorkletProcessor = class { port = { posted: /** @type {Float32Array[]} */ ([]), postMessage(/** @type {Float32Array} */ data) { this.posted.push(data); } }; };
    scope.registerProcessor = (/** @type {string} */ name, /** @type {any} */ cls) => { registeredName = name; Processor = cls; };
    await import('../../byoa/recorder-worklet.js');
    delete scope.AudioWorkletProcessor;
    delete scope.registerProcessor;
  });

  it("should register 'byoa-recorder'", () => {
    assert.equal(registeredName, 'byoa-recorder');
  });

  it('should post the samples in order, in batches of 1024 frames, and keep running', () => {
    const node = new Processor();
    const input = tone(440, 48000, 0.1);
    const quanta = [...blocks(input, 128)];
    assert.ok(quanta.every((q) => node.process([[q]]) === true));
    const posted = join(...node.port.posted);
    assert.ok(node.port.posted.every((/** @type {Float32Array} */ b) => b.length === 1024));
    assert.deepEqual(posted, input.subarray(0, posted.length));
    assert.equal(posted.length, Math.floor(input.length / 1024) * 1024);
  });

  it('should take an input with no channels (nothing connected yet)', () => {
    const node = new Processor();
    assert.equal(node.process([[]]), true);
    assert.equal(node.process([]), true);
    assert.equal(node.port.posted.length, 0);
  });
});

/** Fake browser audio: getUserMedia, AudioContext, AudioWorkletNode, recording what is done. */
/** @param {{ rate?: number, microphoneRate?: number, refuseMicrophone?: boolean, failWorklet?: boolean }} [options] */
function installFakeAudio({ rate = 48000, microphoneRate, refuseMicrophone = false, failWorklet = false } = {}) {
  const log = {
    /** @type {any[]} */ contexts: [],
    /** @type {any[]} */ asked: [],
    /** @type {string[]} */ modules: [],
    /** @type {any[]} */ nodes: [],
    stoppedTracks: 0,
    closed: 0,
    disconnected: 0,
  };
  const track = Object.assign(new EventTarget(), {
    stop: () => { log.stoppedTracks++; },
    getSettings: () => (microphoneRate ? { sampleRate: microphoneRate } : {}),
  });
  const stream = { getTracks: () => [track], getAudioTracks: () => [track] };
  const node = () => ({ connect: (/** @type {any} */ to) => to, disconnect: () => { log.disconnected++; } });
  const scope = /** @type {any} */ (globalThis);
  Object.defineProperty(globalThis, 'navigator', {
    configurable: true,
    value: {
      mediaDevices: {
        getUserMedia: async (/** @type {any} */ constraints) => {
          log.asked.push(constraints);
          if (refuseMicrophone) throw new DOMException('Permission denied', 'NotAllowedError');
          return stream;
        },
      },
    },
  });
  scope.AudioContext = class {
    /** @param {{ sampleRate?: number }} options */
    constructor(options) {
      log.contexts.push(options);
      this.sampleRate = options.sampleRate ?? rate;
    }
    state = 'running';
    destination = node();
    audioWorklet = {
      addModule: async (/** @type {URL} */ url) => {
        log.modules.push(String(url));
        if (failWorklet) throw new DOMException('Unable to load a worklet', 'AbortError');
      },
    };
    createMediaStreamSource() { return node(); }
    async close() { log.closed++; }
  };
  scope.AudioWorkletNode = class {
    /** @param {any} context @param {string} name @param {any} options */
    constructor(context, name, options) {
      Object.assign(this, node(), { name, options, port: { onmessage: /** @type {any} */ (null) } });
      log.nodes.push(this);
    }
  };
  /** Send a block from the worklet. */
  const post = (/** @type {Float32Array} */ block) => log.nodes[0].port.onmessage?.({ data: block });
  return { log, track, post };
}

describe('record', () => {
  afterEach(() => {
    const scope = /** @type {any} */ (globalThis);
    delete scope.navigator;
    delete scope.AudioContext;
    delete scope.AudioWorkletNode;
  });

  it('should ask for the raw microphone: no gain control, echo cancellation or noise suppression', async () => {
    const { log } = installFakeAudio();
    const recording = await record({ constraints: { deviceId: 'mic-2' } });
    recording.stop();
    await recording.done;
    assert.deepEqual(log.asked, [{
      audio: { channelCount: 1, autoGainControl: false, echoCancellation: false, noiseSuppression: false, deviceId: 'mic-2' },
    }]);
  });

  it('should load its worklet beside recorder.js and record mono through it', async () => {
    const { log } = installFakeAudio();
    (await record()).stop();
    assert.deepEqual(log.modules, [new URL('../../byoa/recorder-worklet.js', import.meta.url).href]);
    assert.equal(log.nodes[0].name, 'byoa-recorder');
    assert.deepEqual(log.nodes[0].options, { channelCount: 1, channelCountMode: 'explicit' });
  });

  it("should open the audio context at the microphone's own rate, or the browser's when it gives none", async () => {
    const { log } = installFakeAudio({ microphoneRate: 44100 });
    (await record()).stop();
    assert.deepEqual(log.contexts, [{ sampleRate: 44100 }]);
    const other = installFakeAudio();
    (await record()).stop();
    assert.deepEqual(other.log.contexts, [{}]);
  });

  it('should resolve the stop button with the clip and release the microphone and the audio context', async () => {
    const { log, post } = installFakeAudio({ rate: 44100 });
    const recording = await record();
    for (const block of blocks(tone(440, 44100, 1))) post(block);
    recording.stop();
    const clip = await recording.done;
    assert.equal(clip.stoppedBy, 'button');
    assert.equal(clip.seconds, 1);
    assert.equal(wavInfo(clip.wav).seconds, clip.seconds);
    assert.deepEqual([log.stoppedTracks, log.closed, log.disconnected], [1, 1, 2]);
    recording.stop(); // a second press changes nothing
    assert.deepEqual([log.stoppedTracks, log.closed], [1, 1]);
  });

  it('should report levels and a countdown, and stop by itself at the cap', async () => {
    const { post } = installFakeAudio();
    const levels = mock.fn();
    /** @type {number[]} */
    const ticks = [];
    const recording = await record({ maxSeconds: 3, onLevel: levels, onTick: (s) => ticks.push(s) });
    for (const block of blocks(tone(440, 48000, 4))) post(block);
    const clip = await recording.done;
    assert.equal(clip.stoppedBy, 'cap');
    assert.equal(clip.seconds, 3);
    assert.deepEqual(ticks, [3, 2, 1, 0]);
    assert.equal(levels.mock.callCount(), Math.ceil(3 * 48000 / 1024), 'one level a block, none after the stop');
  });

  it('should stop by itself after silence that follows speech', async () => {
    const { post } = installFakeAudio();
    const recording = await record({ silenceSeconds: 1 });
    for (const block of blocks(join(tone(440, 48000, 1), new Float32Array(48000 * 2)))) post(block);
    assert.equal((await recording.done).stoppedBy, 'silence');
  });

  it('should end as an abort when the signal aborts or the microphone goes away', async () => {
    const first = installFakeAudio();
    const controller = new AbortController();
    const aborted = await record({ signal: controller.signal });
    controller.abort();
    assert.equal((await aborted.done).stoppedBy, 'abort');
    assert.equal(first.log.stoppedTracks, 1);

    const second = installFakeAudio();
    const unplugged = await record();
    second.track.dispatchEvent(new Event('ended'));
    assert.equal((await unplugged.done).stoppedBy, 'abort');
  });

  it('should reject when the visitor refuses the microphone', async () => {
    const { log } = installFakeAudio({ refuseMicrophone: true });
    await assert.rejects(record(), { name: 'NotAllowedError' });
    assert.equal(log.modules.length, 0);
  });

  it('should reject and release the microphone when the worklet does not load', async () => {
    const { log } = installFakeAudio({ failWorklet: true });
    await assert.rejects(record(), { name: 'AbortError' });
    assert.deepEqual([log.stoppedTracks, log.closed], [1, 1]);
  });

  it('should reject without asking for the microphone when the signal is already aborted', async () => {
    const { log } = installFakeAudio();
    await assert.rejects(record({ signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(log.asked.length, 0);
  });
});
