// @ts-check
/**
 * One clip from the microphone for `audio.transcribe`: an AudioWorklet (recorder-worklet.js;
 * never the deprecated ScriptProcessorNode) hands over the samples and `ClipAssembler` keeps,
 * meters and resamples them and decides when to stop.
 */

import { encodeWav, resampler, wavInfo } from './wav.js';

/** @typedef {import('./types.js').Clip} Clip */
/** @typedef {import('./types.js').StopReason} StopReason */

/**
 * A recording's samples at the audio context's rate, taken block by block: it stops at the cap
 * or after silence that follows speech (a block's RMS under `speechLevel`, -40 dBFS), and
 * resamples to 16 kHz as blocks come, so that little is left to do at the end. No audio API.
 *
 * The clip keeps the sound and a margin around it (`marginSeconds`): it starts that long before
 * the first sample at the speech level and ends that long after the last. The visitor's AI gets
 * no long silence, and the same sound gives the same clip, to the sample, however the blocks fell
 * and whenever the recording started or stopped around it (what a recorded answer is matched by).
 */
export class ClipAssembler {
  #count = 0;
  #done = 0; // outputs resampled so far
  #quiet = 0; // samples of silence since the last speech
  #heard = false;
  #stopped = false;
  #start = -1; // where the clip starts in the input: -1 until a sample reaches the speech level
  #last = 0; // just after the last sample at the speech level

  /**
   * @param {{ sampleRate: number, maxSeconds?: number, silenceSeconds?: number, speechLevel?: number,
   *   marginSeconds?: number }} options
   */
  constructor({ sampleRate, maxSeconds = 15, silenceSeconds = 1.5, speechLevel = 0.01, marginSeconds = 0.5 }) {
    this.sampleRate = sampleRate;
    this.maxSeconds = maxSeconds;
    this.speechLevel = speechLevel;
    this.silence = silenceSeconds * sampleRate; // in samples
    this.margin = Math.round(marginSeconds * sampleRate);
    this.input = new Float32Array(Math.floor(maxSeconds * sampleRate)); // the cap: nothing after it is kept
    this.resampler = resampler(sampleRate);
    this.output = new Float32Array(this.resampler.length(this.input.length));
  }

