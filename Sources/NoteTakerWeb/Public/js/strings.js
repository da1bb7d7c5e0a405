// The app's words: every user-facing string comes from one catalog (strings/en.json), so a
// translation is one more file. Dates, times and numbers use the browser's locale.

let catalog = {};

export async function loadStrings(language = 'en') {
  const response = await fetch(`/strings/${language}.json`);
  catalog = await response.json();
}

/** The string for `key`, with `{name}` placeholders filled from `values`. */
export function t(key, values = {}) {
  const text = catalog[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (values[name] ?? ''));
}

/** Fills `data-i18n` (text), `data-i18n-label`, `data-i18n-placeholder` and `data-i18n-title`. */
export function applyStrings(root = document) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-label]')) element.setAttribute('aria-label', t(element.dataset.i18nLabel));
  for (const element of root.querySelectorAll('[data-i18n-placeholder]')) element.placeholder = t(element.dataset.i18nPlaceholder);
  for (const element of root.querySelectorAll('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A date as the list shows it: the time today, the date otherwise. */
export function shortDate(iso) {
  const date = new Date(iso);
  const today = new Date();
  return date.toDateString() === today.toDateString() ? timeOnly.format(date) : dateOnly.format(date);
}

/** A date and time in the browser's locale. */
export function longDate(iso) {
  return dateTime.format(new Date(iso));
}

/** A date and time to the second, where versions minutes apart must read apart (history). */
export function preciseDate(iso) {
  return dateTimeSeconds.format(new Date(iso));
}

/** A file size in the units people read. */
export function fileSize(bytes) {
  const units = ['sizeBytes', 'sizeKB', 'sizeMB', 'sizeGB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return t(units[unit], { value: number });
}
