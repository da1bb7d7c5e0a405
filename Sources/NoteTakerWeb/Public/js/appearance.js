// Light, dark, or as the system is set: the choice is kept on this device, in this browser.

const key = 'notetaker.theme';
export const themes = ['system', 'light', 'dark'];

/** The chosen theme: `system` unless Settings chose light or dark. */
export function currentTheme() {
  const stored = localStorage.getItem(key);
  return themes.includes(stored) ? stored : 'system';
}

/** Puts the chosen theme on the page (the stylesheet reads `data-theme`, else the system's). */
export function applyTheme(theme = currentTheme()) {
  if (theme === 'system') {
    delete document.documentElement.dataset.theme;
  } else {
    document.documentElement.dataset.theme = theme;
  }
}

/** Chooses a theme and shows it at once. */
export function setTheme(theme) {
  if (theme === 'system') localStorage.removeItem(key); else localStorage.setItem(key, theme);
  applyTheme(theme);
}
