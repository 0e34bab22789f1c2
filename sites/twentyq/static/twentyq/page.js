// @ts-check
// Twenty Questions: the visitor's own AI plays, through whichever way they bring it in, chosen
// by frontend/ways/. The server keeps the game; this page only asks it, runs the model the way
// in the page needs (AI Wallet, the BYOA extension, the browser's built-in model), or asks the
// server to call the visitor's wallet (the BYOA link), and shows what comes back as text.
// Every "no" of a way lands in own mode: the site's own questions and the catalog's answers.

import { AiConnect } from '../aiconnect/client.js';
// Each way from its own module, not ../ways/index.js: the page then loads none of what it does not use.
import { aiWalletWay } from '../ways/aiwallet.js';
import { builtinWay } from '../ways/builtin.js';
import { WayChooser, inSentence } from '../ways/chooser.js';
import { extensionWay } from '../ways/extension.js';
import { linkWay } from '../ways/link.js';
import { ownWay } from '../ways/own.js';
import { post, streamMove } from './api.js';
import { renderGame, setText, show } from './render.js';
// The direct link's flow loads when the visitor pairs by link: most visitors never do.
const linkFlow = () => import('../byoa/link.js');

/** @typedef {import('./render.js').Game} Game */
/** @typedef {import('../ways/types.js').Way} Way */
/** @typedef {import('../ways/types.js').GenerateRequest} GenerateRequest */

const config = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('twentyq-config')).textContent ?? '{}');
const urls = config.urls;
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {Game | null} */
let game = config.game ?? null;
/** @type {Map<string, string>} what the visitor says they were thinking of, by game: shown as text, never HTML */
const thoughts = new Map();
/** @type {AbortController | null} the move in flight, which Stop aborts */
let moving = null;
/** @type {string[]} the models the server called over the link on the last move */
let linkModels = [];
/** @type {AbortController | null} the way connecting now, which "Stop waiting" aborts */
let connecting = null;
/** @type {string | null} the id of that way, whose button is disabled meanwhile */
let connectingId = null;

// -- who plays: said once a turn, and truly ----------------------------------------------------

/** The test wallet's relay settings (`?testwallet=1`, DEBUG only), or null; read as data, never run. */
const relay = (() => {
  try {
    return JSON.parse(document.getElementById('testwallet-relay')?.textContent ?? 'null');
  } catch {
    return null;
  }
})();
const testWallet = document.querySelector('.testwallet-banner') !== null;

/**
 * Whether a way's answers come from the test wallet's scripted stand-ins, not from an AI: the
 * built-in model's stand-in always, the others unless the developer named a model server.
 *
 * @param {string | undefined} way
 */
function scripted(way) {
  if (!testWallet || way === 'own' || way === 'link') return false;
  return way === 'builtin' || !relay || relay.scripted === true;
}

// --- how this page works: start
const chooser = new WayChooser([
  aiWalletWay(new AiConnect()),
  extensionWay({ manifest: config.manifest }),
  linkWay({
    // The link flow; once the wallet is there the server calls it, never the page.
    pair: async ({ signal } = {}) => {
      const { showLinkedWallet, startLink } = await linkFlow();
      const outcome = await startLink({
        manifest: config.manifestName, codeUrl: urls.code, waitUrl: urls.wait, signal,
        onLink: showLink, onTick: (left) => setText('link-countdown', `Waiting for your wallet: ${left} s`),
        // Which wallet came, and a way to end it: the visitor may have opened someone else's link.
        onConnected: (linked) => showLinkedWallet($('linked-wallet'), linked),
        disconnectUrl: urls.disconnect,
      });
      hideLink();
      return outcome === 'connected' ? { models: [] } : null;
    },
    paired: async () => (config.linked ? { models: [] } : null),
    generate: async (request) => {
      const streamed = await streamMove(urls.stream, request.serverBody ?? {}, request.signal, {
        onText: request.onText,
        onStart: (models) => {
          linkModels = models;
          renderWays();
        },
      });
      // The wallet refused, dropped or timed out, or the session lost its pairing: a "no".
      if (!streamed || ['wallet-no-answer', 'not-linked', 'network'].includes(streamed.last?.error)) return null;
      return { text: streamed.text, data: streamed };
    },
  }),
  builtinWay(),
  ownWay({ label: 'No AI: the site plays on its own' }),
]);
// --- how this page works: end

