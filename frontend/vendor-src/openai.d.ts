// Types of vendor/openai.js for the type check: the bundle is the published SDK.
export { default as OpenAI } from 'openai';
