// Text that must fit the table as drawn: run after each drawing of the table, and when
// the window changes size (each keeps its full text in data-full and starts from it).

// The line under the piles says what just happened. When a moment says more than the line
// holds (a phone: one or two lines), its oldest parts give way, so that the newest is read
// whole ("… Bo drew the stack: 4 cards", not "The shield … · Bo drew …"); the history
// keeps every word.
function fitLastMove(root, sep = " · ") {
  for (const el of root.querySelectorAll(".last-move")) {
    if (el.dataset.full === undefined) el.dataset.full = el.textContent;
    else el.textContent = el.dataset.full;
    let parts = el.dataset.full.split(sep);
    while (parts.length > 1 && el.scrollHeight > el.clientHeight + 1) {
      parts = parts.slice(1);
      el.textContent = `… ${parts.join(sep)}`;
    }
  }
}

// An opponent's name cut short loses its end, and "Computer 2" and "Computer 5" would
// both read "Comput…" (five opponents on a phone held sideways). A name that ends in a
// number keeps the number: "Comp… 2".
function fitNames(root) {
  const range = document.createRange();
  // the text's own width (scrollWidth rounds a part away) against the box's content width,
  // unrounded and without its padding (a name 2 px narrower than clientWidth, which counts
  // the padding, still got Chrome's own ellipsis). A margin instead of the padding cut
  // every name of a chip as wide as its name ("C… 1" in a 102 px chip, a sideways phone)
  const fits = (el) => {
    range.selectNodeContents(el);
    const cs = getComputedStyle(el);
    const room = el.getBoundingClientRect().width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
      - parseFloat(cs.borderLeftWidth) - parseFloat(cs.borderRightWidth);
    return range.getBoundingClientRect().width <= room + 0.01;
  };
  for (const el of root.querySelectorAll(".opp .name")) {
    if (el.dataset.full === undefined) el.dataset.full = el.textContent;
    else el.textContent = el.dataset.full;
    const m = /^(.*\S)\s+(\d+)$/.exec(el.dataset.full);
    if (!m || fits(el)) continue;
    let head = m[1];
    while (head.length > 1) {
      head = head.slice(0, -1).trimEnd();
      el.textContent = `${head}… ${m[2]}`;
      if (fits(el)) break;
    }
  }
}

export function fitTable(root) {
  fitLastMove(root);
  fitNames(root);
}