  /**
   * Take a block; return its level (0..1 for -60..0 dBFS), the whole seconds left before the
   * cap, and why to stop now (once), or null.
   *
   * @param {Float32Array} block
   * @returns {{ level: number, secondsLeft: number, stop: StopReason | null }}
   */
  push(block) {
    const kept = this.#stopped ? 0 : Math.min(block.length, this.input.length - this.#count);
    this.input.set(block.subarray(0, kept), this.#count);
    for (let i = 0; i < kept; i++) {
      if (Math.abs(block[i]) < this.speechLevel) continue;
      if (this.#start < 0) this.#start = Math.max(0, this.#count + i - this.margin);
      this.#last = this.#count + i + 1;
    }
    this.#count += kept;
    const rms = Math.sqrt(block.reduce((sum, x) => sum + x * x, 0) / block.length) || 0;
    if (rms >= this.speechLevel) [this.#heard, this.#quiet] = [true, 0];
    else if (this.#heard) this.#quiet += kept;
    /** @type {StopReason | null} */
    const stop = this.#stopped ? null
      : this.#count === this.input.length ? 'cap' : this.#heard && this.#quiet >= this.silence ? 'silence' : null;
    this.#stopped ||= !!stop;
    if (this.#start >= 0) {
      const clip = this.input.subarray(this.#start, this.#count);
      const ready = this.resampler.ready(clip.length);
      this.resampler.run(clip, clip.length, this.output, this.#done, ready);
      this.#done = Math.max(this.#done, ready);
    }
    return {
      level: Math.min(1, Math.max(0, 1 + Math.log10(rms) / 3)),
      secondsLeft: Math.ceil((this.input.length - this.#count) / this.sampleRate),
      stop,
    };
  }

  /**
   * Return the clip so far as a 16 kHz WAV, its length measured from the WAV as the wallet will:
   * the sound with its margins, or the whole recording when nothing reached the speech level.
   *
   * @param {StopReason} stoppedBy
   * @returns {Clip}
   */
  finish(stoppedBy) {
    const start = Math.max(0, this.#start);
    const end = this.#start < 0 ? this.#count : Math.min(this.#count, this.#last + this.margin);
    const clip = this.input.subarray(start, end);
    const length = this.resampler.length(clip.length);
    // The outputs that reached past the clip's end while recording are made again without it.
    this.resampler.run(clip, clip.length, this.output, Math.min(this.#done, this.resampler.ready(clip.length)), length);
    const samples = this.output.slice(0, length);
    const wav = encodeWav(samples);
    const { seconds } = wavInfo(wav);
    if (seconds > this.maxSeconds) throw new RangeError(`the clip is ${seconds} s, over the ${this.maxSeconds} s cap`);
    return { wav, samples, seconds, stoppedBy };
  }
}

/**
 * Start recording from the microphone; resolve with `{ stop, done }` once it records. Call it
 * from a click. Rejects when the microphone is refused or missing, or `signal` aborted first.
 *
 * @param {import('./types.js').RecordOptions} [options]
 * @returns {Promise<import('./types.js').Recording>}
 */
export async function record({ maxSeconds = 15, silenceSeconds = 1.5, onLevel, onTick, signal, constraints } = {}) {
  signal?.throwIfAborted();
  // The raw signal: the browser's processing pumps up noise and clips word endings.
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, autoGainControl: false, echoCancellation: false, noiseSuppression: false, ...constraints },
  });
  /** @type {AudioContext | undefined} */
  let context;
  const release = () => {
    stream.getTracks().forEach((track) => track.stop());
    context?.close().catch(() => {});
  };
  try {
    // At the microphone's own rate where the browser says it: the clip is resampled once, to 16 kHz
    // below, rather than first by the browser to the speakers' rate too.
    const rate = stream.getAudioTracks()[0]?.getSettings().sampleRate;
    context = new AudioContext(rate ? { sampleRate: rate } : {});
    await context.audioWorklet.addModule(new URL('./recorder-worklet.js', import.meta.url));
    signal?.throwIfAborted();
  } catch (error) {
    release();
    throw error;
  }
  const audio = context;
  const source = audio.createMediaStreamSource(stream);
  const node = new AudioWorkletNode(audio, 'byoa-recorder', { channelCount: 1, channelCountMode: 'explicit' });
  const clip = new ClipAssembler({ sampleRate: audio.sampleRate, maxSeconds, silenceSeconds });
  let left = Math.ceil(maxSeconds);
  /** @type {(reason: StopReason) => void} */
  let end = () => {};
  /** @type {Promise<Clip>} */
  const done = new Promise((resolve, reject) => {
    end = (reason) => {
      end = () => {};
      node.port.onmessage = null;
      source.disconnect();
      node.disconnect();
      signal?.removeEventListener('abort', abort);
      release();
      try { resolve(clip.finish(reason)); } catch (error) { reject(error); }
    };
  });
  const abort = () => end('abort');
  node.port.onmessage = ({ data }) => {
    const { level, secondsLeft, stop } = clip.push(data);
    onLevel?.(level);
    if (secondsLeft !== left) onTick?.(left = secondsLeft);
    if (stop) end(stop);
  };
  // The worklet writes no sound; the link to the speakers keeps it pulled in every browser.
  source.connect(node).connect(audio.destination);
  stream.getAudioTracks().forEach((track) => track.addEventListener('ended', abort)); // unplugged
  signal?.addEventListener('abort', abort);
  onTick?.(left);
  // Not awaited: with the microphone open it runs; a resume waiting for a click must not hold up stop().
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  return { stop: () => end('button'), done };
}
