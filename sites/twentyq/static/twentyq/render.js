// @ts-check
/**
 * Draw the game the server keeps (TWENTYQ_API.md, "Game") into the page. Every string the
 * server sends back, the model's questions and answers included, is set as text, never as HTML.
 */

/**
 * @typedef {object} Entry
 * @property {number} turn
 * @property {'question' | 'guess'} kind
 * @property {string} text
 * @property {string} by 'site' | 'model' | 'visitor'
 * @property {string} [way] the way a model's move came through ('aiwallet', 'link', ...)
 * @property {string} answer
 * @property {string} [answeredBy] 'catalog' | 'model' | 'site'
 * @property {{ model: string, answer: string | null, agrees: boolean | null, problem?: string } | null} [check]
 */
/**
 * @typedef {object} Game
 * @property {string} id
 * @property {'ai-asks' | 'site-thinks'} mode
 * @property {'playing' | 'over'} status
 * @property {string | null} winner
 * @property {number} limit
 * @property {number} turnsUsed
 * @property {number} turnsLeft
 * @property {Entry[]} history
 * @property {{ turn: number, kind: 'question' | 'guess', text: string, by: string, way?: string } | null} pending
 * @property {{ name: string } | null} secret
 * @property {boolean} mustGuess
 * @property {{ left: number, of: number }} [candidates] how many of the site's things still fit
 */

const ANSWER_WORDS = /** @type {Record<string, string>} */ ({
  yes: 'yes', no: 'no', sometimes: 'sometimes', unknown: "don't know", right: 'right', wrong: 'wrong',
});

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement | null} */ (document.getElementById(id));

/**
 * Show or hide the element `id` (when the page has it).
 *
 * @param {string} id
 * @param {boolean} shown
 */
export function show(id, shown) {
  const element = byId(id);
  if (element) element.hidden = !shown;
}

/**
 * Set the text of the element `id` (when the page has it).
 *
 * @param {string} id
 * @param {string} text
 */
export function setText(id, text) {
  const element = byId(id);
  if (element) element.textContent = text;
}

/**
 * Who played a move: `SITE` for the site's own moves, else `aiName(entry.way)` ("Your model
 * (name)", "Your AI", "The scripted stand-in (not an AI)"), so a turn names who answered once and
 * truly.
 *
 * @typedef {(way: string | undefined) => string} AiName
 */

/** The site's own moves, as a sentence's subject: no AI played them. */
export const SITE = 'The site';

/** @type {AiName} */
const YOUR_AI = () => 'Your AI';

/**
 * Return the words for one history entry ("The site asked: Is it alive? You said yes."). The list
 * numbers the entries itself (an `<ol>`): no number here.
 *
 * @param {Game['mode']} mode
 * @param {Entry} entry
 * @param {AiName} [aiName]
 * @returns {string}
 */
export function entryText(mode, entry, aiName = YOUR_AI) {
  const answer = ANSWER_WORDS[entry.answer] ?? String(entry.answer);
  if (entry.kind === 'guess') {
    const who = mode === 'site-thinks' ? 'You' : entry.by === 'model' ? aiName(entry.way) : SITE;
    return `${who} guessed: ${withoutEndStop(entry.text)}. ${capitalised(answer)}.`;
  }
  if (mode === 'ai-asks') {
    const who = entry.by === 'model' ? aiName(entry.way) : SITE;
    return `${who} asked: ${entry.text} You said ${answer}.`;
  }
  const source = entry.answeredBy === 'model' ? aiName(entry.way) : SITE;
  return `You asked: ${entry.text} ${source} said ${answer}.`;
}

/** @param {string} text a guess, which may end with its own full stop or question mark */
function withoutEndStop(text) {
  return text.replace(/[\s.?!]+$/u, '');
}

/**
 * Return what the second model's check says, or '' when there was none.
 *
 * @param {Entry} entry
 * @returns {string}
 */
export function checkText(entry) {
  const check = entry.check;
  if (!check) return '';
  if (check.agrees === true) return `The second model (${check.model}) agrees.`;
  if (check.agrees === false) {
    return `The two models disagree: the second model (${check.model}) says ${ANSWER_WORDS[String(check.answer)] ?? check.answer}.`;
  }
  return `The second model (${check.model}) gave no usable answer${check.problem ? `: ${check.problem}` : ''}.`;
}

/**
 * How the page draws the game for the current way: whether an AI way answers, whether a move is in
 * flight, who asks for the visitor now ("the site", "your AI") and the name of a model's way.
 *
 * @typedef {{ usingAi: boolean, busy: boolean, asker?: string, aiName?: AiName, thought?: string }} View
 */

/**
 * Draw `game` (null: no game yet) and show the forms that fit its state and the current way.
 *
 * @param {Game | null} game
 * @param {View} view
 */