chooser.subscribe(renderWays);
renderWays();
draw();
chooser.ready.then(() => {
  $('ways').dataset.ready = 'true';
  renderWays();
  draw();
});

/** Draw the game for the current way. */
function draw() {
  const way = chooser.current.id;
  renderGame(game, {
    usingAi: way !== 'own',
    busy: moving !== null,
    asker: way === 'own' ? 'the site' : scripted(way) ? 'the scripted stand-in' : 'your AI',
    aiName,
    thought: game ? thoughts.get(game.id) : undefined,
  });
}

$('thinking-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const said = /** @type {HTMLInputElement} */ ($('thinking')).value.trim().slice(0, 80);
  if (!said || !game) return;
  thoughts.set(game.id, said);
  draw();
  $('play-again').focus();
});

/** @type {Map<string, string>} the model each way last named in its answer (AI Wallet names it) */
const modelNames = new Map();

/**
 * Who played a model's move, as a sentence's subject, once a turn: the test wallet's scripted
 * stand-in is "not an AI"; a model is named when its way said which ("Your model (qwen2.5)").
 *
 * @param {string | undefined} way
 * @returns {string}
 */
function aiName(way) {
  if (scripted(way)) return 'The scripted stand-in (not an AI)';
  // The test wallet's stand-ins pass a chat to the developer's model server ('default': its own pick).
  const relayed = testWallet && relay && way !== 'link' ? relay.modelName.replace(/^default$/, 'the default model') : null;
  const name = relayed ?? modelNames.get(String(way));
  return name ? `Your model (${name})` : 'Your AI';
}

// -- the ways: one button each, in the chooser's order; the current one is pressed ---------------

function renderWays() {
  const box = $('ways');
  const current = chooser.current;
  const buttons = chooser.ways.map((way) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'way';
    button.dataset.way = way.id;
    button.setAttribute('aria-pressed', String(way === current));
    button.textContent = way.label;
    if (way.status === 'connecting' || way.id === connectingId) button.disabled = true;
    button.addEventListener('click', () => void switchTo(way));
    return button;
  });
  const progress = /** @type {HTMLProgressElement | null} */ (document.getElementById('way-progress'));
  box.replaceChildren(...buttons);
  // A way that needs an app says so before the visitor starts waiting for it.
  if (chooser.ways.some((way) => way.id === 'link' && way.status === 'offered')) {
    const needs = document.createElement('p');
    needs.className = 'ways__needs';
    needs.textContent = `${chooser.ways.find((way) => way.id === 'link')?.label} needs an app with your AI, on this device or your phone: you get a link to open in it.`;
    box.append(needs);
  }
  if (progress) box.append(progress);
  // A wallet whose name already ends with its model's ("Test wallet (scripted)") is named once.
  const detail = current.detail ? ` (${current.detail.replace(/(\([^()]*\))\s*\1$/, '$1')})` : '';
  const granted = current.id === 'link' ? linkModels : current.models;
  const models = granted.length > 1 ? ` — ${granted[0]} answers, ${granted[1]} checks` : '';
  const stand = scripted(current.id) ? ' — a scripted stand-in, not an AI' : '';
  setText('way-status', current.id === 'own'
    ? "Answering: the site's own questions"
    : `Answering: ${current.label}${detail}${models}${stand}`);
  $('way-status').dataset.way = current.id;
  const notice = $('way-notice');
  notice.textContent = chooser.notice;
  notice.hidden = !chooser.notice;
  draw();
}

// -- "who plays" is a status with "Change" at every width: the ways open under it --------------------

const changeWay = $('change-way');
changeWay.hidden = false;
/** Whether the ways fold into the status ("Change" is shown: the page's script and style are in). */
const folded = () => changeWay.getClientRects().length > 0;

