// Strings come only from the catalogs: the shell's in /i18n/<lang>.json, and each game's
// own in /i18n/<game>/<lang>.json (every key of a game's catalog starts with "<game>."),
// loaded when the game is first used (useCatalogs) and merged here, so `t()` finds every
// string in one place. The language follows the browser (navigator.languages) unless the
// player picked one with the switch.

export const LANGS = ["en", "es", "tr"];
const STORE_KEY = "cc.lang";

let lang = "en";
let catalog = {}; // the merged catalog of the current language
let fallback = {}; // the merged English one
const loaded = new Map(); // `${namespace}|${lang}` -> catalog ("" is the shell's)
// namespaces in use: reloaded on a language switch ("names": Quick Match's animal names)
const inUse = new Set(["", "names"]);
let merged = new Set(); // the namespaces whose words `catalog` holds now
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

const url = (ns, code) => (ns ? `/i18n/${ns}/${code}.json` : `/i18n/${code}.json`);
// the catalogs a language needs: its own and English, the fallback
const langsOf = (code) => (code === "en" ? ["en"] : [code, "en"]);

const fetching = new Map(); // key -> the promise of a catalog being fetched

function fetchCatalog(ns, code) {
  const key = `${ns}|${code}`;
  if (loaded.has(key)) return Promise.resolve(loaded.get(key));
  if (!fetching.has(key)) {
    const got = (async () => {
      const res = await fetch(url(ns, code), { cache: "no-cache" });
      if (!res.ok) throw new Error(`catalog ${url(ns, code)}: HTTP ${res.status}`);
      const cat = await res.json();
      loaded.set(key, cat);
      return cat;
    })();
    fetching.set(key, got);
    // (a failed fetch is tried again by the next caller)
    got.catch(() => {}).finally(() => fetching.delete(key));
  }
  return fetching.get(key);
}

// Ask for games' catalogs (in `code` and English) now, without using them yet: the start
// asks for them beside the shell's, not a round trip after it. useCatalogs takes them
// from here (or asks again if this failed).
export function prefetchCatalogs(names, code) {
  const langs = langsOf(code);
  for (const ns of names.filter(Boolean)) for (const l of langs) fetchCatalog(ns, l).catch(() => {});
}

// Every catalog in use, of `code` and of English, fetched (once) and merged. The merge
// takes every namespace in use and fetched when the fetches are done, not only those of
// this call: two loads at once (the start's and a table's) may finish in either order,
// and the one finishing last must not drop the other's words.
async function loadAll(code) {
  const langs = langsOf(code);
  await Promise.all([...inUse].flatMap((ns) => langs.map((l) => fetchCatalog(ns, l))));
  const names = [...inUse].filter((ns) => langs.every((l) => loaded.has(`${ns}|${l}`)));
  const merge = (l) => Object.assign({}, ...names.map((ns) => loaded.get(`${ns}|${l}`)));
  return [merge(code), merge("en"), new Set(names)];
}

export async function setLang(code, { remember = false } = {}) {
  if (!LANGS.includes(code)) code = "en";
  [catalog, fallback, merged] = await loadAll(code);
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

// Games' catalogs (namespaces, e.g. "coloretto"): true once all are merged in the
// current language.
export function catalogsReady(names) {
  return names.filter(Boolean).every((ns) => merged.has(ns));
}

// Load games' catalogs (in the current language and English) and merge them in. The
// caller redraws when the promise resolves.
export async function useCatalogs(names) {
  const fresh = names.filter((ns) => ns && !catalogsReady([ns]));
  if (!fresh.length) return;
  for (const ns of fresh) inUse.add(ns);
  const code = lang;
  const [cat, fb, done] = await loadAll(code);
  if (code === lang) {
    catalog = cat;
    fallback = fb;
    merged = done;
  }
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

// In this language's catalog or in English's, which `t` falls back to.
export function hasAny(key) {
  return has(key) || Object.prototype.hasOwnProperty.call(fallback, key);
}

// A player's name written in a right-to-left script ("سارة", "אבי") is isolated from the
// sentence around it (FSI ... PDI): else the sentence's numbers and signs next to it
// took its direction and moved ("سارة 2" read as "2 سارة"), and a name could reorder
// the words that follow it. Names in left-to-right scripts are left as they are.
const NAME_VARS = new Set(["name", "names", "by"]);
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/;
function isolateName(text) {
  const s = String(text);
  return RTL.test(s) ? `\u2068${s}\u2069` : s;
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
    vars[name] === undefined ? m : NAME_VARS.has(name) ? isolateName(vars[name]) : String(vars[name]),
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
