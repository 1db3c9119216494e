// Strings come only from the catalogs in /i18n/<lang>.json. The language follows the
// browser (navigator.languages) unless the player picked one with the switch.

export const LANGS = ["en", "es", "tr"];
const STORE_KEY = "cc.lang";

let lang = "en";
let catalog = {};
let fallback = {};
const listeners = new Set();

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

export async function setLang(code, { remember = false } = {}) {
  if (!LANGS.includes(code)) code = "en";
  const [cat, fb] = await Promise.all([
    fetchCatalog(code),
    code === "en" ? null : Object.keys(fallback).length ? fallback : fetchCatalog("en"),
  ]);
  catalog = cat;
  fallback = code === "en" ? cat : fb;
  lang = code;
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
