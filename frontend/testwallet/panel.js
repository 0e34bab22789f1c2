// @ts-check
/**
 * The test wallet's own panel in the page: where the stand-ins (aiwallet.js, byoa.js,
 * languagemodel.js) ask the person at the keyboard when no test drives them — consent, what a
 * clip said, a model's answer typed by hand. Never a native `confirm()` / `prompt()`, which
 * freeze the page and look like the site's own.
 *
 * A classic script, loaded before the stand-ins (as an init script, or a plain `<script>`): it
 * leaves `window.__testwalletPanel` with one function, `ask(question)`, and the stand-ins read it
 * when they load. The panel is a non-modal dialog labelled "Test wallet" in a shadow root of its
 * own (the site's styles do not reach it), fixed in a corner; it shows one question at a time, in
 * the order asked. Everything in it is text (`textContent`): a page's words are untrusted.
 *
 * It never moves the page: taking the focus and giving it back scroll nothing. It sits in the
 * bottom corner unless there it would cover the page's focused control or a status line the page
 * shows (a live region with words: "Your AI is listening…" and its "Stop waiting" button), and the
 * top corner would not; on a phone it is compact.
 *
 * Keyboard: the panel takes the focus when it opens (its text field, else its first button), Tab
 * moves between its controls, Enter submits the field, Escape answers with the question's
 * `cancel` action, and the focus goes back where it was when the panel closes.
 */
