// @ts-check
// The recorder's audio-thread half: pass the microphone's samples to recorder.js in transferred
// batches of 1024 frames (about 21 ms). The node's channelCount is 1: the graph mixes to mono.
const { AudioWorkletProcessor, registerProcessor } = /** @type {any} */ (globalThis);

registerProcessor('byoa-recorder', class extends AudioWorkletProcessor {
  batch = new Float32Array(1024);
  used = 0;

  /** @param {Float32Array[][]} inputs The first input's first channel is the microphone. */
  process(inputs) {
    const samples = inputs[0]?.[0];
    for (let at = 0; samples && at < samples.length;) {
      const n = Math.min(samples.length - at, 1024 - this.used);
      this.batch.set(samples.subarray(at, at += n), this.used);
      if ((this.used += n) === 1024) {
        this.port.postMessage(this.batch, [this.batch.buffer]);
        this.batch = new Float32Array(1024);
        this.used = 0;
      }
    }
    return true;
  }
});
