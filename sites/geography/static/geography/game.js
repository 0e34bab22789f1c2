// @ts-check
/**
 * The voice geography game in the page. Three ways to answer, one at a time, each named on
 * the page while it is in use: by voice through the BYOA extension, by voice through the
 * direct link (the server calls the visitor's wallet), or by typing (own mode), which is
 * always there and where every "no" or failed call lands.
 *
 * The page sends only text (or, on the link, the clip) and shows the server's verdict: it
 * never holds the expected answer or the score. What the AI heard is shown as text only.
 */

import { findByoa } from '../byoa/discovery.js';
import { callSkill, releaseOnPageHide, requestGrant } from '../byoa/extension.js';
import { csrfToken, showLinkedWallet, startLink } from '../byoa/link.js';
import { CallLimiter } from '../byoa/ratelimit.js';
// The recorder (and its WAV encoder) loads on the visitor's first "Speak": a page that is
// answered by typing never fetches it.
const recorder = () => import('../byoa/recorder.js');
const wav = () => import('../byoa/wav.js');

/** @typedef {import('../byoa/types.js').ByoaProvider} ByoaProvider */
/** @typedef {import('../byoa/types.js').Clip} Clip */
/** @typedef {'own' | 'extension' | 'link'} Mode */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// The manifest.json the server shows above, embedded with json_script: the page asks for exactly that.
const MANIFEST = JSON.parse(/** @type {string} */ ($('byoa-manifest').textContent));
const MAX_CLIP_SECONDS = MANIFEST.purpose.limits.maxClipSeconds;
const MAX_ANSWER_CHARS = 200;
const limiter = new CallLimiter(MANIFEST.purpose.limits.maxCallsPerMinute);
const urls = /** @type {DOMStringMap} */ ($('game').dataset);
const language = /** @type {HTMLSelectElement} */ ($('language'));

/** @type {Record<Mode, string>} */
const MODES = {
  own: 'Answering by typing (own mode)',
  extension: 'Answering by voice with your AI, through the BYOA extension',
  link: 'Answering by voice with your AI, through the direct link',
};

/** @type {ByoaProvider | null} */
let provider = null;
/** @type {{ grantId: string } | null} */
let grant = null;
/** @type {Mode} */
let mode = 'own';

// --- how this page works: start
// 1. With the extension: ask for the manifest's skill on the click, then one call per clip.
$('voice').addEventListener('click', async () => {
  provider ??= await findByoa();
  if (!provider) return useOwnMode('There is no BYOA extension in this browser. Type your answer, or use the link.');
  say('Asking your AI… (your wallet asks you first)');
  grant = await requestGrant(provider, MANIFEST);      // from the click: the wallet shows its consent
  if (!grant) return useOwnMode('Your AI is not available. Type your answer instead.');
  releaseOnPageHide(provider, grant.grantId);
  useVoice('extension');
});

/** @param {Clip} clip @returns {Promise<string | null>} what the visitor's AI heard, or null */
async function transcribeInPage(clip) {
  if (!provider || !grant) return null;
  const { toBase64 } = await wav();
  const result = await callSkill(provider, grant.grantId, 'audio.transcribe',
    { audio: { mime: 'audio/wav', base64: toBase64(clip.wav) } },
    { language: language.value });                      // 'en', 'ru' or 'sk', as the visitor chose
  return result.ok && typeof result.output.text === 'string' ? result.output.text : null;
}

// 2. Without the extension: a link pairs the visitor's wallet with this site; the server calls it.
$('wallet-link').addEventListener('click', async () => {
  showLinkState('Waiting for your wallet…');
  const outcome = await startLink({ manifest: 'geography', onLink: showLink, onTick: showCountdown, onConnected });
  showLinkState(outcome === 'connected' ? 'Connected.' : 'Your wallet did not connect.');
  if (outcome === 'connected') useVoice('link');
  else useOwnMode('Type your answer instead.');
});

/**
 * Show which wallet came, and a way to end it: the visitor may have opened someone else's link.
 * @param {import('../byoa/types.js').LinkedWallet} linked
 */
function onConnected(linked) {
  showLinkedWallet($('linked-wallet'), linked, {
    onDisconnected: () => useOwnMode('Your wallet is disconnected. Type your answer instead.'),
  });
}

/** @param {Clip} clip the server has the paired wallet transcribe it, and judges the text */
function transcribeOnServer(clip) {
  return post(/** @type {string} */ (urls.clipUrl), clip.wav, 'audio/wav');
}
// --- how this page works: end

// -- Modes -------------------------------------------------------------------------------

/** @param {string} [why] */
function useOwnMode(why) {
  setMode('own');
  if (why) say(why);
}

/** @param {Mode} next */
function useVoice(next) {
  setMode(next);
  say('');
}

/** @param {Mode} next */
function setMode(next) {
  mode = next;
  $('mode').dataset.mode = next;
  $('mode').textContent = MODES[next];
  $('recorder').hidden = next === 'own';
}

// -- Recording and sending a clip --------------------------------------------------------

