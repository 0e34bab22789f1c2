// @ts-check
/**
 * The voice geography game in the page. Three ways to answer, one at a time, each named on
 * the page in a visitor's words while it is in use: by voice through the BYOA extension (offered
 * only once the page finds one), by voice through the direct link (the server calls the visitor's
 * wallet app), or by typing (own mode), which is always there and where every "no" or failed
 * call lands.
 *
 * The page sends only text (or, on the link, the clip) and shows the server's verdict: it
 * never holds the expected answer or the score. What the AI heard is shown as text only.
 */

import { findByoa } from '../byoa/discovery.js';
import { callSkill, releaseOnPageHide, requestGrant } from '../byoa/extension.js';
import { csrfToken } from '../byoa/csrf.js';
import { showLinkedWallet, startLink } from '../byoa/link.js';
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

// -- who listens: said truly, and once a turn ---------------------------------------------------

/**
 * Whether the extension way is the test wallet's scripted stand-in (`?testwallet=1`, DEBUG): its
 * banner is on the page and its relay settings, read as data, name no transcription server, so
 * it asks the person what they said. It is not an AI.
 */
const scriptedStandIn = (() => {
  if (!document.querySelector('.testwallet-banner')) return false;
  try {
    const relay = JSON.parse(document.getElementById('testwallet-relay')?.textContent ?? 'null');
    return !relay || !relay.transcribe;
  } catch {
    return true;
  }
})();

/** @param {Mode} way @returns {string} who listens for that way, mid-sentence */
function listener(way) {
  return way === 'extension' && scriptedStandIn ? 'the scripted stand-in (not an AI)' : 'your AI';
}

/** @param {string} words @returns {string} the words with their first letter capitalised */
const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);

/** @type {Record<Mode, string>} */
const MODES = {
  own: 'Answering by typing',
  extension: `Answering by voice with ${listener('extension')}, in this browser`,
  link: 'Answering by voice with your AI, through your wallet app',
};

/** @param {Mode} way @returns {string} who answered a turn that way, and who judged it: once a turn */
function answeredBy(way) {
  return `${way === 'own' ? 'Typed by you' : `Heard by ${listener(way)}`} · checked by the game`;
}

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
  if (!provider) return useOwnMode('Your AI is no longer in this browser. Type your answer, or use your wallet app.');
  const asked = requestGrant(provider, MANIFEST);      // from the click: the wallet shows its consent
  // The wallet answers once the visitor decided and its models are loaded: that can take seconds.
  const answer = await waitFor('Waiting for your AI: your wallet asks you first, then loads its models…', asked);
  if (answer === GAVE_UP) return void asked.then(releaseLate);  // a late grant is given back
  if (!answer) return useOwnMode('Your AI is not available. Type your answer instead.');
  grant = answer;
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
  say('');                                             // an earlier notice is no longer true
  showLinkState('');                                   // the waiting line says what is waited for
  const stop = new AbortController();                  // "stop waiting" ends the link's wait
  const outcome = await waitFor('Waiting for your wallet app to connect: open the link in it (it asks you first)…',
    startLink({ manifest: 'geography', onLink: showLink, onTick: showCountdown, onConnected, signal: stop.signal }), stop);
  if (outcome === GAVE_UP) return showLinkState('You stopped waiting for your wallet.');
  showLinkState(outcome === 'connected' ? 'Connected.' : 'Your wallet did not connect.');
  if (outcome === 'connected') useVoice('link');
  else useOwnMode('Your wallet app did not connect in time. Type your answer, or try the link again.');
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

/** @param {Clip} clip the server has the paired wallet transcribe it, and judges the text @param {AbortSignal} [signal] */
function transcribeOnServer(clip, signal) {
  return post(/** @type {string} */ (urls.clipUrl), clip.wav, 'audio/wav', signal);
}
// --- how this page works: end

// -- Waiting for the wallet ----------------------------------------------------------------

