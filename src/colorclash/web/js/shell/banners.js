// Banners: the big short messages over the table ("+2 STACKED!", "BOOM").
//
// A banner belongs to the game and the moment (one `state` of the server) that raised
// it. When the table moves on (a newer state, another match, another room, leaving the
// table) or a dialog covers it, the banner goes at once: it never outlives its game and
// never lags behind the table. Within one moment a few banners follow each other.
//
// A banner item is {text: () => string, cls?: string, icon?: () => Node}: the text is a
// function so that a language switch redraws the banner on screen in the new language.
import { h } from "../ui.js";

const FIRST_MS = 1400; // a lone banner (or the last of a moment)
const NEXT_MS = 900; // a banner with more of its moment waiting
const MAX_PER_MOMENT = 3;

export class Banners {
  constructor(layerId = "banner-layer") {
    this.layerId = layerId;
    this.moment = null;
    this.queue = [];
    this.current = null;
    this.timer = null;
    this.held = false;
  }

  layer() {
    return document.getElementById(this.layerId);
  }

  // The table now shows `moment` (any string naming game + state). Banners of any other
  // moment are removed at once.
  at(moment) {
    if (moment === this.moment) return;
    this.moment = moment;
    this.clear();
  }

  // Show these banners for the moment on screen (a burst keeps its last few).
  show(items, moment) {
    this.at(moment);
    const list = (items || []).filter(Boolean);
    if (!list.length || this.held) return;
    this.queue.push(...list);
    if (this.queue.length > MAX_PER_MOMENT) this.queue.splice(0, this.queue.length - MAX_PER_MOMENT);
    if (!this.current) this._next();
  }

  // While a dialog (results, colour chooser) covers the table, no banner shows.
  hold(on) {
    if (on === this.held) return;
    this.held = on;
    if (on) this.clear();
  }

  // Redraw the banner on screen (after a language switch).
  refresh() {
    if (this.current) this._draw(this.current);
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.current = null;
    const layer = this.layer();
    if (layer) layer.replaceChildren();
  }

  _next() {
    const item = this.queue.shift();
    this.current = item || null;
    const layer = this.layer();
    if (!item) {
      if (layer) layer.replaceChildren();
      return;
    }
    this._draw(item);
    this.timer = setTimeout(() => this._next(), this.queue.length ? NEXT_MS : FIRST_MS);
  }

  _draw(item) {
    const layer = this.layer();
    if (!layer) return;
    const b = h(`div.banner${item.cls ? `.${item.cls}` : ""}`, item.text());
    if (item.icon) b.prepend(item.icon());
    b.dataset.testid = "banner";
    layer.replaceChildren(b);
    place(layer, b);
  }
}

// Where a banner stands: by the table's banner spot when the game marks one
// ([data-banner-spot]: Color Clash's line under the piles, which says the same in words),
// else a fifth of the way down (the layer's own padding). There it hides neither the
// piles it speaks of nor the other players. When the game also marks what lies below
// ([data-banner-floor]: your own bar) and the band between them holds the banner, it
// stands in that band, under the line: over it, "Colour: Red" hid "… You draw 4 cards"
// for its 1.4 s (a player review). Else it is centred on the spot.
// Across, where the panel of recent moves stands beside the table (a desktop), the banner
// stays left of it, centred on the spot as far as it can: centred on the window, a long
// one ran over the panel ("RELOJ DE MEDIANOCHE EN MARCHA" hid the very line that said
// what it was: a player review). Elsewhere (a phone, its panel a drawer) it stays centred
// on the window: fitted to a narrow column, it was squeezed into a tower.
function place(layer, banner) {
  layer.style.paddingTop = "";
  const spot = document.querySelector("main [data-banner-spot]");
  if (!spot) return;
  const r = spot.getBoundingClientRect();
  if (!r.height && !r.width) return;
  const side = document.getElementById("history");
  const p = side ? side.getBoundingClientRect() : null;
  const cx = r.left + r.width / 2;
  if (p && p.width && p.height && p.left > cx && p.left < window.innerWidth && p.left - 16 >= 320) {
    banner.style.maxWidth = `${p.left - 16}px`;
    banner.style.justifySelf = "start";
    const width = banner.offsetWidth;
    banner.style.marginLeft = `${Math.max(8, Math.min(cx - width / 2, p.left - 8 - width))}px`;
  }
  const height = banner.offsetHeight;
  let top = r.top + r.height / 2 - height / 2;
  const floor = document.querySelector("main [data-banner-floor]");
  const f = floor ? floor.getBoundingClientRect() : null;
  const band = f && (f.height || f.width) ? f.top - r.bottom : 0;
  if (band >= height + 8) top = r.bottom + (band - height) / 2;
  layer.style.paddingTop = `${Math.max(8, Math.min(top, window.innerHeight - height - 8))}px`;
}