$('speak').addEventListener('click', async () => {
  const speak = /** @type {HTMLButtonElement} */ ($('speak'));
  speak.disabled = true;
  say('');
  let clip;
  try {
    const { record } = await recorder();
    const recording = await record({
      maxSeconds: MAX_CLIP_SECONDS,
      onLevel: (level) => { /** @type {HTMLMeterElement} */ ($('level')).value = level; },
      onTick: (left) => { $('clip-countdown').textContent = `${left} s left`; },
    });
    $('stop').hidden = false;
    $('stop').onclick = () => recording.stop();
    $('clip-countdown').dataset.recording = 'true';
    clip = await recording.done;
  } catch {
    speak.disabled = false;
    return useOwnMode('The microphone is not available. Type your answer instead.');
  } finally {
    $('stop').hidden = true;
    delete $('clip-countdown').dataset.recording;
    $('clip-countdown').textContent = '';
  }
  performance.mark('geography:clip-end');
  $('clip-info').textContent = `Clip: ${clip.seconds.toFixed(2)} s${clip.stoppedBy === 'cap' ? ` (stopped at the ${MAX_CLIP_SECONDS} s limit)` : ''}`;
  $('clip-info').dataset.seconds = String(clip.seconds);
  if (clip.seconds > MAX_CLIP_SECONDS || clip.seconds === 0) {
    speak.disabled = false;
    return say(clip.seconds ? `Clips are at most ${MAX_CLIP_SECONDS} s; this one was not sent.` : 'Nothing was recorded. Try again.');
  }
  await send(clip);
  speak.disabled = false;
});

/**
 * Send a clip the way the current mode does, within the manifest's calls per minute: when there
 * is no room the visitor is told to wait, and the clip goes once there is.
 * @param {Clip} clip
 */
async function send(clip) {
  for (let wait = limiter.take(); wait > 0; wait = limiter.take()) {
    say(`Wait ${Math.ceil(wait / 1000)} s: this game may use your AI ${limiter.max} times a minute. Your answer is kept and goes then.`);
    $('notice').dataset.waiting = 'true';
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  delete $('notice').dataset.waiting;
  say('Listening to your answer…');
  if (mode === 'extension') {
    const text = await transcribeInPage(clip);
    if (text === null) return useOwnMode('Your AI did not answer this time. Type your answer instead.');
    showHeard(text);
    return show(await post(/** @type {string} */ (urls.answerUrl), JSON.stringify({ text: text.slice(0, MAX_ANSWER_CHARS) })));
  }
  if (mode === 'link') {
    const result = await transcribeOnServer(clip);
    if (result.transcript === null) return useOwnMode(result.message);
    if (typeof result.transcript === 'string') showHeard(result.transcript);
    return show(result);
  }
  useOwnMode('Type your answer.');
}

// -- Talking to the server -----------------------------------------------------------------

/**
 * POST to the game; resolve with its JSON, or an error object the page can show.
 * @param {string} url
 * @param {BodyInit} body
 * @param {string} [type]
 * @returns {Promise<Record<string, any>>}
 */
async function post(url, body, type = 'application/json') {
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': type, Accept: 'application/json' };
  const token = csrfToken();
  if (token) headers['X-CSRFToken'] = token;
  try {
    const response = await fetch(url, { method: 'POST', body, headers, credentials: 'same-origin' });
    const answer = await response.json();
    return answer && typeof answer === 'object' ? answer : { error: 'bad-answer', message: 'The game answered oddly. Try again.' };
  } catch {
    return { error: 'network', message: 'The game could not be reached. Try again.' };
  }
}

/** Show the server's verdict and the next question. @param {Record<string, any>} result */
function show(result) {
  if (result.error) return say(result.message);
  say('');
  const verdict = $('verdict');
  if (result.verdict) {
    verdict.textContent = result.message;
    verdict.dataset.verdict = result.verdict;
    if (performance.getEntriesByName('geography:clip-end').length) {
      performance.measure('geography:clip-to-verdict', 'geography:clip-end');
      performance.clearMarks('geography:clip-end');
    }
  }
  $('round').textContent = String(result.round);
  $('score').textContent = String(result.score);
  $('question').textContent = result.finished ? `Game over: ${result.score} of ${result.rounds}.` : result.question;
  language.value = result.language;
}

/** @param {string} text what the visitor's AI heard: user input, shown as text, never as HTML */
function showHeard(text) {
  $('transcript').textContent = text;
  $('heard').hidden = false;
}

/** @param {string} text */
function say(text) {
  $('notice').textContent = text;
  $('notice').hidden = !text;
}

/** @param {string} link */
function showLink(link) {
  const a = /** @type {HTMLAnchorElement} */ ($('open-wallet'));
  a.href = link;
  a.hidden = false;
}

/** @param {number} left */
function showCountdown(left) {
  $('countdown').textContent = `${left} s`;
}

/** @param {string} text */
function showLinkState(text) {
  $('link-status').hidden = false;
  $('link-state').textContent = text;
  if (text !== 'Waiting for your wallet…') {
    $('countdown').textContent = '';
    $('open-wallet').hidden = true;
  }
}

// -- Own mode and the game's forms (they work without this script, too) ----------------------

$('type-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('answer'));
  $('heard').hidden = true;
  const result = await post(/** @type {string} */ (urls.answerUrl), JSON.stringify({ text: input.value }));
  if (!result.error) input.value = '';
  show(result);
});

$('language-submit').hidden = true;
language.addEventListener('change', async () => {
  show(await post(/** @type {string} */ (urls.languageUrl), JSON.stringify({ language: language.value })));
});

$('new-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('verdict').textContent = '';
  delete $('verdict').dataset.verdict;
  $('heard').hidden = true;
  show(await post(/** @type {string} */ (urls.newUrl), '{}'));
});

findByoa().then((found) => {
  provider ??= found;
  if (!found) $('extension-hint').textContent = 'No BYOA extension found in this browser: the link works without one.';
});