/** What `waitFor` resolves with when the visitor stopped waiting. */
const GAVE_UP = /** @type {const} */ ('gave-up');
/** @type {(() => void) | null} ends the current wait, when there is one */
let giveUp = null;

/**
 * Show that the page waits (and for what) until `work` settles or the visitor presses "Stop
 * waiting" (specs/byoa-sites.md: "Show that you are waiting"); then they play in own mode.
 *
 * @template T
 * @param {string} what
 * @param {Promise<T>} work
 * @param {AbortController} [stop] aborted when the visitor gives up
 * @returns {Promise<T | typeof GAVE_UP>}
 */
async function waitFor(what, work, stop) {
  giveUp?.();
  $('waiting-text').textContent = what;
  $('waiting').hidden = false;
  /** @type {Promise<typeof GAVE_UP>} */
  const gaveUp = new Promise((resolve) => {
    giveUp = () => {
      stop?.abort();
      resolve(GAVE_UP);
    };
  });
  try {
    return await Promise.race([work, gaveUp]);
  } finally {
    giveUp = null;
    $('waiting').hidden = true;
  }
}

$('give-up').addEventListener('click', () => {
  if (!giveUp) return;
  giveUp();
  useOwnMode('You stopped waiting: type your answer. Your AI can still be asked again.', false);
  $('answer').focus();
});

/** A grant that came after the visitor stopped waiting is given back. @param {{ grantId: string } | null} late */
function releaseLate(late) {
  if (late && provider) void Promise.resolve().then(() => provider?.release(late.grantId)).catch(() => {});
}

// -- Modes -------------------------------------------------------------------------------

/** @param {string} [why] @param {boolean} [error] whether `why` is a failure (the error colour) */
function useOwnMode(why, error = true) {
  setMode('own');
  if (why) say(why, error);
}

/** @param {Mode} next */
function useVoice(next) {
  setMode(next);
  say('');
}

/** @param {Mode} next */
function setMode(next) {
  const toVoice = next !== 'own' && mode === 'own';
  mode = next;
  $('mode').dataset.mode = next;
  $('mode').textContent = MODES[next];
  $('recorder').hidden = next === 'own';
  // Once the visitor's AI listens, Speak is the one main action: the ways in step aside.
  $('ways').hidden = next !== 'own' || finished();
  if (next !== 'own') void explainMicrophone();
  if (toVoice) {
    $('speak').focus({ preventScroll: true });
    $('speak').scrollIntoView({ block: 'nearest' });
  }
}

/** Whether this page has recorded a clip: the browser has asked for the microphone by then. */
let recorded = false;

/**
 * Say under Speak what it does with the microphone before the browser asks for it (where the clip
 * goes, that a pause ends it); once the microphone is allowed, only how a clip ends.
 */
async function explainMicrophone() {
  const ends = `It stops when you pause, or after ${MAX_CLIP_SECONDS} s.`;
  const goes = mode === 'link' ? 'and this site passes the clip to your AI' : `and the clip goes to ${listener(mode)}`;
  let allowed = recorded;
  try {
    allowed ||= (await navigator.permissions.query({ name: /** @type {PermissionName} */ ('microphone') })).state === 'granted';
  } catch {
    // No Permissions API for the microphone in this browser: explain it in full.
  }
  $('mic-note').textContent = allowed
    ? `Speak records your answer. ${ends}`
    : `Speak asks your browser for the microphone, then records your answer, ${goes}. ${ends}`;
}

/** Whether the game shown is over (then "Play again" is its one action). */
function finished() {
  return $('game').dataset.finished === 'true';
}

// -- Recording and sending a clip --------------------------------------------------------

