// Building elements without HTML strings: text is always text. The only HTML put into the
// page comes from the server's sanitizer (rendered notes, search snippets).

/** An element with attributes, properties (`on…` handlers, `dataset`) and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key === 'className') element.className = value;
    else if (value === true) element.setAttribute(key, '');
    else element.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Replaces an element's children; `null`, `undefined` and `false` stand for none, as in `h`. */
export function replaceChildren(element, ...children) {
  element.replaceChildren(...shown(children));
}

/**
 * Adds children to an element, skipping `null`, `undefined` and `false` as `h` does (the DOM's
 * own `append` would write them as the text "null").
 */
export function append(element, ...children) {
  element.append(...shown(children));
}

function shown(children) {
  return children.flat().filter((child) => child !== null && child !== undefined && child !== false);
}

/** Calls `action` once `wait` ms have passed without another call. */
export function debounce(action, wait) {
  let timer;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...args), wait);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

/**
 * Shows a short message in the status region; with an `action` ({ label, run }), a button
 * beside it (Undo) and longer to reach it.
 */
export function toast(message, action = null) {
  const region = document.getElementById('toast');
  region.textContent = message;
  if (action) {
    region.append(' ', h('button', {
      type: 'button', className: 'toast-action', onclick: () => {
        region.classList.remove('visible');
        action.run();
      },
    }, action.label));
  }
  region.classList.add('visible');
  region.classList.toggle('has-action', Boolean(action));
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => region.classList.remove('visible'), action ? 8000 : 4000);
}
