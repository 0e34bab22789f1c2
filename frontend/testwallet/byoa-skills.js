// Written by `npm run build:skills` from skills.json: edit that file, not this one.
// The test wallet's skill table for byoa.js, which takes window.__testwalletByoaSkills and removes it.
(() => {
  'use strict';
  const skills = {
    "audio.transcribe": {
      "input": "audio",
      "mime": "audio/wav",
      "wav": {
        "format": 1,
        "channels": 1,
        "rate": 16000,
        "bits": 16
      },
      "maxClipSeconds": 15,
      "params": {
        "language": "string"
      },
      "output": {
        "text": "string"
      },
      "default": "(test wallet) audio of {clipSeconds} s",
      "consent": "listen to what you say and write it down"
    },
    "text.generate": {
      "input": "messages",
      "models": true,
      "params": {
        "maxTokens": "positiveInteger",
        "choices": "strings",
        "model": "string"
      },
      "output": {
        "text": "string"
      },
      "default": "(test wallet) {prompt}",
      "consent": "answer in text"
    }
  };
  Object.defineProperty(window, '__testwalletByoaSkills', { value: skills, configurable: true });
})();