$('speak').addEventListener('click', async () => {
  const speak = /** @type {HTMLButtonElement} */ ($('speak'));
  speak.disabled = true;
  say('');
  showHeard('');                                       // a new answer: the last one's words go
  let clip;
  try {
    const { record } = await recorder();
    const recording = await record({
      maxSeconds: MAX_CLIP_SECONDS,
      onLevel: (level) => { /** @type {HTMLMeterElement} */ ($('level')).value = level; },
      onTick: (left) => { $('clip-countdown').textContent = `${left} s left`; },
    });
    recorded = true;
    $('mic-note').textContent = 'Listening… Pause when you are done, or press Stop.';
    $('stop').hidden = false;
    $('stop').onclick = () => recording.stop();
    // Speak is disabled while it records: the keyboard's focus goes to Stop, not to the page's body.
    $('stop').focus();
    $('clip-countdown').dataset.recording = 'true';
    clip = await recording.done;
  } catch {
    speak.disabled = false;
    useOwnMode('The microphone is not available. Type your answer instead.');
    return $('answer').focus();
  } finally {
    $('stop').hidden = true;
    delete $('clip-countdown').dataset.recording;
    $('clip-countdown').textContent = '';
    if (mode !== 'own') void explainMicrophone();
    // The microphone is closed: the meter shows no level, and the next recording's starts from none.
    /** @type {HTMLMeterElement} */ ($('level')).value = 0;
  }
  performance.mark('geography:clip-end');
  /** @type {Record<string, string>} */
  const endings = { cap: ` (stopped at the ${MAX_CLIP_SECONDS} s limit)`, silence: ' (stopped when you paused)' };
  const ended = endings[clip.stoppedBy] ?? '';
  $('clip-info').textContent = `Clip: ${clip.seconds.toFixed(2)} s${ended}`;
  $('clip-info').dataset.seconds = String(clip.seconds);
  if (clip.seconds > MAX_CLIP_SECONDS || clip.seconds === 0) {
    speak.disabled = false;
    return say(clip.seconds ? `Clips are at most ${MAX_CLIP_SECONDS} s; this one was not sent.` : 'Nothing was recorded. Try again.');
  }
  await send(clip);
  speak.disabled = false;
  if (!finished() && !$('recorder').hidden) speak.focus();
});

/**
 * Send a clip the way the current mode does, within the manifest's calls per minute: when there
 * is no room the visitor is told to wait, and the clip goes once there is.
 * @param {Clip} clip
 */
