// @ts-check
/**
 * <ai-connect-widget>: shows an AiConnect client's state and lets the visitor
 * connect, disconnect or try again. Drop it in any page and give it a client:
 *
 *   import { AiConnect } from '/static/aiconnect/index.js';
 *   import '/static/ui/connect-widget.js';
 *   document.querySelector('ai-connect-widget').client = new AiConnect();
 *
 * It renders in the light DOM (style it with frontend/ui/ui.css or your own
 * CSS), sets `data-state` to the client's status, follows every state change
 * (link notices included) without a reload, and announces changes politely to
 * screen readers. Names and messages from the wallet are set as text, never HTML.
 */

import { answeredBy } from './answered-by.js';

export { answeredBy };

/** @typedef {import('../aiconnect/types.js').ConnectionState} ConnectionState */
/** @typedef {import('../aiconnect/client.js').AiConnect} AiConnect */

export class ConnectWidget extends HTMLElement {
  /** @type {AiConnect | null} */
  #client = null;
  /** @type {(() => void) | null} */
  #unsubscribe = null;
  #status = document.createElement('span');
  #action = document.createElement('span');

  connectedCallback() {
    this.classList.add('connect-widget');
    this.setAttribute('role', 'status');
    this.setAttribute('aria-live', 'polite');
    this.#status.className = 'connect-widget__status';
    this.#action.className = 'connect-widget__action';
    this.replaceChildren(this.#status, this.#action);
    if (this.#client) this.#render(this.#client.state);
  }

  disconnectedCallback() {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /** The client whose state this widget shows. */
  get client() {
    return this.#client;
  }

  set client(client) {
    this.#unsubscribe?.();
    this.#client = client;
    if (!client) return;
    this.#unsubscribe = client.subscribe((state) => this.#render(state));
    // subscribe() does not call back with the current state: render it now.
    this.#render(client.state);
  }

  /** @param {ConnectionState} state */
  #render(state) {
    // The action's button is replaced below: when it had the keyboard's focus, the focus follows
    // to the new one (or to the status while there is none), never falling to the page's body.
    const hadFocus = this.contains(document.activeElement);
    this.#draw(state);
    if (!hadFocus) return;
    const next = /** @type {HTMLElement | null} */ (this.#action.querySelector('button, a'));
    if (next) {
      next.focus();
    } else {
      this.#status.tabIndex = -1;
      this.#status.focus();
    }
  }

  /** @param {ConnectionState} state */
  #draw(state) {
    this.dataset.state = state.status;
    this.#action.replaceChildren();
    switch (state.status) {
      case 'checking':
        this.#status.textContent = 'Looking for AI Wallet…';
        break;
      case 'noWallet': {
        this.#status.textContent = 'No AI Wallet in this browser. This page works without it.';
        const link = document.createElement('a');
        link.href = this.#client?.installUrl ?? '#';
        link.rel = 'noopener';
        link.target = '_blank';
        link.textContent = 'Get AI Wallet';
        this.#action.append(link);
        break;
      }
      case 'disconnected':
        this.#status.textContent = 'Use your own AI here, through AI Wallet.';
        this.#action.append(this.#button('Connect your AI', () => this.#client?.connect()));
        break;
      case 'connecting': {
        const spinner = document.createElement('span');
        spinner.className = 'connect-widget__spinner';
        spinner.setAttribute('aria-hidden', 'true');
        // The wallet asks the visitor first (and may load a model): say so, and that nothing waits on it.
        this.#status.replaceChildren(spinner, 'Waiting for you in AI Wallet… This page works without it meanwhile.');
        break;
      }
      case 'connected':
        this.#status.textContent = answeredBy(state);
        this.#action.append(this.#button('Disconnect', () => this.#disconnect()));
        break;
      case 'error':
        this.#status.textContent = state.message;
        this.#action.append(this.#button('Try again', () => this.#client?.connect()));
        break;
    }
  }

  async #disconnect() {
    try {
      await this.#client?.disconnect();
    } catch (error) {
      // disconnect() rejects when the wallet refuses ("The wallet is locked"): say so.
      this.#status.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * @param {string} label
   * @param {() => unknown} onClick
   */
  #button(label, onClick) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', () => void onClick());
    return button;
  }
}

if (!customElements.get('ai-connect-widget')) customElements.define('ai-connect-widget', ConnectWidget);