export function renderGame(game, { usingAi, busy, asker = usingAi ? 'your AI' : 'the site', aiName = YOUR_AI, thought }) {
  setText('new-ai-asks', `New game: you think, ${asker} asks`);
  const section = byId('game');
  if (!section) return;
  section.hidden = !game;
  if (!game) return;
  section.dataset.mode = game.mode;
  section.dataset.status = game.status;
  section.dataset.gameId = game.id;
  setText('game-heading', game.mode === 'site-thinks' ? 'The site thinks, you ask' : `You think, ${asker} asks`);
  setText('turns-left', `${game.turnsLeft} of ${game.limit} questions left`);
  drawClosingIn(game, usingAi);

  const history = byId('history');
  if (history) {
    history.replaceChildren(...game.history.map((entry) => {
      const item = document.createElement('li');
      item.className = `entry ${entry.kind}`;
      item.dataset.turn = String(entry.turn);
      item.append(entryText(game.mode, entry, aiName));
      const check = checkText(entry);
      if (check) {
        const note = document.createElement('span');
        note.className = entry.check?.agrees === false ? 'check disagree' : 'check';
        note.textContent = ` ${check}`;
        item.append(note);
      }
      return item;
    }));
  }

  const playing = game.status === 'playing';
  const pending = game.pending;
  if (game.mode === 'ai-asks') {
    setText('pending', pending ? pendingText(pending, aiName) : '');
    show('answer-form', playing && !busy && pending?.kind === 'question');
    show('verdict-form', playing && !busy && pending?.kind === 'guess');
    show('own-next', playing && !busy && !pending);
    show('ai-next', playing && !busy && !pending && usingAi);
    setTurn('answer-form', pending?.turn);
    setTurn('verdict-form', pending?.turn);
    show('question-form', false);
    show('own-question-form', false);
    show('guess-form', false);
  } else {
    setText('pending', pending ? `Your question: ${pending.text}` : '');
    show('question-form', playing && usingAi);
    show('own-question-form', playing);
    show('guess-form', playing);
    show('answer-form', false);
    show('verdict-form', false);
    show('own-next', false);
    show('ai-next', false);
    for (const id of ['ask-button', 'ask-own', 'guess-button']) {
      const button = /** @type {HTMLButtonElement | null} */ (byId(id));
      if (button) button.disabled = busy;
    }
  }
  // The asker lost: ask what the visitor was thinking of, and once told, show it large.
  const lost = game.status === 'over' && game.mode === 'ai-asks' && game.winner === 'visitor';
  setText('game-result', lost && thought ? `${resultText(game, aiName)} You were thinking of ${thought}.` : resultText(game, aiName));
  show('reveal', !playing);
  setText('reveal-name', lost && thought ? capitalised(thought) : revealName(game));
  show('thinking-form', lost && !thought);
  show('play-again', !playing && !busy);
  const again = /** @type {HTMLButtonElement | null} */ (byId('play-again'));
  if (again) again.value = game.mode;
}

/**
 * How close the game is: a pip per question (used or left), and how many things still fit: that
 * count follows the site's own questions only (an AI's free questions do not narrow the site's
 * list), so it is shown only while the site asks.
 * @param {Game} game @param {boolean} usingAi
 */
function drawClosingIn(game, usingAi) {
  const track = byId('q-track');
  track?.replaceChildren(...Array.from({ length: game.limit }, (_, index) => {
    const pip = document.createElement('li');
    if (index < game.turnsUsed) pip.dataset.used = 'true';
    return pip;
  }));
  const fit = usingAi && game.mode === 'ai-asks' ? undefined : game.candidates;
  const meter = /** @type {HTMLMeterElement | null} */ (byId('closing'));
  if (meter && fit) {
    meter.max = fit.of;
    meter.value = fit.left;
  }
  setText('candidates', fit ? `${fit.left} of ${fit.of} things still fit` : '');
  show('closing', Boolean(fit));
}

/**
 * The reveal's large words: what the site was thinking of, the thing the site found, or who won.
 * @param {Game} game
 */
function revealName(game) {
  if (game.secret) return game.secret.name;
  const last = /** @type {Entry & { thing?: string }} */ (game.history.at(-1) ?? {});
  if (game.winner === 'ai') return last.thing ? capitalised(last.thing) : 'Found it!';
  return game.winner === 'visitor' ? 'You win!' : 'Game over';
}

/**
 * @param {NonNullable<Game['pending']>} pending
 * @param {AiName} aiName
 */
function pendingText(pending, aiName) {
  const who = pending.by === 'model' ? aiName(pending.way) : SITE;
  return pending.kind === 'guess' ? `${who} guesses: ${pending.text}` : `${who} asks: ${pending.text}`;
}

/**
 * The end-of-game summary: who won, in how many questions, and the secret when the site had one.
 *
 * @param {Game} game
 * @param {AiName} aiName
 */
export function resultText(game, aiName = YOUR_AI) {
  if (game.status !== 'over') return '';
  const secret = game.secret ? ` The answer was: ${game.secret.name}.` : '';
  const last = game.history.at(-1);
  const asker = last?.by === 'model' ? aiName(last.way) : 'The site';
  const questions = (/** @type {number} */ n) => `${n} question${n === 1 ? '' : 's'}`;
  switch (game.winner) {
    case 'ai': return `${asker} found it in ${questions(game.turnsUsed)}.`;
    case 'visitor': return game.mode === 'ai-asks'
      ? `${asker} did not find it in ${questions(game.limit)}.`
      : `You found it in ${questions(game.turnsUsed)}!${secret}`;
    case 'site': return `Out of questions: the site wins.${secret}`;
    default: return `Game over.${secret}`;
  }
}

/**
 * @param {string} formId
 * @param {number | undefined} turn
 */
function setTurn(formId, turn) {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector(`#${formId} input[name="turn"]`));
  if (input && turn !== undefined) input.value = String(turn);
}

/** @param {string} text */
function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
