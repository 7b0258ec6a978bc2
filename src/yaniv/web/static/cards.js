// Cards drawn with CSS: rank in the corners, the suit in the middle, a colour per suit.

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export function parseCard(code) {
  if (code === "JK") return { rank: "★", suit: "joker", symbol: "🃏", label: "Joker" };
  const rank = code.slice(0, -1);
  const s = code.slice(-1);
  return { rank, suit: SUIT_NAMES[s], symbol: SUITS[s], label: `${rank}${SUITS[s]}` };
}

export function cardText(code) {
  return parseCard(code).label;
}

// A card as an element: a <button> when it can be chosen, else a <span>.
export function cardElement(code, { button = false, small = false, selected = false, extra = "" } = {}) {
  const c = parseCard(code);
  const el = document.createElement(button ? "button" : "span");
  el.className = `card suit-${c.suit}${small ? " small" : ""}${selected ? " selected" : ""} ${extra}`.trim();
  el.dataset.card = code;
  el.setAttribute("aria-label", c.label);
  if (button) {
    el.type = "button";
    el.setAttribute("aria-pressed", selected ? "true" : "false");
  }
  el.innerHTML =
    `<span class="corner">${c.rank}<br>${c.suit === "joker" ? "" : c.symbol}</span>` +
    `<span class="pip">${c.symbol}</span>`;
  return el;
}

export function cardBack({ small = false, count = null } = {}) {
  const el = document.createElement("span");
  el.className = `card back${small ? " small" : ""}`;
  el.setAttribute("aria-hidden", "true");
  if (count !== null) el.textContent = String(count);
  return el;
}
