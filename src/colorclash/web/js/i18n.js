// Strings come only from the catalogs in /i18n/<lang>.json, plus one catalog per game
// that asks for it (/i18n/<game>/<lang>.json, keys starting with "<game>."). The language
// follows the browser (navigator.languages) unless the player picked one with the switch.

export const LANGS = ["en", "es", "tr"];
const STORE_KEY = "cc.lang";

let lang = "en";
let catalog = {};
let fallback = {};
let fallbackHolds = null; // the games whose catalogs `fallback` holds
const listeners = new Set();
const gameCatalogs = new Set(); // games whose own catalogs load with every language
let merged = new Set(); // the games whose catalogs the current catalog holds
let loaded = false; // a language has been set (a catalog asked for later loads at once)

// Keys asked for but missing from the current catalog. The browser tests read this
// and fail on any untranslated key.
window.__i18nMissing = window.__i18nMissing || new Set();

export function detectLang() {
  const params = new URLSearchParams(location.search);
  const forced = params.get("lang");
  if (forced && LANGS.includes(forced)) return forced;
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (saved && LANGS.includes(saved)) return saved;
  } catch {
    /* storage may be blocked */
  }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function fetchCatalog(code) {
  const res = await fetch(`/i18n/${code}.json`, { cache: "no-cache" });
  if (!res.ok) throw new Error(`catalog ${code}: HTTP ${res.status}`);
  return res.json();
}

// The site's catalog of a language merged with these games' catalogs (a game's catalog
// that cannot be loaded leaves its keys to the English fallback or shows them missing).
async function fetchAll(code, games) {
  const parts = await Promise.all([
    fetchCatalog(code),
    ...games.map((game) => fetchCatalog(`${game}/${code}`).catch(() => ({}))),
  ]);
  return Object.assign({}, ...parts);
}

// Games' own catalogs (i18n/<game>/<lang>.json): true once all of them are in the
// current catalog.
export function catalogsReady(names) {
  return names.filter(Boolean).every((game) => merged.has(game));
}

// A game's table module asks for its catalog when it is loaded; from then on it loads
// with every language. Asked after the first language was set, it loads at once and the
// screens redraw (as after a language switch).
export async function useCatalogs(names) {
  const fresh = names.filter((game) => game && !gameCatalogs.has(game));
  if (!fresh.length) return;
  for (const game of fresh) gameCatalogs.add(game);
  if (loaded) await setLang(lang);
}

export async function setLang(code, { remember = false } = {}) {
  if (!LANGS.includes(code)) code = "en";
  const games = [...gameCatalogs];
  const holds = games.join(",");
  const [cat, fb] = await Promise.all([
    fetchAll(code, games),
    code === "en" ? null : fallbackHolds === holds ? fallback : fetchAll("en", games),
  ]);
  catalog = cat;
  fallback = code === "en" ? cat : fb;
  fallbackHolds = holds;
  merged = new Set(games);
  lang = code;
  loaded = true;
  document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(STORE_KEY, code);
    } catch {
      /* ignore */
    }
  }
  applyStatic(document);
  for (const fn of listeners) fn(code);
}

export function getLang() {
  return lang;
}

export function onLangChange(fn) {
  listeners.add(fn);
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(catalog, key);
}

// t("table.drawN", {n: 4}) -> "DRAW +4". Plural forms: a catalog value may be an object
// {"one": "...", "other": "..."} chosen by Intl.PluralRules on vars.n.
export function t(key, vars = {}) {
  let s = catalog[key];
  if (s === undefined) {
    window.__i18nMissing.add(`${lang}:${key}`);
    s = fallback[key];
    if (s === undefined) return `⟦${key}⟧`;
  }
  if (s && typeof s === "object") {
    const rule = new Intl.PluralRules(lang).select(Number(vars.n ?? 0));
    s = s[rule] ?? s.other;
  }
  return String(s).replace(/\{(\w+)\}/g, (m, name) =>
    vars[name] === undefined ? m : String(vars[name]),
  );
}

// Fill elements marked with data-i18n (text), data-i18n-aria (aria-label),
// data-i18n-placeholder and data-i18n-title.
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]"))
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]"))
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  for (const el of root.querySelectorAll("[data-i18n-title]"))
    el.setAttribute("title", t(el.dataset.i18nTitle));
}
