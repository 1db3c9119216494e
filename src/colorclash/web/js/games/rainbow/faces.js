// Rainbow's faces: nine colours, each with its own symbol (docs/rainbow.md, "The deck"),
// so that nobody depends on colour alone. A face is drawn as a card with its colour, its
// symbol in the middle and in two corners, and (on cards large enough) its name.
import { t } from "../../i18n.js";
import { h, svg } from "../../ui.js";

// colour -> the shape printed on it (rainbow_deck.SYMBOLS); red, blue, yellow and green
// keep the shapes they have in Color Clash.
export const SHAPES = {
  red: "circle",
  orange: "star",
  yellow: "triangle",
  green: "diamond",
  blue: "square",
  indigo: "hexagon",
  violet: "cross",
  white: "sun",
  black: "moon",
};
export const COLORS = Object.keys(SHAPES);

const PATHS = {
  circle: '<circle cx="12" cy="12" r="8.6"/>',
  star: '<path d="M12 1.8l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9l7.1-.6z" stroke-linejoin="round"/>',
  triangle: '<path d="M12 2.8 22 20.5H2z" stroke-linejoin="round"/>',
  diamond: '<path d="M12 1.8 22.2 12 12 22.2 1.8 12z" stroke-linejoin="round"/>',
  square: '<rect x="3.8" y="3.8" width="16.4" height="16.4" rx="1.5"/>',
  hexagon: '<path d="M12 2.2l8.5 4.9v9.8L12 21.8l-8.5-4.9V7.1z" stroke-linejoin="round"/>',
  cross: '<path d="M9 2.5h6v6.5h6.5v6H15v6.5H9V15H2.5V9H9z" stroke-linejoin="round"/>',
  sun:
    '<circle cx="12" cy="12" r="5.2"/>' +
    '<path d="M12 1.5v3.6M12 18.9v3.6M1.5 12h3.6M18.9 12h3.6M4.6 4.6l2.5 2.5M16.9 16.9l2.5 2.5' +
    'M4.6 19.4l2.5-2.5M16.9 7.1l2.5-2.5" fill="none" stroke-width="2.3" stroke-linecap="round"/>',
  moon: '<path d="M15.5 2.6A9.6 9.6 0 1 0 21.4 17 7.8 7.8 0 1 1 15.5 2.6z" stroke-linejoin="round"/>',
};

export function symbolSvg(color, cls = "rb-sym") {
  const shape = SHAPES[color];
  return svg(shape ? PATHS[shape] : '<text x="12" y="17" text-anchor="middle" font-size="15" font-weight="900">?</text>', {
    cls: `${cls} rb-shape-${shape || "unknown"}`,
  });
}

export function colorName(color) {
  return t(`rainbow.color.${color}`);
}

export function shapeName(color) {
  return t(`rainbow.shape.${SHAPES[color]}`);
}

// "Red (circle)": what a face is called everywhere (history, screen readers).
export function faceLabel(color) {
  if (!SHAPES[color]) return t("rainbow.unknownFace");
  return t("rainbow.face", { color: colorName(color), shape: shapeName(color) });
}

// A face as a card. color: one of COLORS, or null for a face nobody may see ("?").
// size: "lg" (hand, table), "md", "sm" (the opponent's, the last round), "xs";
// tag: "div" or "button"; named: show the colour's name on the card.
export function renderFace(color, { size = "lg", tag = "div", named = false, cls = "" } = {}) {
  const known = !!SHAPES[color];
  const card = h(
    `${tag}.rb-card.rb-${size}${known ? `.rb-c-${color}` : ".rb-unknown"}${cls ? `.${cls}` : ""}`,
    tag === "button" ? { type: "button" } : { role: "img", "aria-label": faceLabel(color) },
    h("span.rb-corner.rb-tl", { "aria-hidden": "true" }, symbolSvg(color, "rb-corner-sym")),
    h(
      "span.rb-middle",
      { "aria-hidden": "true" },
      symbolSvg(color),
      named && known ? h("span.rb-name", colorName(color)) : null,
    ),
    h("span.rb-corner.rb-br", { "aria-hidden": "true" }, symbolSvg(color, "rb-corner-sym")),
  );
  if (known) card.dataset.color = color;
  return card;
}

// The computer players' avatar.
export function botSvg(cls = "bot-icon") {
  return svg(
    '<rect x="3" y="4" width="18" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/>' +
      '<circle cx="9" cy="10" r="1.6" fill="currentColor"/><circle cx="15" cy="10" r="1.6" fill="currentColor"/>' +
      '<path d="M9 20h6M12 16v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
    { cls },
  );
}
