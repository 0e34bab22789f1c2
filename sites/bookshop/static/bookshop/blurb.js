// @ts-check
// "Use the SDK you already have": the published openai SDK (bundled into
// /static/vendor/openai.js at set-up time, since pages have no bundler) answers
// through the visitor's AI Wallet via client.sdkOptions. No key, no network:
// client.fetch turns the SDK's request into a wallet chat and back.

import { AiConnect } from '../aiconnect/index.js';
import { describeFailure } from './failures.js';
import '../ui/connect-widget.js';

const article = /** @type {HTMLElement} */ (document.querySelector('article.book'));
const button = /** @type {HTMLButtonElement} */ (document.querySelector('#write-blurb'));
const output = /** @type {HTMLElement} */ (document.querySelector('#blurb'));
const errorView = /** @type {HTMLElement} */ (document.querySelector('#blurb-error'));

const client = new AiConnect();
/** @type {any} */ (document.querySelector('#connect')).client = client;
const offer = /** @type {HTMLElement} */ (document.querySelector('#blurb-offer'));
/** @type {HTMLAnchorElement} */ (offer.querySelector('a')).href = client.installUrl;
const showButton = () => {
  button.hidden = client.state.status !== 'connected';
  // No wallet in this browser: one line that says what would write it, not a panel about its absence.
  /** @type {HTMLElement} */ (document.querySelector('#connect')).hidden = client.state.status === 'noWallet';
  offer.hidden = client.state.status !== 'noWallet';
};
client.subscribe(showButton);
showButton();

button.addEventListener('click', async () => {
  button.disabled = true;
  errorView.hidden = true;
  output.textContent = '';
  const { title, author, year } = article.dataset;
  try {
    const { OpenAI } = await import('../vendor/openai.js');
    const openai = new OpenAI(client.sdkOptions);
    const stream = await openai.chat.completions.create({
      model: 'default', // the wallet answers with the model the visitor picked for this site
      stream: true,
      max_tokens: 60,
      messages: [
        { role: 'system', content: 'You write one-line book blurbs: one sentence, no spoilers, no quotes.' },
        { role: 'user', content: `Write a one-line blurb for "${title}" by ${author} (${year}).` },
      ],
    });
    for await (const chunk of stream) output.append(chunk.choices[0]?.delta?.content ?? '');
  } catch (error) {
    // The SDK raises its own error classes with the wallet's status (401, 429, 499, …).
    const status = /** @type {{ status?: number }} */ (error)?.status;
    const failure = typeof status === 'number'
      ? describeFailure({ name: 'WalletRequestError', status, message: /** @type {Error} */ (error).message })
      : describeFailure(error);
    errorView.textContent = failure.message;
    errorView.hidden = false;
  } finally {
    button.disabled = false;
  }
});