(() => {
  'use strict';

  if ('__testwalletPanel' in window) return;

  /**
   * @typedef {object} PanelAction
   * @property {string} label the button's words
   * @property {string} value what `ask` resolves with as `action`
   *
   * @typedef {object} PanelQuestion
   * @property {string} title what is asked, in a few words (the panel's heading)
   * @property {string[]} [lines] what the person needs to know, one paragraph each
   * @property {{ label: string, value?: string }} [field] a text field, when the answer is typed
   * @property {PanelAction[]} actions the buttons; the first is the one Enter presses
   * @property {string} cancel the action Escape stands for
   *
   * @typedef {{ action: string, text: string }} PanelAnswer
   */

  /** The panel's look, adopted by its shadow root: a constructed sheet, which a strict CSP allows. */
  const STYLE = `
    :host { all: initial; }
    section { position: fixed; right: 1rem; bottom: 1rem; z-index: 2147483647; box-sizing: border-box;
      max-width: min(28rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); overflow: auto;
      padding: .9rem 1rem; border: 3px solid #92400e; border-radius: .5rem; background: #fffbeb; color: #1f2937;
      font: 15px/1.4 system-ui, sans-serif; box-shadow: 0 .4rem 1.2rem rgb(0 0 0 / .25); }
    .badge { margin: 0 0 .3rem; font-size: 12px; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: #92400e; }
    h2 { margin: 0 0 .5rem; font-size: 16px; }
    p { margin: 0 0 .5rem; white-space: pre-wrap; overflow-wrap: anywhere; }
    label { display: block; margin: .3rem 0 .6rem; font-weight: 600; }
    input { display: block; box-sizing: border-box; width: 100%; margin-top: .25rem; padding: .35rem .45rem; font: inherit; }
    .actions { display: flex; flex-wrap: wrap; gap: .5rem; }
    button { padding: .35rem .8rem; font: inherit; border: 1px solid #92400e; border-radius: .35rem; background: #fff; color: #1f2937; cursor: pointer; }
    button.primary { background: #92400e; color: #fff; }
    :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
    section[data-place="top"] { top: 1rem; bottom: auto; }
    @media (max-width: 30rem) {
      section { right: .5rem; left: .5rem; bottom: .5rem; max-width: none; padding: .5rem .7rem; font-size: 14px; line-height: 1.3; }
      section[data-place="top"] { top: .5rem; }
      .badge { font-size: 11px; margin: 0 0 .15rem; }
      h2 { font-size: 15px; margin: 0 0 .25rem; }
      p { margin: 0 0 .3rem; }
      label { margin: .15rem 0 .4rem; }
    }
  `;

  /** @type {{ question: PanelQuestion, resolve: (answer: PanelAnswer) => void }[]} */
  const queue = [];
  let showing = false;

  /**
   * Ask the person a question in the panel; resolve with the action they chose and the text
   * they typed ('' without a field).
   * @param {PanelQuestion} question
   * @returns {Promise<PanelAnswer>}
   */
  function ask(question) {
    return new Promise((resolve) => {
      queue.push({ question, resolve });
      if (!showing) void showNext();
    });
  }

  async function showNext() {
    const next = queue.shift();
    if (!next) {
      showing = false;
      return;
    }
    showing = true;
    if (!document.body) await new Promise((ready) => document.addEventListener('DOMContentLoaded', ready, { once: true }));
    next.resolve(await show(next.question));
    void showNext();
  }

  /**
   * Show one question and resolve when it is answered.
   * @param {PanelQuestion} question
   * @returns {Promise<PanelAnswer>}
   */
  function show(question) {
    const before = document.activeElement;
    const host = document.createElement('testwallet-panel');
    const root = host.attachShadow({ mode: 'open' });
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      root.adoptedStyleSheets = [sheet];
    } catch {
      // No constructable sheets (an old browser): the panel works unstyled.
    }
    const section = element('section');
    section.setAttribute('role', 'dialog');
    section.setAttribute('aria-label', 'Test wallet');
    section.setAttribute('aria-describedby', 'testwallet-panel-title');
    const badge = element('p', 'Test wallet — a stand-in for testing, not part of this site');
    badge.className = 'badge';
    const title = element('h2', question.title);
    title.id = 'testwallet-panel-title';
    section.append(badge, title, ...(question.lines ?? []).map((line) => element('p', line)));

    const form = element('form');
    /** @type {HTMLInputElement | null} */
    let input = null;
    if (question.field) {
      const label = element('label', question.field.label);
      input = /** @type {HTMLInputElement} */ (element('input'));
      input.type = 'text';
      input.autocomplete = 'off';
      input.value = question.field.value ?? '';
      label.append(input);
      form.append(label);
    }
    const actions = element('div');
    actions.className = 'actions';
    const buttons = question.actions.map((action, index) => {
      const button = /** @type {HTMLButtonElement} */ (element('button', action.label));
      button.type = index === 0 ? 'submit' : 'button';
      if (index === 0) button.className = 'primary';
      return button;
    });
    actions.append(...buttons);
    form.append(actions);
    section.append(form);
    root.append(section);
    document.body.append(host);
    const place = () => {
      delete section.dataset.place;
      const avoid = mustStayInView(host, before);
      if (covers(section, avoid)) {
        section.dataset.place = 'top';
        if (covers(section, avoid)) delete section.dataset.place; // covered either way: the usual corner
      }
    };
    place();
    // The page may show its status line just after the question comes (a wait it starts meanwhile):
    // place the panel again whenever the page changes while it asks (its own shadow tree is not watched).
    const watch = new MutationObserver(place);
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });

    return new Promise((resolve) => {
      /** @param {string} action */
      const answer = (action) => {
        watch.disconnect();
        host.remove();
        if (before instanceof HTMLElement && before.isConnected) before.focus({ preventScroll: true });
        resolve({ action, text: input ? input.value : '' });
      };
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        answer(question.actions[0].value);
      });
      buttons.slice(1).forEach((button, index) => {
        button.addEventListener('click', () => answer(question.actions[index + 1].value));
      });
      section.addEventListener('keydown', (event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        answer(question.cancel);
      });
      (input ?? buttons[0]).focus({ preventScroll: true });
    });
  }

  /**
   * What of the page the panel must not cover: its focused control, and each status line it shows
   * (a live region with words) with that line's controls.
   * @param {Element} host the panel's own element
   * @param {Element | null} focused
   * @returns {Element[]}
   */
  function mustStayInView(host, focused) {
    const live = [...document.querySelectorAll('[role="status"], [role="alert"], [role="log"], [aria-live]:not([aria-live="off"])')]
      .filter((region) => region !== host && (region.textContent ?? '').trim() !== '');
    const shown = focused && focused !== document.body && focused !== document.documentElement ? [focused] : [];
    return [...shown, ...live].filter((element) => element.getClientRects().length > 0);
  }

  /**
   * Whether the panel, where it is now, covers any of `elements`.
   * @param {HTMLElement} section
   * @param {Element[]} elements
   */
  function covers(section, elements) {
    const box = section.getBoundingClientRect();
    return elements.some((element) => {
      const { left, right, top, bottom } = element.getBoundingClientRect();
      return left < box.right && right > box.left && top < box.bottom && bottom > box.top;
    });
  }

  /**
   * A new element of the panel, with its text (never HTML).
   * @param {string} tag
   * @param {string} [text]
   */
  function element(tag, text) {
    const made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    return made;
  }

  Object.defineProperty(window, '__testwalletPanel', {
    value: Object.freeze({ ask }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
