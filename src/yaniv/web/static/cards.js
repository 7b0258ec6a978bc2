// Cards drawn with CSS: rank in the corners, the suit in the middle, a colour per suit.
// Their names (screen readers, the joker in the log) are in the player's language.
import { t } from "./i18n.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export function parseCard(code) {
  if (code === "JK") return { rank: "★", suit: "joker", symbol: "🃏", label: t("joker"), name: t("joker") };
  const rank = code.slice(0, -1);
  const s = code.slice(-1);
  const spoken = ["A", "J", "Q", "K"].includes(rank) ? t(`rank_${rank}`) : rank;
  return { rank, suit: SUIT_NAMES[s], symbol: SUITS[s], label: `${rank}${SUITS[s]}`, name: t("cardOf", { rank: spoken, suit: t(`suit_${s}`) }) };
}

export function cardText(code) {
  const label = parseCard(code).label;
  // in right-to-left text a card reads left to right ("K♠", not "♠K"): a bidi isolate
  const rtl = typeof document !== "undefined" && document.documentElement.dir === "rtl";
  return rtl ? `\u2066${label}\u2069` : label;
}

export function cardName(code) {
  return parseCard(code).name;
}

// A card as an element: a <button> when it can be chosen, else a <span>.
export function cardElement(code, { button = false, small = false, selected = false, extra = "" } = {}) {
  const c = parseCard(code);
  const el = document.createElement(button ? "button" : "span");
  el.className = `card suit-${c.suit}${small ? " small" : ""}${selected ? " selected" : ""} ${extra}`.trim();
  el.dataset.card = code;
  el.setAttribute("aria-label", c.name);
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
