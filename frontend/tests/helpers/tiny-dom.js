// @ts-check
/**
 * A tiny DOM double for node tests of frontend/ui modules that build elements: a document that
 * makes elements and text nodes, and elements with the members those modules use (append,
 * after, textContent, className / classList, dataset, hidden, attributes). It has no HTML parser
 * on purpose: setting `innerHTML` or `outerHTML`, or calling `insertAdjacentHTML`, throws, so a
 * module that ever renders markup fails its tests.
 */

class TinyText {
  /** @param {string} data */
  constructor(data) {
    this.nodeType = 3;
    this.data = data;
    /** @type {TinyElement | null} */
    this.parentNode = null;
  }

  get textContent() {
    return this.data;
  }
}

class TinyElement {
  /**
   * @param {TinyDocument} ownerDocument
   * @param {string} tagName
   */
  constructor(ownerDocument, tagName) {
    this.nodeType = 1;
    this.ownerDocument = ownerDocument;
    this.tagName = tagName.toUpperCase();
    /** @type {(TinyElement | TinyText)[]} */
    this.childNodes = [];
    /** @type {TinyElement | null} */
    this.parentNode = null;
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** @type {Map<string, string>} */
    this.attributes = new Map();
    this.hidden = false;
    this.className = '';
    const element = this;
    this.classList = {
      /** @param {string[]} names */
      add(...names) {
        const classes = new Set(element.className.split(' ').filter(Boolean));
        for (const name of names) classes.add(name);
        element.className = [...classes].join(' ');
      },
      /** @param {string} name */
      contains: (name) => element.className.split(' ').includes(name),
    };
  }

  /** The element children, as `children` lists them. */
  get children() {
    return /** @type {TinyElement[]} */ (this.childNodes.filter((node) => node.nodeType === 1));
  }

  /** @returns {string} */
  get textContent() {
    return this.childNodes.map((node) => node.textContent).join('');
  }

  set textContent(text) {
    this.#adopt([]);
    if (text !== '') this.append(String(text));
  }

  /** @param {(TinyElement | TinyText | string)[]} nodes */
  append(...nodes) {
    for (const node of this.#nodes(nodes)) {
      node.parentNode?.removeChild(node);
      node.parentNode = this;
      this.childNodes.push(node);
    }
  }

  /** @param {(TinyElement | TinyText | string)[]} nodes */
  after(...nodes) {
    const parent = this.parentNode;
    if (!parent) throw new Error('after() on an element without a parent');
    let index = parent.childNodes.indexOf(this) + 1;
    for (const node of this.#nodes(nodes)) {
      node.parentNode?.removeChild(node);
      node.parentNode = parent;
      parent.childNodes.splice(index, 0, node);
      index += 1;
    }
  }

  /** Take this element out of its parent, as Element.remove() does. */
  remove() {
    this.parentNode?.removeChild(this);
  }

  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  /** @param {string} name */
  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }

  /** @param {string} _html */
  set innerHTML(_html) {
    throw new Error('innerHTML was set: this module must render text only');
  }

  /** @param {string} _html */
  set outerHTML(_html) {
    throw new Error('outerHTML was set: this module must render text only');
  }

  insertAdjacentHTML() {
    throw new Error('insertAdjacentHTML was called: this module must render text only');
  }

  /**
   * Every element below this one, depth first, that `test` accepts.
   *
   * @param {(element: TinyElement) => boolean} test
   * @returns {TinyElement[]}
   */
  findAll(test) {
    return this.children.flatMap((child) => [...(test(child) ? [child] : []), ...child.findAll(test)]);
  }

  /**
   * The elements below this one that have every class in `classes` (a space-separated list).
   *
   * @param {string} classes
   */
  byClass(classes) {
    const wanted = classes.split(' ');
    return this.findAll((element) => wanted.every((name) => element.classList.contains(name)));
  }

  /** @param {(TinyElement | TinyText | string)[]} nodes */
  #nodes(nodes) {
    return nodes.map((node) => (typeof node === 'string' ? this.ownerDocument.createTextNode(node) : node));
  }

  /** @param {(TinyElement | TinyText)[]} nodes */
  #adopt(nodes) {
    for (const node of this.childNodes) node.parentNode = null;
    this.childNodes = nodes;
  }

  /** @param {TinyElement | TinyText} node */
  removeChild(node) {
    this.childNodes = this.childNodes.filter((child) => child !== node);
    node.parentNode = null;
    return node;
  }
}

class TinyDocument {
  /** @param {string} tagName */
  createElement(tagName) {
    return new TinyElement(this, tagName);
  }

  /** @param {string} data */
  createTextNode(data) {
    return new TinyText(data);
  }
}

/**
 * Return a new document double and an element in it (a `div`) to render into.
 *
 * @returns {{ document: TinyDocument, container: TinyElement }}
 */
export function tinyDom() {
  const document = new TinyDocument();
  return { document, container: document.createElement('div') };
}

/**
 * Return the element double as the `HTMLElement` a module's JSDoc asks for.
 *
 * @param {TinyElement} element
 * @returns {HTMLElement}
 */
export function asHtmlElement(element) {
  return /** @type {any} */ (element);
}