async function send(clip) {
  for (let wait = limiter.take(); wait > 0; wait = limiter.take()) {
    say(`Wait ${Math.ceil(wait / 1000)} s: this game may use your AI ${limiter.max} times a minute. Your answer is kept and goes then.`, false);
    $('notice').dataset.waiting = 'true';
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  delete $('notice').dataset.waiting;
  say('');
  if (mode === 'extension') {
    const who = capital(listener('extension'));
    const text = await waitFor(`${who} is listening to your answer…`, transcribeInPage(clip));
    if (text === GAVE_UP) return;
    if (text === null) return useOwnMode(`${who} did not answer this time. Type your answer instead.`);
    showHeard(text);
    const heard = JSON.stringify({ text: text.slice(0, MAX_ANSWER_CHARS), heard: true });
    return show(await post(/** @type {string} */ (urls.answerUrl), heard), 'extension');
  }
  if (mode === 'link') {
    const stop = new AbortController();
    const result = await waitFor('Your AI is listening to your answer (through the link)…', transcribeOnServer(clip, stop.signal), stop);
    if (result === GAVE_UP) return;
    if (result.transcript === null) return useOwnMode(result.message);
    if (typeof result.transcript === 'string') showHeard(result.transcript);
    return show(result, 'link');
  }
  useOwnMode('Type your answer.', false);
}

// -- Talking to the server -----------------------------------------------------------------

/**
 * POST to the game; resolve with its JSON, or an error object the page can show.
 * @param {string} url
 * @param {BodyInit} body
 * @param {string} [type]
 * @param {AbortSignal} [signal]
 * @returns {Promise<Record<string, any>>}
 */
async function post(url, body, type = 'application/json', signal) {
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': type, Accept: 'application/json' };
  const token = csrfToken();
  if (token) headers['X-CSRFToken'] = token;
  try {
    const response = await fetch(url, { method: 'POST', body, headers, credentials: 'same-origin', signal });
    const answer = await response.json();
    return answer && typeof answer === 'object' ? answer : { error: 'bad-answer', message: 'The game answered oddly. Try again.' };
  } catch {
    return { error: 'network', message: 'The game could not be reached. Try again.' };
  }
}

/**
 * Show the server's verdict (with the question it answers and who answered it) and the next question.
 * @param {Record<string, any>} result
 * @param {Mode} [way] how the answer came: typed, or heard through a way
 */
function show(result, way = 'own') {
  if (result.error) return say(result.message);
  say('');
  const verdict = $('verdict');
  if (result.verdict) {
    $('answered').textContent = typeof result.asked === 'string' ? result.asked : '';
    $('answered-by').textContent = answeredBy(way);
    verdict.textContent = result.message;
    verdict.dataset.verdict = result.verdict;
    feel(result);
    if (performance.getEntriesByName('geography:clip-end').length) {
      performance.measure('geography:clip-to-verdict', 'geography:clip-end');
      performance.clearMarks('geography:clip-end');
    }
  }
  $('round').textContent = String(result.round);
  $('score').textContent = String(result.score);
  drawTrack(result.track, result.rounds);
  showResult(result);
  $('question').textContent = result.finished ? 'Game over' : result.question;  // the score is the result's, once
  const clue = /** @type {HTMLImageElement} */ ($('clue'));
  clue.hidden = typeof result.clue !== 'string';
  if (!clue.hidden) clue.src = result.clue;
  language.value = result.language;
  showFinished(Boolean(result.finished));
}

/**
 * Make a verdict felt: the card springs (right) or shakes (wrong) once, unless the visitor asks for
 * less motion (geography.css), and shows the place: its flag and the globe turned to it.
 * @param {Record<string, any>} result
 */
function feel(result) {
  const card = $('last-answer');
  card.dataset.verdict = result.verdict;
  card.classList.remove('felt');
  void card.offsetWidth;                               // a new verdict plays its motion again
  card.classList.add('felt');
  const shown = typeof result.flag === 'string' && typeof result.map === 'string';
  $('reveal').hidden = !shown;
  if (!shown) return;
  /** @type {HTMLImageElement} */ ($('reveal-flag')).src = result.flag;
  /** @type {HTMLImageElement} */ ($('reveal-map')).src = result.map;
  $('reveal-name').textContent = String(result.expected ?? '');
}

/**
 * One pip per round: right, missed, or still to come.
 * @param {boolean[]} [track] the rounds judged so far @param {number} [rounds]
 */
function drawTrack(track = [], rounds = track.length) {
  const pips = [...track.map((right) => (right ? 'right' : 'missed')), ...Array(Math.max(0, rounds - track.length)).fill('')];
  $('track').replaceChildren(...pips.map((state) => {
    const pip = document.createElement('li');
    const words = document.createElement('span');
    words.className = 'visually-hidden';
    words.textContent = state || 'to come';
    if (state) pip.dataset.state = state;
    pip.append(words);
    return pip;
  }));
}

/**
 * The result screen of a finished game: the score, the ones missed with their answers, the text to share.
 * @param {Record<string, any>} result
 */
function showResult(result) {
  $('result').hidden = !result.finished;
  if (!result.finished) return;
  $('result-score').textContent = String(result.score);
  const share = /** @type {HTMLTextAreaElement} */ ($('share-text'));
  share.value = String(result.share ?? '');
  const score = Number(result.score);
  $('result-words').textContent = score >= 9 ? 'Brilliant: you know your world.' : score >= 6 ? 'Well played!'
    : score >= 3 ? 'A good start: try another round.' : 'Every round teaches a few: try again.';
  /** @type {Array<Record<string, any>>} */
  const missed = (result.summary ?? []).filter((/** @type {any} */ row) => !row.right);
  $('missed').replaceChildren(...missed.map((row) => {
    const item = document.createElement('li');
    const flag = document.createElement('img');
    Object.assign(flag, { src: row.flag, alt: '', width: 32, height: 24 });
    const name = document.createElement('strong');
    name.textContent = row.name;                         // names from the site's own data, still as text
    item.append(flag, ` ${row.asked} `, name);
    return item;
  }));
  $('missed-none').hidden = missed.length > 0;
  $('copy-status').textContent = '';
}

// A result worth sharing: Copy puts it on the clipboard; where the browser refuses, it is selected to copy by hand.
$('copy-result').hidden = !navigator.clipboard;
$('copy-result').addEventListener('click', async () => {
  const share = /** @type {HTMLTextAreaElement} */ ($('share-text'));
  try {
    await navigator.clipboard.writeText(share.value);
    $('copy-status').textContent = 'Copied: paste it anywhere.';
  } catch {
    share.select();
    $('copy-status').textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
});
// The server drew the rounds judged; the rounds to come are drawn here, as after each answer.
drawTrack([...$('track').children].map((pip) => /** @type {HTMLElement} */ (pip).dataset.state === 'right'),
  Number($('track').dataset.rounds));

/**
 * A finished game leaves nothing to answer: the answer box and the ways go, and "Play again" is the
 * one main action, with the focus. A new game brings them back.
 *
 * @param {boolean} over
 */
function showFinished(over) {
  const was = finished();
  $('game').dataset.finished = String(over);
  $('type-form').hidden = over;
  $('ways').hidden = over || mode !== 'own';
  $('recorder').hidden = over || mode === 'own';
  const again = $('new-game');
  again.classList.toggle('primary', over);
  again.textContent = over ? 'Play again' : 'New game';
  if (over && !was) again.focus();
}

/**
 * Confirm beside Speak what the visitor's AI heard ('' clears the line, which keeps its place).
 * @param {string} text user input: shown as text, never as HTML
 */
function showHeard(text) {
  $('transcript').textContent = text;
  $('heard-said').hidden = !text;
}

/**
 * Say something under the answer box, where the visitor is looking: a failure in the error colour,
 * with what to do; anything else (a wait, a choice made) in the page's own.
 * @param {string} text @param {boolean} [error]
 */
function say(text, error = true) {
  $('notice').textContent = text;
  $('notice').dataset.kind = error ? 'error' : 'info';
  $('notice').hidden = !text;
  if (text && error) $('notice').scrollIntoView({ block: 'nearest' });
}

/** @param {string} link */
function showLink(link) {
  const a = /** @type {HTMLAnchorElement} */ ($('open-wallet'));
  a.href = link;
  a.hidden = false;
}

/** @param {number} left */
function showCountdown(left) {
  $('countdown').textContent = `(the link works for ${left} s more)`;
}

/**
 * Say how the link went ('' while it is waited for: the waiting line says so, once; the link to
 * open and the time left stay beside it).
 *
 * @param {string} text
 */
function showLinkState(text) {
  $('link-status').hidden = false;
  $('link-state').textContent = text;
  if (text) {
    $('countdown').textContent = '';
    $('open-wallet').hidden = true;
  }
}

// -- Own mode and the game's forms (they work without this script, too) ----------------------

$('type-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('answer'));
  showHeard('');
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
  $('answered').textContent = '';
  $('answered-by').textContent = '';
  delete $('verdict').dataset.verdict;
  delete $('last-answer').dataset.verdict;
  $('reveal').hidden = true;
  $('heard').hidden = true;
  show(await post(/** @type {string} */ (urls.newUrl), '{}'));
  (mode === 'own' ? $('answer') : $('speak')).focus();
});

// Voice in this browser is offered only once the page finds the visitor's AI here: never a button that cannot work.
findByoa().then((found) => {
  provider ??= found;
  $('voice').hidden = !found;
  $('ways').dataset.ready = 'true';
});