/** Open or fold the ways; opened, the focus goes to the way answering now. @param {boolean} open */
function openWays(open) {
  changeWay.setAttribute('aria-expanded', String(open));
  $('ways-box').dataset.open = String(open);
  if (open) /** @type {HTMLElement | null} */ ($('ways').querySelector('[aria-pressed="true"]:not(:disabled)') ?? $('ways').querySelector('button:not(:disabled)'))?.focus();
}

changeWay.addEventListener('click', () => openWays(changeWay.getAttribute('aria-expanded') !== 'true'));
// Escape on an opened way, or on Change itself, folds the ways back and leaves the focus on Change.
$('ways-box').addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || !folded() || changeWay.getAttribute('aria-expanded') !== 'true') return;
  openWays(false);
  changeWay.focus();
});

/**
 * The visitor picked `way`: start it inside this click (wallets answer only after one).
 *
 * @param {Way} way
 */
async function switchTo(way) {
  // The choice is made: the ways fold back and the focus stays on a shown control.
  if (folded() && changeWay.getAttribute('aria-expanded') === 'true') {
    openWays(false);
    changeWay.focus();
  }
  const progress = /** @type {HTMLProgressElement | null} */ (document.getElementById('way-progress'));
  // Show what the page waits for (specs/byoa-sites.md: "Show that you are waiting"); the visitor may stop.
  connecting?.abort();
  const stop = new AbortController();
  connecting = way.id === 'own' || way.status === 'ready' ? null : stop;
  connectingId = connecting ? way.id : null;
  if (connecting) {
    setText('way-connecting-text', `Waiting for ${inSentence(way.label)}: ${WAITING_FOR[way.id] ?? 'it is starting…'}`);
    show('way-connecting', true);
  }
  const connected = await chooser.use(way.id, {
    signal: stop.signal,
    onProgress: (fraction) => {
      if (!progress) return;
      progress.hidden = false;
      progress.value = fraction;
      progress.textContent = `${Math.round(fraction * 100)}%`;
    },
  });
  if (progress) progress.hidden = true;
  if (connecting === stop) {
    connecting = null;
    connectingId = null;
    show('way-connecting', false);
    renderWays();
  }
  if (connected && game?.status === 'playing' && game.mode === 'ai-asks' && !game.pending && !moving) await nextAiMove();
}

/** What the page waits for while a way connects, in the visitor's words. */
const WAITING_FOR = /** @type {Record<string, string>} */ ({
  aiwallet: 'AI Wallet asks you first…',
  extension: 'your wallet asks you first, then loads its models…',
  link: 'open the link in your wallet; it asks you first, then connects…',
  builtin: 'your browser gets its model ready (a first download can take minutes)…',
});

$('way-give-up').addEventListener('click', () => {
  connecting?.abort();
  /** @type {HTMLButtonElement | null} */ (document.querySelector('#new-ai-asks'))?.focus();
});

/** @param {string} link */
function showLink(link) {
  const anchor = /** @type {HTMLAnchorElement} */ ($('open-wallet'));
  anchor.href = link;
  anchor.hidden = false;
  show('link-countdown', true);
}

function hideLink() {
  show('open-wallet', false);
  show('link-countdown', false);
}

// -- moves ------------------------------------------------------------------------------------

/**
 * Apply a server answer: draw its game, and explain an error (the game in it is unchanged).
 *
 * @param {{ status: number, body: any }} answer
 * @returns {boolean} whether it was a success
 */
function apply({ status, body }) {
  if (body && 'game' in body) game = body.game;
  const failed = status !== 200;
  const error = $('game-error');
  error.textContent = failed ? String(body?.message ?? 'Something went wrong. Try again.') : '';
  error.dataset.code = failed ? String(body?.error ?? '') : '';
  error.hidden = !failed;
  draw();
  return !failed;
}

/**
 * Run `work` as the one move in flight, with Stop shown; the answer is drawn when it ends.
 *
 * @param {(signal: AbortSignal) => Promise<void>} work
 */
