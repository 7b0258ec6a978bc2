// UI text in English, German, Finnish, Slovenian and Spanish.
// t(key, vars) fills {name} placeholders; the language comes from the browser
// (navigator.languages) unless the player picked one (localStorage "yaniv.lang").

export const LANGUAGES = { en: "English", de: "Deutsch", fi: "Suomi", sl: "Slovenščina", es: "Español" };

const TEXT = {
  en: {
    title: "Yaniv", language: "Language", newTable: "New table", yourName: "Your name",
    rules: "Rules", seats: "Seats", computers: "Computer players", level: "Computer level",
    threshold: "Yaniv at or below", scoreLimit: "Out above", slap: "Slap a drawn card",
    jokerSwap: "Joker exchange", asef: "Asef (blind call)", off: "off", create: "Create table",
    sameRank: "same rank", fitsMeld: "fits the discard", asDraw: "as the take", asTurn: "as a whole turn",
    beginner: "beginner", easy: "easy", medium: "medium", hard: "hard", expert: "expert",
    join: "Sit down", watch: "Watch", invite: "Invite link — send it to your friends:",
    copy: "Copy", copied: "Copied!", start: "Start the game", waitingHost: "Waiting for the host to start…",
    empty: "free seat", computer: "computer", host: "host", you: "you", away: "away",
    standIn: "bot plays for now", handToBot: "Hand to a bot", stock: "Stock", cards: "{n} cards",
    discard: "Discard", draw: "Draw", yaniv: "Yaniv!", asefBtn: "Asef!", slapBtn: "Slap {card}",
    swapBtn: "Swap {card} for the joker", yourTurn: "Your turn", turnOf: "{name} to play",
    takeOrDraw: "Take a card from the previous discard or draw from the stock",
    pickCards: "Select cards to discard, or call Yaniv", total: "total {n}", hand: "Your hand: {n}",
    seen: "seen", log: "Moves", roundOver: "Round {n} is over", nextRound: "Next round",
    readyWait: "Waiting for the others…", gameOver: "Game over", winner: "Winner: {names}",
    rematch: "Rematch", value: "hand", score: "round", totalCol: "total", spectating: "You are watching",
    lobby: "Table {id}", rulesLocked: "Rules (locked when the game starts)", rulesOf: "Rules",
    notFound: "There is no such table.", full: "This table has started or is full: you can watch.",
    disconnected: "Connection lost — reconnecting…", home: "Home", out: "out", tieBreak: "tie-break",
    assaf: "Assaf! {caller} is caught by {by}", wins: "{caller} wins the round",
    falseYaniv: "{caller} called Yaniv out of turn", landed: "landed on a halving score: {names}",
    evDeal: "Round {n}: {dealer} deals, {starter} starts", evDiscard: "{who} discards {cards}",
    evDraw: "{who} draws {card}", evDrawHidden: "{who} draws from the stock", evTake: "{who} takes {card}",
    evSwap: "{who} swaps {card} for the joker", evSlap: "{who} slaps {card}",
    evReshuffle: "The stock ran out: {n} cards are shuffled", evYaniv: "{who} calls Yaniv!",
    evFalse: "{who} calls Yaniv out of turn", evAsef: "{who} calls Asef! Blind card: {card}",
    evShowdown: "Showdown", evRoundEnd: "Totals: {totals}", evGameEnd: "Game over: {names} won",
    keys: "Keys: click or Enter/Space on cards, D discard, S stock, Y Yaniv, N next round",
  },
  de: {
    title: "Yaniv", language: "Sprache", newTable: "Neuer Tisch", yourName: "Dein Name",
    rules: "Regeln", seats: "Plätze", computers: "Computerspieler", level: "Spielstärke",
    threshold: "Yaniv bei höchstens", scoreLimit: "Raus über", slap: "Gezogene Karte nachlegen",
    jokerSwap: "Joker tauschen", asef: "Asef (Blindansage)", off: "aus", create: "Tisch eröffnen",
    sameRank: "gleicher Rang", fitsMeld: "passt zum Abwurf", asDraw: "als Aufnahme", asTurn: "als ganzer Zug",
    beginner: "Anfänger", easy: "leicht", medium: "mittel", hard: "schwer", expert: "Experte",
    join: "Hinsetzen", watch: "Zuschauen", invite: "Einladungslink — schick ihn deinen Freunden:",
    copy: "Kopieren", copied: "Kopiert!", start: "Spiel starten", waitingHost: "Warten auf den Gastgeber…",
    empty: "freier Platz", computer: "Computer", host: "Gastgeber", you: "du", away: "abwesend",
    standIn: "vorläufig spielt ein Bot", handToBot: "An Bot übergeben", stock: "Stapel", cards: "{n} Karten",
    discard: "Abwerfen", draw: "Ziehen", yaniv: "Yaniv!", asefBtn: "Asef!", slapBtn: "{card} nachlegen",
    swapBtn: "{card} gegen den Joker tauschen", yourTurn: "Du bist dran", turnOf: "{name} ist dran",
    takeOrDraw: "Nimm eine Karte vom vorigen Abwurf oder ziehe vom Stapel",
    pickCards: "Wähle Karten zum Abwerfen oder sag Yaniv", total: "gesamt {n}", hand: "Deine Hand: {n}",
    seen: "gesehen", log: "Züge", roundOver: "Runde {n} ist vorbei", nextRound: "Nächste Runde",
    readyWait: "Warten auf die anderen…", gameOver: "Spielende", winner: "Sieger: {names}",
    rematch: "Revanche", value: "Hand", score: "Runde", totalCol: "gesamt", spectating: "Du schaust zu",
    lobby: "Tisch {id}", rulesLocked: "Regeln (beim Start festgelegt)", rulesOf: "Regeln",
    notFound: "Diesen Tisch gibt es nicht.", full: "Das Spiel läuft oder der Tisch ist voll: du kannst zuschauen.",
    disconnected: "Verbindung verloren — verbinde neu…", home: "Start", out: "raus", tieBreak: "Stechen",
    assaf: "Assaf! {by} erwischt {caller}", wins: "{caller} gewinnt die Runde",
    falseYaniv: "{caller} hat außer der Reihe Yaniv gesagt", landed: "auf einer Halbierungszahl gelandet: {names}",
    evDeal: "Runde {n}: {dealer} gibt, {starter} beginnt", evDiscard: "{who} wirft {cards} ab",
    evDraw: "{who} zieht {card}", evDrawHidden: "{who} zieht vom Stapel", evTake: "{who} nimmt {card}",
    evSwap: "{who} tauscht {card} gegen den Joker", evSlap: "{who} legt {card} nach",
    evReshuffle: "Der Stapel ist leer: {n} Karten werden gemischt", evYaniv: "{who} sagt Yaniv!",
    evFalse: "{who} sagt außer der Reihe Yaniv", evAsef: "{who} sagt Asef! Blindkarte: {card}",
    evShowdown: "Aufdecken", evRoundEnd: "Stand: {totals}", evGameEnd: "Spielende: {names} gewinnt",
    keys: "Tasten: Klick oder Enter/Leertaste auf Karten, D abwerfen, S Stapel, Y Yaniv, N nächste Runde",
  },
  fi: {
    title: "Yaniv", language: "Kieli", newTable: "Uusi pöytä", yourName: "Nimesi",
    rules: "Säännöt", seats: "Paikat", computers: "Tietokonepelaajat", level: "Tietokoneen taso",
    threshold: "Yaniv enintään", scoreLimit: "Ulos yli", slap: "Nostetun kortin lyönti",
    jokerSwap: "Jokerin vaihto", asef: "Asef (sokkohuuto)", off: "pois", create: "Luo pöytä",
    sameRank: "sama arvo", fitsMeld: "sopii heittoon", asDraw: "nostona", asTurn: "koko vuorona",
    beginner: "aloittelija", easy: "helppo", medium: "keskitaso", hard: "vaikea", expert: "mestari",
    join: "Istu pöytään", watch: "Katso", invite: "Kutsulinkki — lähetä se ystävillesi:",
    copy: "Kopioi", copied: "Kopioitu!", start: "Aloita peli", waitingHost: "Odotetaan isäntää…",
    empty: "vapaa paikka", computer: "tietokone", host: "isäntä", you: "sinä", away: "poissa",
    standIn: "botti pelaa toistaiseksi", handToBot: "Anna botille", stock: "Pakka", cards: "{n} korttia",
    discard: "Heitä", draw: "Nosta", yaniv: "Yaniv!", asefBtn: "Asef!", slapBtn: "Lyö {card}",
    swapBtn: "Vaihda {card} jokeriin", yourTurn: "Sinun vuorosi", turnOf: "{name} pelaa",
    takeOrDraw: "Ota kortti edellisestä heitosta tai nosta pakasta",
    pickCards: "Valitse heitettävät kortit tai huuda Yaniv", total: "yht. {n}", hand: "Kätesi: {n}",
    seen: "nähty", log: "Siirrot", roundOver: "Kierros {n} päättyi", nextRound: "Seuraava kierros",
    readyWait: "Odotetaan muita…", gameOver: "Peli päättyi", winner: "Voittaja: {names}",
    rematch: "Uusintapeli", value: "käsi", score: "kierros", totalCol: "yht.", spectating: "Katsot peliä",
    lobby: "Pöytä {id}", rulesLocked: "Säännöt (lukitaan pelin alkaessa)", rulesOf: "Säännöt",
    notFound: "Pöytää ei ole.", full: "Peli on alkanut tai pöytä on täynnä: voit katsoa.",
    disconnected: "Yhteys katkesi — yhdistetään…", home: "Alku", out: "ulkona", tieBreak: "uusinta",
    assaf: "Assaf! {by} nappaa pelaajan {caller}", wins: "{caller} voittaa kierroksen",
    falseYaniv: "{caller} huusi Yaniv väärällä vuorolla", landed: "osui puolitusrajaan: {names}",
    evDeal: "Kierros {n}: {dealer} jakaa, {starter} aloittaa", evDiscard: "{who} heittää {cards}",
    evDraw: "{who} nostaa {card}", evDrawHidden: "{who} nostaa pakasta", evTake: "{who} ottaa {card}",
    evSwap: "{who} vaihtaa {card} jokeriin", evSlap: "{who} lyö {card}",
    evReshuffle: "Pakka loppui: {n} korttia sekoitetaan", evYaniv: "{who} huutaa Yaniv!",
    evFalse: "{who} huutaa Yaniv väärällä vuorolla", evAsef: "{who} huutaa Asef! Sokkokortti: {card}",
    evShowdown: "Kädet näytetään", evRoundEnd: "Pisteet: {totals}", evGameEnd: "Peli päättyi: {names} voitti",
    keys: "Näppäimet: klikkaa tai Enter/välilyönti korteilla, D heitä, S pakka, Y Yaniv, N seuraava kierros",
  },
  sl: {
    title: "Yaniv", language: "Jezik", newTable: "Nova miza", yourName: "Tvoje ime",
    rules: "Pravila", seats: "Sedeži", computers: "Računalniški igralci", level: "Raven računalnika",
    threshold: "Yaniv pri največ", scoreLimit: "Izpade nad", slap: "Odvrzi potegnjeno karto",
    jokerSwap: "Menjava jokerja", asef: "Asef (slepi klic)", off: "izklopljeno", create: "Ustvari mizo",
    sameRank: "ista vrednost", fitsMeld: "se ujema z odvrženim", asDraw: "kot vzetje", asTurn: "kot cela poteza",
    beginner: "začetnik", easy: "lahko", medium: "srednje", hard: "težko", expert: "strokovnjak",
    join: "Sedi", watch: "Glej", invite: "Povezava za povabilo — pošlji jo prijateljem:",
    copy: "Kopiraj", copied: "Kopirano!", start: "Začni igro", waitingHost: "Čakamo gostitelja…",
    empty: "prost sedež", computer: "računalnik", host: "gostitelj", you: "ti", away: "odsoten",
    standIn: "zaenkrat igra bot", handToBot: "Predaj botu", stock: "Kupček", cards: "{n} kart",
    discard: "Odvrzi", draw: "Vleci", yaniv: "Yaniv!", asefBtn: "Asef!", slapBtn: "Odvrzi {card}",
    swapBtn: "Zamenjaj {card} za jokerja", yourTurn: "Na vrsti si", turnOf: "Na vrsti je {name}",
    takeOrDraw: "Vzemi karto iz prejšnjega odvrženega ali vleci s kupčka",
    pickCards: "Izberi karte za odvreči ali kliči Yaniv", total: "skupaj {n}", hand: "Tvoja roka: {n}",
    seen: "videno", log: "Poteze", roundOver: "Krog {n} je končan", nextRound: "Naslednji krog",
    readyWait: "Čakamo ostale…", gameOver: "Konec igre", winner: "Zmagovalec: {names}",
    rematch: "Povratna igra", value: "roka", score: "krog", totalCol: "skupaj", spectating: "Gledaš igro",
    lobby: "Miza {id}", rulesLocked: "Pravila (zaklenjena ob začetku)", rulesOf: "Pravila",
    notFound: "Te mize ni.", full: "Igra teče ali je miza polna: lahko gledaš.",
    disconnected: "Povezava prekinjena — ponovno povezujem…", home: "Domov", out: "izpadel", tieBreak: "odločilni krog",
    assaf: "Asaf! {by} ujame igralca {caller}", wins: "{caller} dobi krog",
    falseYaniv: "{caller} je klical Yaniv izven vrste", landed: "pristal na številki za razpolovitev: {names}",
    evDeal: "Krog {n}: {dealer} deli, {starter} začne", evDiscard: "{who} odvrže {cards}",
    evDraw: "{who} vleče {card}", evDrawHidden: "{who} vleče s kupčka", evTake: "{who} vzame {card}",
    evSwap: "{who} zamenja {card} za jokerja", evSlap: "{who} doda {card}",
    evReshuffle: "Kupček je prazen: {n} kart se premeša", evYaniv: "{who} kliče Yaniv!",
    evFalse: "{who} kliče Yaniv izven vrste", evAsef: "{who} kliče Asef! Slepa karta: {card}",
    evShowdown: "Razkritje", evRoundEnd: "Stanje: {totals}", evGameEnd: "Konec igre: zmaga {names}",
    keys: "Tipke: klik ali Enter/presledek na kartah, D odvrzi, S kupček, Y Yaniv, N naslednji krog",
  },
  es: {
    title: "Yaniv", language: "Idioma", newTable: "Mesa nueva", yourName: "Tu nombre",
    rules: "Reglas", seats: "Asientos", computers: "Jugadores de la computadora", level: "Nivel de la computadora",
    threshold: "Yaniv con hasta", scoreLimit: "Fuera por encima de", slap: "Tirar la carta robada",
    jokerSwap: "Cambio de comodín", asef: "Asef (cante a ciegas)", off: "no", create: "Crear mesa",
    sameRank: "mismo valor", fitsMeld: "encaja con el descarte", asDraw: "como robo", asTurn: "como turno entero",
    beginner: "principiante", easy: "fácil", medium: "medio", hard: "difícil", expert: "experto",
    join: "Sentarse", watch: "Mirar", invite: "Enlace de invitación — envíalo a tus amigos:",
    copy: "Copiar", copied: "¡Copiado!", start: "Empezar la partida", waitingHost: "Esperando al anfitrión…",
    empty: "asiento libre", computer: "computadora", host: "anfitrión", you: "tú", away: "ausente",
    standIn: "juega un bot por ahora", handToBot: "Dar a un bot", stock: "Mazo", cards: "{n} cartas",
    discard: "Descartar", draw: "Robar", yaniv: "¡Yaniv!", asefBtn: "¡Asef!", slapBtn: "Tirar {card}",
    swapBtn: "Cambiar {card} por el comodín", yourTurn: "Tu turno", turnOf: "Juega {name}",
    takeOrDraw: "Toma una carta del descarte anterior o roba del mazo",
    pickCards: "Elige cartas para descartar o canta Yaniv", total: "total {n}", hand: "Tu mano: {n}",
    seen: "vistas", log: "Jugadas", roundOver: "Fin de la ronda {n}", nextRound: "Siguiente ronda",
    readyWait: "Esperando a los demás…", gameOver: "Fin de la partida", winner: "Ganador: {names}",
    rematch: "Revancha", value: "mano", score: "ronda", totalCol: "total", spectating: "Estás mirando",
    lobby: "Mesa {id}", rulesLocked: "Reglas (fijas al empezar)", rulesOf: "Reglas",
    notFound: "No existe esa mesa.", full: "La partida empezó o la mesa está llena: puedes mirar.",
    disconnected: "Conexión perdida — reconectando…", home: "Inicio", out: "fuera", tieBreak: "desempate",
    assaf: "¡Assaf! {by} pilla a {caller}", wins: "{caller} gana la ronda",
    falseYaniv: "{caller} cantó Yaniv fuera de turno", landed: "cayó en un número de mitad: {names}",
    evDeal: "Ronda {n}: reparte {dealer}, empieza {starter}", evDiscard: "{who} descarta {cards}",
    evDraw: "{who} roba {card}", evDrawHidden: "{who} roba del mazo", evTake: "{who} toma {card}",
    evSwap: "{who} cambia {card} por el comodín", evSlap: "{who} tira {card}",
    evReshuffle: "Se acabó el mazo: se barajan {n} cartas", evYaniv: "¡{who} canta Yaniv!",
    evFalse: "{who} canta Yaniv fuera de turno", evAsef: "¡{who} canta Asef! Carta ciega: {card}",
    evShowdown: "Se muestran las manos", evRoundEnd: "Totales: {totals}", evGameEnd: "Fin: gana {names}",
    keys: "Teclas: clic o Enter/Espacio en las cartas, D descartar, S mazo, Y Yaniv, N siguiente ronda",
  },
};

function pick() {
  const saved = localStorage.getItem("yaniv.lang");
  if (saved && TEXT[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (TEXT[code]) return code;
  }
  return "en";
}

let lang = pick();

export function language() {
  return lang;
}

export function setLanguage(code) {
  if (!TEXT[code]) return;
  lang = code;
  localStorage.setItem("yaniv.lang", code);
  document.documentElement.lang = code;
}

export function t(key, vars = {}) {
  const text = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

document.documentElement.lang = lang;
