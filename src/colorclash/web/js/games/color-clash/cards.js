// Card rendering from engine notation (spec section 1 and 7): colour AND shape AND
// symbol on every card, so nobody depends on colour alone.
import { t } from "../../i18n.js";
import { svg } from "../../ui.js";

export { svg };

export const COLORS = ["R", "B", "Y", "G"];
export const SHAPE_OF = { R: "circle", B: "square", Y: "triangle", G: "diamond" };

const SHAPES = {
  circle: '<circle cx="12" cy="12" r="9"/>',
  square: '<rect x="3.5" y="3.5" width="17" height="17" rx="1.5"/>',
  triangle: '<path d="M12 2.8 22 20.5H2z" stroke-linejoin="round"/>',
  diamond: '<path d="M12 1.8 22.2 12 12 22.2 1.8 12z" stroke-linejoin="round"/>',
};

export function shapeSvg(color, cls = "shape") {
  const shape = SHAPE_OF[color];
  return svg(shape ? SHAPES[shape] : "", { cls: `${cls} shape-${color}` });
}

// Icons for action symbols (drawn with currentColor).
const ICONS = {
  skip:
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="3"/>' +
    '<path d="M6 18 18 6" stroke="currentColor" stroke-width="3" stroke-linecap="round"/>',
  skipall:
    '<circle cx="8" cy="12" r="5.5" fill="none" stroke="currentColor" stroke-width="2.2"/>' +
    '<path d="M4.2 15.8 11.8 8.2" stroke="currentColor" stroke-width="2.2"/>' +
    '<circle cx="16" cy="12" r="5.5" fill="none" stroke="currentColor" stroke-width="2.2"/>' +
    '<path d="M12.2 15.8 19.8 8.2" stroke="currentColor" stroke-width="2.2"/>',
  reverse:
    '<path d="M4 9h13l-3.5-3.5M20 15H7l3.5 3.5" fill="none" stroke="currentColor" ' +
    'stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>',
  bomb:
    '<circle cx="10.5" cy="14" r="7" fill="currentColor"/>' +
    '<path d="M14.5 8.5 17 6" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>' +
    '<path d="M18.5 2.5v2.2M21.5 5.5h-2.2M20.6 3.4l-1.4 1.4" stroke="currentColor" ' +
    'stroke-width="1.6" stroke-linecap="round"/>',
  shield:
    '<path d="M12 2.5 20 5.5v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6z" fill="currentColor"/>' +
    '<path d="M8.5 12l2.4 2.4 4.6-4.8" fill="none" stroke="var(--card-bg, #fff)" ' +
    'stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>',
  flip:
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2.2"/>' +
    '<path d="M12 3.5a8.5 8.5 0 0 1 0 17z" fill="currentColor"/>',
  clock:
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2.4"/>' +
    '<path d="M12 7v5.3l3.6 2.2" fill="none" stroke="currentColor" stroke-width="2.4" ' +
    'stroke-linecap="round"/>',
  hunt:
    '<circle cx="12" cy="12" r="7" fill="none" stroke="currentColor" stroke-width="2.2"/>' +
    '<circle cx="12" cy="12" r="2.2" fill="currentColor"/>' +
    '<path d="M12 1.5v5M12 17.5v5M1.5 12h5M17.5 12h5" stroke="currentColor" stroke-width="2.2"/>',
  bot:
    '<rect x="3" y="4" width="18" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/>' +
    '<circle cx="9" cy="10" r="1.6" fill="currentColor"/><circle cx="15" cy="10" r="1.6" fill="currentColor"/>' +
    '<path d="M9 20h6M12 16v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  wild:
    '<path d="M12 12V2.5A9.5 9.5 0 0 0 2.5 12z" fill="#d32f2f"/>' +
    '<path d="M12 12V2.5A9.5 9.5 0 0 1 21.5 12z" fill="#1565c0"/>' +
    '<path d="M12 12h9.5A9.5 9.5 0 0 1 12 21.5z" fill="#2e7d32"/>' +
    '<path d="M12 12v9.5A9.5 9.5 0 0 1 2.5 12z" fill="#f9c80e"/>' +
    '<circle cx="12" cy="12" r="9.5" fill="none" stroke="#fff" stroke-width="1.2"/>',
};

export function iconSvg(name, cls = "icon") {
  return svg(ICONS[name] || "", { cls: `${cls} icon-${name}` });
}

// "R7" -> {color:"R", rank:"7", kind:"number"}; "W+4" -> {color:null, rank:"+4", kind:"wild"}.
// A double-faced card "R3//G-skipall" gives the first face; use faces() for both.
export function parseCard(code) {
  const face = String(code).split("//")[0];
  if (face.startsWith("W")) {
    return { code: face, color: null, rank: face.slice(1), wild: true };
  }
  const color = face[0];
  let rank = face.slice(1);
  if (rank.startsWith("-")) rank = rank.slice(1);
  return { code: face, color, rank, wild: false };
}

export function faces(code) {
  return String(code).split("//");
}