async function asMove(work) {
  if (moving) return;
  moving = new AbortController();
  show('stop', true);
  const streamed = $('stream-text');
  streamed.textContent = '';
  delete streamed.dataset.state;
  draw();
  try {
    await work(moving.signal);
  } catch (error) {
    if (!moving.signal.aborted) throw error;
    streamed.dataset.state = 'stopped';
    setText('game-error', 'Stopped. Ask again, or let the site play.');
    show('game-error', true);
  } finally {
    moving = null;
    show('stop', false);
    show('way-wait', false);
    show('move-waiting', false);
    draw();
    keepPlace();
  }
}

/** @type {string | null} the id of the control the visitor last used in "the site thinks" */
let lastControl = null;

/**
 * After a move, put the focus on the control the visitor needs next (it was hidden or disabled
 * while the move ran, which sends the focus to the page's body) and keep the current question in
 * view: the answer buttons under the AI's question, the control used to ask, or "Play again".
 */
function keepPlace() {
  if (moving || !game) return;
  const next = nextControl(game);
  if (!next) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || active.closest('[hidden]') !== null
    || /** @type {HTMLButtonElement} */ (active).disabled === true || $('game').contains(active)
    || $('new-game').contains(active);
  if (!lost) return;  // the visitor went elsewhere (a way's button, the consent): leave them there
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: 'nearest' });
  const current = game.status === 'over' ? $('game-result') : $('pending').textContent ? $('pending') : $('history').lastElementChild;
  current?.scrollIntoView({ block: 'nearest' });
}

/** @param {Game} shown @returns {HTMLElement | null} the control the visitor needs next */
function nextControl(shown) {
  const visible = (/** @type {string} */ id) => {
    const element = document.getElementById(id);
    return element && !element.hidden && element.closest('[hidden]') === null ? element : null;
  };
  if (shown.status === 'over') return visible('play-again');
  if (shown.mode === 'ai-asks') {
    return visible('answer-yes') ?? visible('verdict-right') ?? visible('ai-next') ?? visible('own-next-button');
  }
  return (lastControl ? visible(lastControl) : null) ?? visible('question') ?? visible('attribute');
}

$('stop').addEventListener('click', () => moving?.abort(new DOMException('Stopped on the page', 'AbortError')));

/**
 * Ask the current way for one answer to the server's prompt; `null` when the way said no.
 *
 * @param {{ messages: any[], params?: { maxTokens?: number, choices?: string[] } }} prompt
 * @param {AbortSignal} signal
 * @param {{ model?: string, check?: boolean }} [which]
 */
function runModel(prompt, signal, { model, check = false } = {}) {
  const streamed = $('stream-text');
  /** @type {GenerateRequest} */
  const request = {
    messages: prompt.messages,
    maxTokens: prompt.params?.maxTokens,
    choices: prompt.params?.choices,
    signal,
    onText: check ? undefined : (delta) => streamed.append(delta),
    onWait: (ms) => {
      const perMinute = config.manifest?.purpose?.limits?.maxCallsPerMinute;
      setText('way-wait', `Waiting ${Math.ceil(ms / 1000)} s: this site asks your AI at most ${perMinute} times a minute.`);
      show('way-wait', true);
    },
  };
  if (model) request.model = model;
  return chooser.generate(request, { fallBack: !check });
}

/**
 * One move through the current AI way: the server's prompt, the model (two in "the site thinks"
 * when two were granted: the first answers, the second checks), the raw replies back to the server.
 * A way that says no hands the move to own mode.
 *
 * @param {object} body what the move is about (`{}` or `{ question }`)
 * @param {AbortSignal} signal
 * @returns {Promise<'done' | 'own'>}
 */
