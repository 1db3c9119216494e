// Coloretto's cards from engine notation (docs/coloretto.md): "orange" … "pink", "joker",
// "+2", "last-round". Every colour has its own shape (circle, square, triangle, star,
// diamond, hexagon, heart), drawn big on the card and named in its accessible name, so
// nobody depends on colour alone.
import { t } from "../../i18n.js";
import { h, svg } from "../../ui.js";

export const COLOURS = ["orange", "blue", "brown", "yellow", "grey", "green", "pink"];
export const JOKER = "joker";
export const PLUS2 = "+2";
export const LAST = "last-round";

export const SHAPE_OF = {
  orange: "circle",
  blue: "square",
  brown: "triangle",
  yellow: "star",
  grey: "diamond",
  green: "hexagon",
  pink: "heart",
  [JOKER]: "rainbow",
  [PLUS2]: "plus",
  [LAST]: "flag",
};

const PATHS = {
  circle: '<circle cx="12" cy="12" r="8.6"/>',
  square: '<rect x="4" y="4" width="16" height="16" rx="1.4"/>',
  triangle: '<path d="M12 3 21.5 20H2.5z" stroke-linejoin="round"/>',
  star: '<path d="M12 1.8l2.95 6.4 7 .8-5.2 4.75 1.45 6.9L12 17.1l-6.2 3.55 1.45-6.9L2.05 9l7-.8z" stroke-linejoin="round"/>',
  diamond: '<path d="M12 1.8 21.6 12 12 22.2 2.4 12z" stroke-linejoin="round"/>',
  hexagon: '<path d="M12 2.2 20.5 7.1v9.8L12 21.8l-8.5-4.9V7.1z" stroke-linejoin="round"/>',
  heart: '<path d="M12 21.2S2.6 15.4 2.6 8.9A4.9 4.9 0 0 1 12 6.9a4.9 4.9 0 0 1 9.4 2c0 6.5-9.4 12.3-9.4 12.3z" stroke-linejoin="round"/>',
  rainbow:
    '<path d="M2.5 18a9.5 9.5 0 0 1 19 0" fill="none" stroke="#e53935" stroke-width="2.6"/>' +
    '<path d="M5.2 18a6.8 6.8 0 0 1 13.6 0" fill="none" stroke="#fdd835" stroke-width="2.6"/>' +
    '<path d="M7.9 18a4.1 4.1 0 0 1 8.2 0" fill="none" stroke="#43a047" stroke-width="2.6"/>' +
    '<path d="M10.5 18a1.5 1.5 0 0 1 3 0" fill="none" stroke="#1e63c6" stroke-width="2.4"/>',
  plus: '<path d="M9.6 3.5h4.8v6.1h6.1v4.8h-6.1v6.1H9.6v-6.1H3.5V9.6h6.1z" stroke-linejoin="round"/>',
  flag: '<path d="M5 2.5v19" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>' +
    '<path d="M6 3.5h12.5l-3.2 4.3 3.2 4.3H6z"/>',
};

// The shape of a kind of card, as an inline SVG (drawn with the card's own ink colour).
export function shapeSvg(kind, cls = "cshape") {
  const shape = SHAPE_OF[kind] || "circle";
  return svg(PATHS[shape], { cls: `${cls} cshape-${shape}` });
}

export function colourName(c) {
  return t(`coloretto.colour.${c}`);
}

export function shapeName(kind) {
  return t(`coloretto.shape.${SHAPE_OF[kind]}`);
}

// Accessible name: "Orange (circle)", "Joker (rainbow)", "+2 card (plus)".
export function cardLabel(card) {
  if (card === JOKER) return t("coloretto.card.joker");
  if (card === PLUS2) return t("coloretto.card.plus2");
  if (card === LAST) return t("coloretto.card.lastRound");
  return t("coloretto.card.colour", { colour: colourName(card), shape: shapeName(card) });
}

// "Orange (circle), +2 card (plus)"; a list of no card says so.
export function cardsLabel(cards) {
  return cards && cards.length ? cards.map(cardLabel).join(", ") : t("coloretto.table.noCard");
}

function kindClass(card) {
  if (card === JOKER) return "k-joker";
  if (card === PLUS2) return "k-plus2";
  if (card === LAST) return "k-last";
  return `k-${card}`;
}

// A card face: its colour, its shape big in the middle (a joker: a rainbow; +2: "+2").
// tag "div" (role img) or "span" (inside a labelled control: no name of its own).
export function renderCard(card, { size = "", tag = "div", label = true } = {}) {
  const el = h(`${tag}.ccard.${kindClass(card)}${size ? `.${size}` : ""}`, { dataset: { card } });
  const face = h("span.ccard-face");
  if (card === PLUS2) {
    face.append(h("span.ccard-plus2", { "aria-hidden": "true" }, "+2"));
  } else {
    face.append(shapeSvg(card, "ccard-shape"));
  }
  el.append(face);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardLabel(card));
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}

// The back of the supply's cards.
export function renderBack({ size = "" } = {}) {
  return h(
    `span.ccard.back${size ? `.${size}` : ""}`,
    { "aria-hidden": "true" },
    h("span.ccard-face", svg(PATHS.rainbow, { cls: "ccard-shape back-rainbow" })),
  );
}

// A free place in a row: a dashed outline.
export function renderSlot({ size = "" } = {}) {
  return h(`span.ccard.slot${size ? `.${size}` : ""}`, { "aria-hidden": "true" });
}
