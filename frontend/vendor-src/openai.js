// The published `openai` SDK, bundled once at set-up time (`npm run build:vendor`)
// into vendor/openai.js, because pages have no bundler. See frontend/README.md.
export { default as OpenAI } from 'openai';