async function aiMove(body, signal) {
  const way = chooser.current;
  setText('move-waiting-text', `Waiting for ${inSentence(way.label)} to answer… (Stop, and the site plays)`);
  show('move-waiting', true);
  if (way.id === 'link') {
    const answer = await chooser.generate({ messages: [], serverBody: body, signal, onText: (d) => $('stream-text').append(d) });
    if (answer === null) {
      markCut();
      return 'own';
    }
    const streamed = /** @type {{ last: any, status: number }} */ (answer.data);
    if (apply({ status: streamed.status, body: streamed.last })) answered();
    return 'done';
  }
  const asked = await post(urls.prompt, body, signal);
  if (!apply(asked)) return 'done';
  const { prompt, turn, promptId } = asked.body;
  const models = way.models;
  const checking = game?.mode === 'site-thinks' && models.length >= 2;
  const [first, second] = await Promise.all([
    runModel(prompt, signal, { model: models[0] }),
    checking ? runModel(prompt, signal, { model: models[1], check: true }) : Promise.resolve(null),
  ]);
  if (first === null) return 'own';
  // AI Wallet names the model that answered; a BYOA grant's models are codes (m1), not names.
  if (way.id === 'aiwallet' && first.model) modelNames.set(way.id, first.model);
  const replies = [{ model: models[0] ?? null, text: first.text }];
  if (checking) replies.push({ model: models[1], text: second?.text ?? '' });
  if (apply(await post(urls.reply, { promptId, turn, way: way.id, replies }, signal))) answered();
  return 'done';
}

/** The move is drawn (the AI's question in #pending, or the answer in the history): the streamed text goes. */
function answered() {
  const streamed = $('stream-text');
  streamed.textContent = '';
  delete streamed.dataset.state;
}

function markCut() {
  const streamed = $('stream-text');
  if (streamed.textContent) streamed.dataset.state = 'cut';
}

/** "You think, the AI asks": the next question or guess, by the current way or the site. */
async function nextAiMove() {
  await asMove(async (signal) => {
    if (chooser.current.id !== 'own' && (await aiMove({}, signal)) === 'done') return;
    apply(await post(urls.own, {}, signal));
  });
}

/**
 * Intercept one of the server's own-mode forms: post it as JSON and draw the answer.
 *
 * @param {string} id
 * @param {(form: HTMLFormElement, submitter: HTMLButtonElement | null) => object | null} bodyOf
 * @param {(ok: boolean) => Promise<void> | void} [after]
 */
function onForm(id, bodyOf, after) {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById(id));
  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (moving) return;
    const body = bodyOf(form, /** @type {HTMLButtonElement | null} */ (/** @type {SubmitEvent} */ (event).submitter));
    if (body === null) return;
    let ok = false;
    await asMove(async (signal) => { ok = apply(await post(form.action, body, signal)); });
    await after?.(ok);
  });
}

const turnOf = (/** @type {HTMLFormElement} */ form) => Number(new FormData(form).get('turn'));

onForm('new-game', (_form, button) => ({ mode: button?.value ?? 'ai-asks' }), async (ok) => {
  $('stream-text').textContent = '';
  if (ok && game?.mode === 'ai-asks') await nextAiMove();
});
onForm('answer-form', (form, button) => ({ turn: turnOf(form), answer: button?.value }), async (ok) => {
  if (ok && game?.status === 'playing' && !game.pending) await nextAiMove();
});
onForm('verdict-form', (form, button) => ({ turn: turnOf(form), correct: button?.value === 'true' }), async (ok) => {
  if (ok && game?.status === 'playing' && !game.pending) await nextAiMove();
});
onForm('own-next', () => ({}));
document.getElementById('ai-next')?.addEventListener('click', () => void nextAiMove());
onForm('own-question-form', (form) => {
  lastControl = 'attribute';
  return { attribute: String(new FormData(form).get('attribute') ?? '') };
});
onForm('guess-form', (form) => {
  lastControl = 'guess';
  return { guess: String(new FormData(form).get('guess') ?? '') };
}, (ok) => {
  if (ok) /** @type {HTMLInputElement} */ ($('guess')).value = '';
});
// Enter on the list of the site's questions asks the one chosen, as Enter in a text field does.
$('attribute')?.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.altKey || moving) return;
  event.preventDefault();
  /** @type {HTMLFormElement} */ ($('own-question-form')).requestSubmit($('ask-own'));
});

// "The site thinks, you ask": the typed question goes to the current AI way.
$('question-form')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('question'));
  const question = input.value.trim();
  if (!question || moving) return;
  lastControl = 'question';
  await asMove(async (signal) => {
    if ((await aiMove({ question }, signal)) === 'own') {
      setText('game-error', 'Your AI did not answer. Pick a question from the list: the site answers it.');
      show('game-error', true);
      return;
    }
    if ($('game-error').hidden) input.value = '';
  });
});
