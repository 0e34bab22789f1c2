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
 * @property {{ turn: number, kind: 'question' | 'guess', text: string, by: string } | null} pending
 * @property {{ name: string } | null} secret
 * @property {boolean} mustGuess
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
 * Return the words for one history entry ("3. The AI asked: Is it alive? You said yes.").
 *
 * @param {Game['mode']} mode
 * @param {Entry} entry
 * @returns {string}
 */
export function entryText(mode, entry) {
  const answer = ANSWER_WORDS[entry.answer] ?? String(entry.answer);
  if (mode === 'ai-asks') {
    const who = entry.by === 'model' ? 'The AI' : 'The site';
    if (entry.kind === 'guess') return `${entry.turn}. ${who} guessed: ${entry.text} That was ${answer}.`;
    return `${entry.turn}. ${who} asked: ${entry.text} You said ${answer}.`;
  }
  if (entry.kind === 'guess') return `${entry.turn}. You guessed: ${entry.text} That was ${answer}.`;
  const source = entry.answeredBy === 'model' ? 'your AI' : 'the site';
  return `${entry.turn}. You asked: ${entry.text} ${capitalised(source)} said ${answer}.`;
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
 * Draw `game` (null: no game yet) and show the forms that fit its state and the current way.
 *
 * @param {Game | null} game
 * @param {{ usingAi: boolean, busy: boolean }} view
 */
export function renderGame(game, { usingAi, busy }) {
  const section = byId('game');
  if (!section) return;
  section.hidden = !game;
  if (!game) return;
  section.dataset.mode = game.mode;
  section.dataset.status = game.status;
  section.dataset.gameId = game.id;
  setText('turns-left', `${game.turnsLeft} of ${game.limit} questions left`);

  const history = byId('history');
  if (history) {
    history.replaceChildren(...game.history.map((entry) => {
      const item = document.createElement('li');
      item.className = `entry ${entry.kind}`;
      item.dataset.turn = String(entry.turn);
      item.append(entryText(game.mode, entry));
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
    setText('pending', pending ? pendingText(pending) : '');
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
  setText('game-result', resultText(game));
}

/**
 * @param {NonNullable<Game['pending']>} pending
 */
function pendingText(pending) {
  const who = pending.by === 'model' ? 'The AI' : 'The site';
  return pending.kind === 'guess' ? `${who} guesses: ${pending.text}` : `${who} asks: ${pending.text}`;
}

/**
 * @param {Game} game
 */
function resultText(game) {
  if (game.status !== 'over') return '';
  const secret = game.secret ? ` It was ${game.secret.name}.` : '';
  switch (game.winner) {
    case 'ai': return 'The AI found it. Well played!';
    case 'visitor': return game.mode === 'ai-asks' ? 'You win: the AI did not find it in 20 questions.' : `You found it!${secret}`;
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
