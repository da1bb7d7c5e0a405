// The app's words: every user-facing string comes from one catalog per language
// (strings/<language>.json), chosen in Settings or else from the browser's languages. A string
// that counts is an object of plural forms (`one`, `few`, `many`, `other`…), chosen by the
// language's own rules; numbers, dates and times are written as the language writes them.

/** The languages the app speaks, by the tag of their catalog, each named in itself. */
export const languages = { en: 'English', es: 'Español', fr: 'Français', de: 'Deutsch', 'zh-Hans': '简体中文' };

const storedKey = 'notetaker.language';
let catalog = {};
let language = 'en';
let plurals = new Intl.PluralRules('en');
let numbers = new Intl.NumberFormat('en');

/**
 * The language to speak: the one chosen in Settings (`stored`), else the first of the
 * browser's languages the app speaks (Chinese as written in mainland China and Singapore),
 * else English.
 */
export function chooseLanguage(stored, browserLanguages) {
  if (stored && Object.hasOwn(languages, stored)) return stored;
  for (const tag of browserLanguages ?? []) {
    const lower = String(tag).toLowerCase();
    if (/^zh(-hans|-cn|-sg)?(-|$)/.test(lower) && !/^zh-(hant|tw|hk|mo)/.test(lower)) return 'zh-Hans';
    const primary = lower.split('-')[0];
    if (primary !== 'zh' && Object.hasOwn(languages, primary)) return primary;
  }
  return 'en';
}

/**
 * How dates and numbers are written in `tag`: as the first of the browser's languages in the
 * same language says (`en-GB`, `fr-CA`), else as the language itself does.
 */
export function formattingLocale(tag, browserLanguages) {
  const primary = tag.split('-')[0];
  const regional = (browserLanguages ?? []).find((browser) => String(browser).toLowerCase().split('-')[0] === primary);
  if (!regional || (tag === 'zh-Hans' && chooseLanguage(null, [regional]) !== 'zh-Hans')) return tag;
  return regional;
}

/** The language chosen in Settings, or `null` to follow the browser. */
export function chosenLanguage() {
  const stored = localStorage.getItem(storedKey);
  return Object.hasOwn(languages, stored ?? '') ? stored : null;
}

/** Keeps `tag` (or the browser's languages, for `null`) for the next load. */
export function chooseLanguageInSettings(tag) {
  if (tag && Object.hasOwn(languages, tag)) localStorage.setItem(storedKey, tag); else localStorage.removeItem(storedKey);
}

/** The language being spoken. */
export function currentLanguage() { return language; }

/** Loads the catalog of the language to speak, and says which one it is to the page. */
export async function loadStrings(tag = chooseLanguage(chosenLanguage(), navigator.languages)) {
  const response = await fetch(`/strings/${tag}.json`);
  useCatalog(tag, await response.json(), formattingLocale(tag, navigator.languages));
}

/** Speaks `tag` from `strings` (its catalog), writing dates and numbers as `locale` does. */
export function useCatalog(tag, strings, locale = tag) {
  catalog = strings;
  language = tag;
  plurals = new Intl.PluralRules(tag);
  numbers = new Intl.NumberFormat(locale);
  dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  dateTimeSeconds = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  timeOnly = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
  dateOnly = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  if (typeof document !== 'undefined') document.documentElement.lang = tag;
}

/**
 * The string for `key`, with `{name}` placeholders filled from `values` (numbers written as
 * the language writes them); for a string of plural forms, the form `values.count` takes.
 */
export function t(key, values = {}) {
  let text = catalog[key];
  if (text === undefined) return key;
  if (typeof text === 'object') text = text[plurals.select(Number(values.count))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = values[name];
    return typeof value === 'number' ? numbers.format(value) : (value ?? '');
  });
}

/** Fills `data-i18n` (text), `data-i18n-label`, `data-i18n-placeholder` and `data-i18n-title`. */
export function applyStrings(root = document) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-label]')) element.setAttribute('aria-label', t(element.dataset.i18nLabel));
  for (const element of root.querySelectorAll('[data-i18n-placeholder]')) element.placeholder = t(element.dataset.i18nPlaceholder);
  for (const element of root.querySelectorAll('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle);
}

let dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
let dateTimeSeconds = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
let timeOnly = new Intl.DateTimeFormat('en', { timeStyle: 'short' });
let dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** A date as the list shows it: the time today, the date otherwise. */
export function shortDate(iso) {
  const date = new Date(iso);
  const today = new Date();
  return date.toDateString() === today.toDateString() ? timeOnly.format(date) : dateOnly.format(date);
}

/** A date and time as the language writes them. */
export function longDate(iso) {
  return dateTime.format(new Date(iso));
}

/** A date and time to the second, where versions minutes apart must read apart (history). */
export function preciseDate(iso) {
  return dateTimeSeconds.format(new Date(iso));
}

/** The modifier keys as the language's keyboards name them, for shortcuts (markdown-tools' `shortcutText`). */
export function keyNames() {
  return { ctrl: t('keyCtrl'), shift: t('keyShift') };
}

/** A number as the language writes it (1,234 or 1 234 or 1.234). */
export function formatNumber(value) {
  return numbers.format(value);
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
  const number = new Intl.NumberFormat(numbers.resolvedOptions().locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return t(units[unit], { value: number });
}
