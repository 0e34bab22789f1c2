/**
 * Start recording from the microphone; resolve with `{ stop, done }` once it records. Call it
 * from a click. Rejects when the microphone is refused or missing, or `signal` aborted first.
 *
 * @param {import('./types.js').RecordOptions} [options]
 * @returns {Promise<import('./types.js').Recording>}
 */
export function record({ maxSeconds, silenceSeconds, onLevel, onTick, signal, constraints }?: import("./types.js").RecordOptions): Promise<import("./types.js").Recording>;
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
    /**
     * @param {{ sampleRate: number, maxSeconds?: number, silenceSeconds?: number, speechLevel?: number,
     *   marginSeconds?: number }} options
     */
    constructor({ sampleRate, maxSeconds, silenceSeconds, speechLevel, marginSeconds }: {
        sampleRate: number;
        maxSeconds?: number;
        silenceSeconds?: number;
        speechLevel?: number;
        marginSeconds?: number;
    });
    sampleRate: number;
    maxSeconds: number;
    speechLevel: number;
    silence: number;
    margin: number;
    input: Float32Array<ArrayBuffer>;
    resampler: {
        length: (n: number) => number;
        ready: (n: number) => number;
        run(input: Float32Array, n: number, output: Float32Array, start: number, end: number): void;
    };
    output: Float32Array<ArrayBuffer>;
    /**
     * Take a block; return its level (0..1 for -60..0 dBFS), the whole seconds left before the
     * cap, and why to stop now (once), or null.
     *
     * @param {Float32Array} block
     * @returns {{ level: number, secondsLeft: number, stop: StopReason | null }}
     */
    push(block: Float32Array): {
        level: number;
        secondsLeft: number;
        stop: StopReason | null;
    };
    /**
     * Return the clip so far as a 16 kHz WAV, its length measured from the WAV as the wallet will:
     * the sound with its margins, or the whole recording when nothing reached the speech level.
     *
     * @param {StopReason} stoppedBy
     * @returns {Clip}
     */
    finish(stoppedBy: StopReason): Clip;
    #private;
}
export type Clip = import("./types.js").Clip;
export type StopReason = import("./types.js").StopReason;