const RANK_ICON = {
  skip: "skip",
  skipall: "skipall",
  reverse: "reverse",
  bomb: "bomb",
  shield: "shield",
  flip: "flip",
};
const WILD_ICON = { "": "wild", "+4": "wild", "-clock": "clock", "-hunt": "hunt" };

export function colorName(c) {
  return t(`color.${c}`);
}

// The colour inside a sentence ("Elegiste amarillo": lower case in Spanish and Turkish).
export function colorWord(c) {
  return t(`color.word.${c}`);
}

// The colour inside a card's name, agreeing with it where the language wants it:
// "Reversa amarilla", "Salto amarillo" ("card.feminine" lists the ranks whose name is
// feminine in the language, "-" for none).
function cardColor(rank, c) {
  const feminine = t("card.feminine").split(/\s+/).includes(rank);
  return t(`card.${feminine ? "colorF" : "color"}.${c}`);
}

// Accessible name: "Red 7 (circle)", "Wild Draw Four", "Blue Skip (square)".
export function cardLabel(code) {
  const p = parseCard(code);
  if (p.wild) {
    const key = { "": "card.W", "+4": "card.W+4", "-clock": "card.W-clock", "-hunt": "card.W-hunt" }[
      p.rank
    ];
    return t(key || "card.W");
  }
  let what;
  if (/^\d$/.test(p.rank)) what = p.rank;
  else what = t(`card.${p.rank}`);
  return t("card.label", { color: cardColor(p.rank, p.color), what, shape: t(`shape.${p.color}`) });
}

function symbolNode(p) {
  const span = document.createElement("span");
  span.className = "sym";
  if (p.wild) {
    const icon = WILD_ICON[p.rank] || "wild";
    span.append(iconSvg(icon, "sym-icon"));
    if (p.rank === "+4") {
      span.classList.add("sym-w4");
      const plus = document.createElement("span");
      plus.className = "sym-plus";
      plus.textContent = "+4";
      span.append(plus);
    }
    return span;
  }
  if (RANK_ICON[p.rank]) {
    span.append(iconSvg(RANK_ICON[p.rank], "sym-icon"));
  } else {
    span.textContent = p.rank; // digits and +1 / +2 / +5
    if (p.rank.length > 1) span.classList.add("sym-text-long");
    if (p.rank === "6" || p.rank === "9") span.classList.add("turn-mark");
  }
  return span;
}

function cornerNode(p, where) {
  const c = document.createElement("span");
  c.className = `corner ${where}`;
  const idx = document.createElement("span");
  idx.className = "idx";
  if (p.wild) {
    idx.textContent = p.rank === "+4" ? "+4" : "";
    if (p.rank !== "+4") idx.append(iconSvg(WILD_ICON[p.rank] || "wild", "idx-icon"));
  } else if (RANK_ICON[p.rank]) {
    idx.append(iconSvg(RANK_ICON[p.rank], "idx-icon"));
  } else {
    idx.textContent = p.rank;
    if (p.rank === "6" || p.rank === "9") idx.classList.add("turn-mark"); // 6 and 9 upside down
  }
  // "+1", "+4": narrower in a fan, where it ran onto the next card ("+1" by an 8 read "+18")
  if (idx.textContent.length > 1) idx.classList.add("idx-long");
  c.append(idx);
  if (p.color) c.append(shapeSvg(p.color, "corner-shape"));
  return c;
}

// Render the face of a card. tag "button" for a hand card, "div" for a pile card.
export function renderCard(code, { tag = "div", size = "", chosenColor = null } = {}) {
  const p = parseCard(code);
  const el = document.createElement(tag);
  el.className = `card ${p.wild ? "c-W" : `c-${p.color}`} ${size}`.trim();
  el.dataset.card = p.code;
  if (tag === "button") el.type = "button";
  const inner = document.createElement("span");
  inner.className = "card-inner";
  inner.append(cornerNode(p, "tl"));
  const oval = document.createElement("span");
  oval.className = "oval";
  if (p.color) oval.append(shapeSvg(p.color, "oval-shape"));
  oval.append(symbolNode(p));
  inner.append(oval);
  inner.append(cornerNode(p, "br"));
  el.append(inner);
  if (p.wild && chosenColor) {
    const chip = document.createElement("span");
    chip.className = `wild-chosen c-${chosenColor}`;
    chip.append(shapeSvg(chosenColor, "chosen-shape"));
    el.append(chip);
  }
  if (tag !== "button") {
    el.setAttribute("role", "img");
  }
  el.setAttribute("aria-label", cardLabel(code));
  return el;
}

export function renderBack({ size = "", label = null } = {}) {
  const el = document.createElement("div");
  el.className = `card back ${size}`.trim();
  const inner = document.createElement("span");
  inner.className = "card-inner";
  const logo = document.createElement("span");
  logo.className = "back-logo";
  logo.append(iconSvg("wild", "back-icon"));
  inner.append(logo);
  el.append(inner);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}
