// @ts-check
// "Add to basket" without leaving the page: the form is posted in the background, the visitor
// stays where they were (the focus on the button they pressed), and the page says what the
// basket holds now, beside the button and in the header. Without this script the form still
// works: the server comes back to the same card and says the same there.

/**
 * @param {Element | null} element @param {string} text
 * @param {'busy' | 'done' | 'error'} [state] a failure is shown in the error colour (bookshop.css)
 */
const say = (element, text, state) => {
  if (!(element instanceof HTMLElement)) return;
  element.textContent = text;
  if (state) element.dataset.state = state;
};

document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.classList.contains('add-to-basket')) return;
  event.preventDefault();
  if (form.dataset.busy) return;
  form.dataset.busy = 'true';
  const status = form.querySelector('.added');
  say(status, 'Adding…', 'busy');
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      body: new FormData(form),
      // The form's own csrfmiddlewaretoken field goes in the body, as with the plain post.
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    const answer = await response.json();
    if (!response.ok || typeof answer?.count !== 'number') throw new Error(String(answer?.message ?? response.status));
    const count = answer.count;
    say(status, `Added “${String(answer.title)}” to your basket (${count} book${count === 1 ? '' : 's'} in it).`, 'done');
    say(document.getElementById('basket-count'), `(${count})`);
  } catch {
    say(status, 'Could not add it: check your connection and press Add to basket again.', 'error');
  } finally {
    delete form.dataset.busy;
  }
});
