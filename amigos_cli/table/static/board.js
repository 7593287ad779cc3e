// The table's board: draws each view the server sends (amigos_cli/table/view.py) and sends back the
// choice made as {type: "choose", ask, group, way}.  Plain script, nothing fetched from elsewhere.
// It draws the view's fields as they are: essences are five counts, points numbers, cards ids of the
// catalog, and a choice's words come cut into segments; it reads nothing back out of the words.
//
// Keys: a number jumps to that line (Enter takes it), Up/Down move, Enter takes the highlighted line,
// Escape goes back from a choice's ways (or from one card's choices), ">" shows the next rival in full,
// "h" asks for a hint, "u" undoes (the only person at a table of agents), "a" turns auto-collect on or off.
// Once the match is over, "r" asks for the seat's review (each move graded, the win-chance graph) and
// "n" goes to its next mistake or blunder.
// A card with choices (a card of the hand to place, a component to use, a mage or magic item to choose)
// is outlined in green: a click takes its one choice, or lists its choices when it has several.
"use strict";

let KINDS = [];           // the essences' letters, lower case (the pips' classes), from the "cards" message
let KIND_NAMES = [];      // the essences' names, in the same order
const TYPED_PAUSE_MS = 1200;   // a pause this long between digits begins a new number
const RECONNECT_MS = 2000;     // wait before reconnecting a dropped websocket
const KIND_ORDER = {mage: 0, magic_item: 1, artifact: 2, monument: 3, place_of_power: 4, scroll: 5};

let cards = {};          // id -> {name, kind, types, cost, cost_any, points, points_from, text}
let current = null;      // the last view
let picking = null;      // the group whose ways are listed, or null
let onlyCard = null;     // the card whose choices alone are listed (several choices for one card), or null
let lit = 0;             // the highlighted line of the list
let typed = "";          // a number being typed
let typedAt = 0;
let expanded = null;     // the rival shown in full (a seat), or null: the one to play, else the next one
let shown = null;        // the card in the card panel
let socket = null;
let drawingRivals = false;  // (a rival's cards show their text but take no choice: an attacker's card is theirs)
let hinted = null;       // the hint for the decision asked now: {ask, group, way, text}, or null
let hinting = false;     // a hint asked for and not yet come (Enter waits for it)
let reviewed = null;     // the seat's review, once come: {games: [{game, accuracy, counts, turning, decisions}]}
let reviewing = null;    // the review asked for and under way: {done, total}
let reviewAt = null;     // the decision of the review picked out ("n", a click): [game, index], or null
const AUTO_KEY = "amigos-auto-collect";  // the page's auto-collect setting, kept in the browser
const NARROW = window.matchMedia("(max-width: 900px)");  // one column (board.css): a tapped card's text shows over the board

const $ = (id) => document.getElementById(id);

// A player's name, marked "(you)" on the seat's own page (unless the name says so already: "You").
const named = (name, you) => (you && name !== "You" ? `${name} (you)` : name);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- essences, words, cards -------------------------------------------------------------------------

function pip(n, k) {
  const span = el("span", "pip " + KINDS[k], `${n}${KINDS[k].toUpperCase()}`);
  span.title = `${n} ${KIND_NAMES[k]}`;
  return span;
}

function essences(counts, cls, empty) {
  // Five counts as coloured "2E 1G"; `empty` (or nothing) when all are 0.
  const span = el("span", cls || "");
  counts.forEach((n, k) => { if (n) span.appendChild(pip(n, k)); });
  if (!counts.some((n) => n) && empty) span.appendChild(el("span", "none", empty));
  return span;
}

function cost(card) {
  const span = essences(card.cost, "ccost", card.cost_any ? "" : "free");
  if (card.cost_any) {
    const any = el("span", "pip any", card.cost_any_words);  // ("+3 any": the terminal's words)
    any.title = `${card.cost_any} essences of any kind`;
    span.appendChild(any);
  }
  return span;
}

function words(segments) {
  // A choice's words (view.py's `words`): its words as they are, its essences as coloured counts and
  // the note of the points it wins or costs marked.
  const out = document.createDocumentFragment();
  for (const segment of segments) {
    if (segment.essences) segment.essences.forEach((n, k) => { if (n) out.appendChild(pip(n, k)); });
    else if (segment.points !== undefined) out.appendChild(el("span", "vpnote", segment.text));
    else out.appendChild(document.createTextNode(segment.text));
  }
  return out;
}

function nameOf(id) {
  return (cards[id] || {name: id}).name;
}

function choicesFor(id) {
  // The groups of the choices asked now that are about card `id`.
  if (!current || !current.choices || !id) return [];
  const out = [];
  current.choices.groups.forEach((g, i) => { if (g.card === id) out.push(i); });
  return out;
}

function showCard(id) {
  const card = cards[id];
  if (!card) return;
  shown = id;
  const panel = $("card");
  panel.replaceChildren();
  panel.appendChild(el("h2", "", card.name));
  const line = el("p", "dim");
  const kind = card.kind.replace(/_/g, " ");
  line.appendChild(document.createTextNode(`${[kind].concat(card.types).join(" · ")} · `));
  if (card.kind === "artifact" || card.kind === "monument" || card.kind === "place_of_power") {
    line.appendChild(document.createTextNode("cost "));
    line.appendChild(cost(card));
    line.appendChild(document.createTextNode(" · "));
  }
  line.appendChild(document.createTextNode(`${card.points} point${card.points === 1 ? "" : "s"}` +
    (card.points_from ? ` + ${card.points_from}` : "")));
  panel.appendChild(line);
  panel.appendChild(el("p", "ctext", card.text));
  const mine = document.querySelector(`.playable[data-card="${CSS.escape(id)}"]`) ? choicesFor(id) : [];
  if (mine.length) panel.appendChild(el("p", "dim", `Click it: ${mine.length === 1 ? current.choices.groups[mine[0]].text :
    mine.length + " choices"}.`));
  document.querySelectorAll(".card.shown, .chip.shown").forEach((n) => n.classList.remove("shown"));
  document.querySelectorAll(`[data-card="${CSS.escape(id)}"]`).forEach((n) => n.classList.add("shown"));
}

function clickable(node, id, takes) {
  // Hovering or clicking shows a card's text; a card with choices is outlined and a click takes them
  // (unless `takes` is false: a name in a list, a rival's card).
  node.dataset.card = id;
  node.addEventListener("mouseenter", () => showCard(id));
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    showCard(id);
    if (takes && choicesFor(id).length) cardClicked(id);
    if (NARROW.matches) $("card").classList.add("sheet");  // (a phone: the card's text over the board)
  });
  if (choicesFor(id).length && takes) {
    node.classList.add("playable");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.title = choicesFor(id).map((g) => current.choices.groups[g].text).join("\n");
  }
  return node;
}

function cardBox(entry, opts) {
  // A card as on the table: name, points, types, cost (`opts.cost`), the essences on it; laid
  // sideways when turned.  `entry` is a card id or a component {id, turned, essences}.
  opts = opts || {};
  const id = typeof entry === "string" ? entry : entry.id;
  const card = cards[id] || {name: id, kind: "artifact", types: [], cost: [0, 0, 0, 0, 0], cost_any: 0, points: 0};
  const box = el("div", `card ${card.kind}` + (entry.turned ? " turned" : "") + (opts.small ? " small" : "") + (opts.text ? " wide" : ""));
  const name = el("div", "cname", card.name);
  box.appendChild(name);
  const points = opts.points !== undefined ? opts.points : card.points;
  if (points || card.points_from) {
    const varies = card.points_from && opts.points === undefined;  // (not in play: what it may score)
    const vp = el("span", "cvp" + (card.points_from ? " varies" : ""), varies ? (points ? `${points}+` : "+") : `${points}`);
    vp.title = `${points} point${points === 1 ? "" : "s"}` + (card.points_from ? ` (${card.points_from})` : "");
    box.appendChild(vp);
  }
  if (entry.turned) box.appendChild(el("div", "cturn", "⟳ turned"));
  if (card.types && card.types.length) box.appendChild(el("div", "ctypes", card.types.join(" · ")));
  if (opts.small && card.kind !== "artifact") box.appendChild(el("div", "ckind", card.kind.replace(/_/g, " ")));
  if (opts.cost) box.appendChild(cost(card));
  if (opts.text) box.appendChild(el("div", "ctext", card.text));  // (a choice of mage or magic item: read at once)
  if (entry.essences && entry.essences.some((n) => n)) {
    const on = essences(entry.essences, "con");
    on.title = "essences on it";
    box.appendChild(on);
  }
  if (entry.turned) box.title = `${card.name} (turned)`;
  return clickable(box, id, !drawingRivals);
}

function chip(id) {
  return clickable(el("span", "chip", nameOf(id)), id, false);
}

function miniCard(c, points, last) {
  // A card in play in a compact row: its name, turned or not, the essences on it and its points.
  const card = cards[c.id] || {kind: "artifact"};
  const node = el("span", `chip mini ${card.kind}` + (c.turned ? " turned" : "") + (last ? " last" : ""),
    (c.turned ? "⟳ " : "") + nameOf(c.id));
  if (c.essences && c.essences.some((n) => n)) node.appendChild(essences(c.essences, "con"));
  if (points) node.appendChild(el("span", "mvp", `${points}`));
  if (c.turned) node.title = `${nameOf(c.id)} (turned)`;
  return clickable(node, c.id, false);
}

// -- players ----------------------------------------------------------------------------------------

function seatTag(view, p) {
  const seat = view.seats[p];
  if (seat.kind === "agent") return el("span", "tag agent", `AI${seat.spec ? ": " + seat.spec : ""}`);
  return seat.connected ? el("span", "tag connected", "connected") : el("span", "tag waiting", "waiting (away)");
}

// -- the move clocks (amigos host --clock): counted down on the page between views ------------------------

let drawnAt = 0;  // when the last view was drawn (performance.now()): the running clocks count from it

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(r).padStart(2, "0")}`;
}

function clockTag(clock) {
  const tag = el("span", "tag clock" + (clock.running ? " running" : "") + (clock.out ? " out" : ""),
    clock.out ? "out of time" : `${clockText(clock.left)} left`);
  tag.dataset.left = clock.left;
  if (clock.running && !clock.out) tag.dataset.running = "1";
  tag.title = "Time left for the whole game (runs while this seat is to decide)";
  return tag;
}

setInterval(() => {
  const gone = (performance.now() - drawnAt) / 1000;
  document.querySelectorAll(".tag.clock[data-running]").forEach((tag) => {
    tag.textContent = `${clockText(tag.dataset.left - gone)} left`;
  });
}, 1000);

function byKind(list) {
  return list.slice().sort((a, b) => (KIND_ORDER[(cards[a.id] || {}).kind] || 0) - (KIND_ORDER[(cards[b.id] || {}).kind] || 0));
}

function playerPanel(view, p, compact) {
  const entry = view.position.players[p];
  const you = view.you === p;
  const deciding = (view.deciding || [view.to_play]).includes(p);  // (several at once: choosing mages, collecting)
  const panel = el("div", "player" + (you ? " you" : "") + (compact ? " compact" : "") + (deciding ? " to-play" : ""));
  panel.dataset.seat = p;
  const head = el("div", "head");
  head.appendChild(el("span", "name", named(entry.name, you)));
  const vp = el("span", "vp", `${entry.vp} VP`);
  vp.title = entry.points_from.map((f) => `${f.label}: ${f.points}`).join("\n") || "no points yet";
  head.appendChild(vp);
  head.appendChild(seatTag(view, p));
  if (deciding) head.appendChild(el("span", "tag turn", you ? "your turn" : "to play"));
  const clock = view.clocks ? view.clocks[p] : null;
  if (clock) head.appendChild(clockTag(clock));
  if (entry.first_player) head.appendChild(el("span", "tag", "first player"));
  if (entry.passed) head.appendChild(el("span", "tag passed", "passed"));
  head.appendChild(essences(entry.pool, "pool", "pool empty"));
  head.appendChild(el("span", "counts", `hand ${entry.hand_size} · deck ${entry.deck_size}` +
    (entry.discard.length ? ` · discards ${entry.discard.length}` : "")));
  const last = !you && view.last ? view.last[p] : null;  // (marked until the seat moves again)
  const worth = {};  // card id -> its points now
  entry.points_from.forEach((f) => { if (f.card) worth[f.card] = f.points; });
  if (compact) {
    panel.title = "Click to see in full";
    panel.addEventListener("click", () => { expanded = p; draw(current); });
    panel.appendChild(head);
    const row = el("div", "row minis");
    byKind(entry.in_play).forEach((c) => row.appendChild(miniCard(c, worth[c.id], last && last.card === c.id)));
    panel.appendChild(row);
    if (last) panel.appendChild(el("div", "last", "Last: " + last.text));
    return panel;
  }
  panel.appendChild(head);
  const row = el("div", "row");
  byKind(entry.in_play).forEach((c) => {
    const card = cards[c.id] || {};
    const small = card.kind === "mage" || card.kind === "magic_item" || card.kind === "scroll";
    const box = cardBox(c, {small: small, points: c.id in worth ? worth[c.id] : (card.points_from ? 0 : undefined)});
    if (last && last.card === c.id) box.classList.add("last");
    row.appendChild(box);
  });
  panel.appendChild(row);
  if (last) panel.appendChild(el("div", "last", "Last: " + last.text));
  const from = el("div", "points-from", "Points: " + (entry.points_from.length ?
    entry.points_from.map((f) => `${f.label} ${f.points}`).join(", ") : "none yet"));
  panel.appendChild(from);
  if (entry.discard.length) {
    const pile = el("div", "sub", "Discards: ");
    entry.discard.forEach((id) => pile.appendChild(chip(id)));
    panel.appendChild(pile);
  }
  if (entry.known_artifacts && entry.known_artifacts.length) {
    const known = el("div", "sub", "Known in hand or deck: ");
    entry.known_artifacts.forEach((id) => known.appendChild(chip(id)));
    panel.appendChild(known);
  }
  return panel;
}

function drawRivals(view) {
  const rivals = $("rivals");
  rivals.replaceChildren();
  const n = view.names.length;
  const start = view.you === null ? 0 : view.you + 1;
  const others = [];
  for (let i = 0; i < n; i++) if ((start + i) % n !== view.you) others.push((start + i) % n);  // in the order of play
  // Two rivals or fewer: each in full; more: compact rows, the one to play (or the one clicked) in full.
  let full = others.includes(expanded) ? expanded : (others.includes(view.to_play) ? view.to_play : others[0]);
  if (others.length <= 2) full = null;
  drawingRivals = view.you !== null;
  try {
    others.forEach((p) => rivals.appendChild(playerPanel(view, p, full !== null && p !== full)));
  } finally {
    drawingRivals = false;
  }
}

// -- the centre -------------------------------------------------------------------------------------

function drawCentre(view) {
  const centre = $("centre");
  const pos = view.position;
  centre.replaceChildren(el("h2", "", "Centre"));
  const row = el("div", "row");
  const deck = el("div", "card stack");
  deck.appendChild(el("div", "cname", "Monument deck"));
  deck.appendChild(el("div", "", `${pos.monument_deck_size} left`));
  deck.appendChild(essences([0, 0, 0, 0, 4], "ccost"));
  const top = current.choices ? current.choices.groups.findIndex((g) => g.act === "top_monument") : -1;
  if (top >= 0) {
    deck.classList.add("playable");
    deck.title = current.choices.groups[top].text;
    deck.addEventListener("click", () => choose(top));
  }
  row.appendChild(deck);
  pos.monuments_face_up.forEach((id) => row.appendChild(cardBox(id, {cost: true})));
  if (pos.monument_deck_top_known && pos.monument_deck_top_known.length) {
    row.appendChild(el("span", "label", "deck's top (you looked): " + pos.monument_deck_top_known.map(nameOf).join(", ")));
  }
  pos.places_of_power.forEach((id) => row.appendChild(cardBox(id, {cost: true})));
  centre.appendChild(row);
  if (pos.magic_items_available.length) {
    const items = el("div", "row");
    items.appendChild(el("span", "label", "Magic items:"));
    const choosing = pos.phase === "SETUP_CHOOSE_ITEMS";  // (then each with its text, to choose one)
    pos.magic_items_available.forEach((id) => items.appendChild(cardBox(id, choosing ? {text: true} : {small: true})));
    centre.appendChild(items);
  }
  if (pos.scrolls_in_game) {
    const scrolls = el("div", "row");
    scrolls.appendChild(el("span", "label", "Scrolls (claimed with Inscription):"));
    pos.scrolls_available.forEach((id) => scrolls.appendChild(cardBox(id, {small: true})));
    if (!pos.scrolls_available.length) scrolls.appendChild(el("span", "none", "all held"));
    centre.appendChild(scrolls);
  }
  if (pos.face_up_artifacts.length) {
    const redraft = el("div", "row");
    redraft.appendChild(el("span", "label", `Face up for the redraft (${pos.face_up_artifacts.length}):`));
    pos.face_up_artifacts.forEach((id) => redraft.appendChild(cardBox(id, {cost: true})));
    centre.appendChild(redraft);
  }
}

// -- your hand and your setup choices ---------------------------------------------------------------

function cardRow(title, ids, opts) {
  const row = el("div", "row");
  row.appendChild(el("span", "label", title));
  ids.forEach((id) => row.appendChild(cardBox(id, opts)));
  return row;
}

function drawHand(view) {
  const hand = $("hand");
  hand.replaceChildren();
  hand.hidden = view.you === null;
  if (view.you === null) return;
  const mine = view.position.players[view.you];
  if (mine.mage_options && mine.mage_options.length) hand.appendChild(cardRow("Your mage options:", mine.mage_options, {text: true}));
  if (mine.draft_packet && mine.draft_packet.length) hand.appendChild(cardRow("Your draft packet:", mine.draft_packet, {cost: true}));
  if (mine.passed_packet && mine.passed_packet.length) {
    const passed = el("div", "sub", "You passed on: ");
    mine.passed_packet.forEach((id) => passed.appendChild(chip(id)));
    hand.appendChild(passed);
  }
  hand.appendChild(cardRow("Your hand:", mine.hand || [], {cost: true}));
  if (!(mine.hand || []).length) hand.lastChild.appendChild(el("span", "none", "empty"));
  if (mine.deck && mine.deck.length) {
    const deck = el("div", "sub", view.position.phase === "SETUP_DRAFT" ? "Drafted so far: " : "In your deck (order unknown): ");
    mine.deck.forEach((id) => deck.appendChild(chip(id)));
    hand.appendChild(deck);
  }
  if (mine.deck_top_known && mine.deck_top_known.length) {
    hand.appendChild(el("div", "sub", "Your deck's top, as you put it back: " + mine.deck_top_known.map(nameOf).join(", ")));
  }
  if (mine.seen_artifacts && mine.seen_artifacts.length) {
    const seen = el("div", "sub", "Rivals' artifacts you have seen: ");
    mine.seen_artifacts.forEach((id) => seen.appendChild(chip(id)));
    hand.appendChild(seen);
  }
}

// -- the choices ------------------------------------------------------------------------------------

function listed() {
  // The lines listed now: {words, group, way, card, ways}: the groups (or one card's), or a group's ways.
  if (!current || !current.choices) return [];
  const groups = current.choices.groups;
  if (picking !== null) return groups[picking].ways.map((w, i) => ({words: w.words, group: picking, way: i, card: groups[picking].card}));
  const out = [];
  groups.forEach((g, i) => {
    if (onlyCard === null || g.card === onlyCard) out.push({words: g.words, group: i, way: null, card: g.card, ways: g.ways.length});
  });
  return out;
}

function drawChoices() {
  const box = $("choices");
  box.replaceChildren();
  if (!current) return;
  if (current.over && current.result) { drawResult(box); return; }
  if (!current.choices) {
    box.appendChild(el("h2", "", current.you === null ? "Watching" : "Waiting"));
    box.appendChild(el("p", "waiting-note", current.note || ""));
    return;
  }
  const groups = current.choices.groups;
  const lines = listed();
  if (lit >= lines.length) lit = 0;
  let title;
  if (picking !== null) title = groups[picking].words.concat([{text: `: which way? (${lines.length})`}]);
  else if (onlyCard !== null) title = [{text: `${nameOf(onlyCard)}: your choices (${lines.length})`}];
  else title = [{text: `Your choice (${lines.length})`}];
  const head = el("h2", "");
  head.appendChild(words(title));
  box.appendChild(head);
  const list = el("div", "list");
  list.setAttribute("role", "listbox");
  lines.forEach((line, i) => {
    const hint = hinted && hinted.ask === current.choices.ask && hinted.group === line.group &&
      (line.way === null || hinted.way === line.way);
    const button = el("button", (i === lit ? "lit" : "") + (hint ? " hinted" : ""));
    button.type = "button";
    button.dataset.group = line.group;
    if (line.way !== null) button.dataset.way = line.way;
    button.appendChild(el("span", "num", `${i + 1}.`));
    const text = el("span", "text");
    text.appendChild(words(line.words));
    button.appendChild(text);
    if (hint) button.appendChild(el("span", "tag hint", "hint"));
    if (line.ways) button.appendChild(el("span", "ways", `${line.ways} ways ›`));
    button.addEventListener("click", () => { lit = i; take(line); });
    button.addEventListener("mouseenter", () => { if (line.card) showCard(line.card); });
    list.appendChild(button);
  });
  box.appendChild(list);
  if (picking !== null || onlyCard !== null) {
    const back = el("button", "back", "‹ Back (Escape)");
    back.type = "button";
    back.addEventListener("click", back_);
    box.appendChild(back);
  }
  box.appendChild(el("p", "keys", "Keys: a number jumps to it, ↑/↓ move, Enter takes it" +
    (picking !== null || onlyCard !== null ? ", Escape goes back" : "") + ", h hints."));
  const litButton = list.children[lit];
  if (litButton) litButton.scrollIntoView({block: "nearest"});
}

function take(line) {
  if (line.way !== null) send(line.group, line.way);
  else choose(line.group);
}

function choose(group) {
  // A group: its ways listed when it has several (the payment picker), else sent.
  const ways = current.choices.groups[group].ways;
  if (ways.length) {
    picking = group;
    lit = 0;
    typed = "";
    drawChoices();
  } else {
    send(group, 0);
  }
}

function cardClicked(id) {
  const mine = choicesFor(id);
  if (!mine.length) return;
  if (mine.length === 1) {
    onlyCard = null;
    choose(mine[0]);
  } else {
    picking = null;
    onlyCard = id;
    lit = 0;
    drawChoices();
  }
}

function back_() {
  if (picking !== null) picking = null;
  else onlyCard = null;
  lit = 0;
  typed = "";
  drawChoices();
}

// -- the tools: hint, undo, auto-collect, leave ----------------------------------------------------------

function drawTools(view) {
  const bar = $("tools");
  bar.replaceChildren();
  if (view.you === null || !view.tools || view.over) { bar.hidden = true; return; }
  bar.hidden = false;
  const hint = el("button", "tool", hinting ? "Thinking…" : "Hint (h)");
  hint.type = "button";
  hint.disabled = hinting || !view.choices;
  hint.title = "The AI's suggestion for this decision, with its reasons";
  hint.addEventListener("click", askHint);
  bar.appendChild(hint);
  if (view.tools.undo) {
    const undo = el("button", "tool", "Undo (u)");
    undo.type = "button";
    undo.title = "Take back your last decision (and the AI's after it)";
    undo.addEventListener("click", askUndo);
    bar.appendChild(undo);
  }
  const label = el("label", "tool");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = view.tools.auto_collect;
  box.addEventListener("change", () => { setAutoCollect(box.checked); box.blur(); });  // (the keys go back to the board)
  label.appendChild(box);
  label.appendChild(document.createTextNode(" Auto-collect (a)"));
  label.title = "At Collect, take what is stored on your cards without asking, where that costs nothing";
  bar.appendChild(label);
  const leave = el("button", "tool leave", "Save and leave");
  leave.type = "button";
  leave.addEventListener("click", askLeave);
  bar.appendChild(leave);
}

function askHint() {
  if (!current || !current.choices || hinting) return;
  hinting = true;
  drawTools(current);
  socket.send(JSON.stringify({type: "hint"}));
}

function askUndo() {
  if (current && current.tools && current.tools.undo) socket.send(JSON.stringify({type: "undo"}));
}

function setAutoCollect(on) {
  localStorage.setItem(AUTO_KEY, on ? "on" : "off");
  socket.send(JSON.stringify({type: "auto_collect", on: on}));
}

function askLeave() {
  const alone = current && current.seats.filter((s) => s.kind === "person").length === 1;
  const question = alone ? "Stop this game? It is saved, and the host can resume it." :
    "Leave the table? Your seat waits for you: this page's address brings you back.";
  if (window.confirm(question)) socket.send(JSON.stringify({type: "leave"}));
}

function hintCame(data) {
  hinting = false;
  if (!current || !current.choices || data.ask !== current.choices.ask) { drawTools(current); return; }
  hinted = data;
  if (picking !== data.group) picking = current.choices.groups.length === 1 && data.way >= 0 &&
    current.choices.groups[0].ways.length ? data.group : null;
  onlyCard = null;
  const lines = listed();
  const at = lines.findIndex((line) => line.group === data.group && (line.way === null || line.way === data.way));
  if (at >= 0) lit = at;
  const bar = $("notebar");
  bar.hidden = false;
  bar.className = "hint";
  bar.textContent = data.text;
  drawTools(current);
  drawChoices();
}

function send(group, way) {
  socket.send(JSON.stringify({type: "choose", ask: current.choices.ask, group: group, way: way}));
  picking = null;
  onlyCard = null;
  lit = 0;
  typed = "";
  const box = $("choices");
  box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
}

function drawResult(box) {
  const view = current;
  const result = view.result;
  const div = el("div", "result");
  box.appendChild(el("h2", "", "The game is over"));
  const won = result.winners.map((p) => named(view.names[p], p === view.you));
  div.appendChild(el("h3", "", won.length > 1 ? `Shared victory: ${won.join(" and ")}` :
    (result.winners[0] === view.you ? "You win!" : `${won[0]} wins`)));
  div.appendChild(el("p", "dim", `After round ${result.round}` + (result.adjudicated ? " (the round limit decided it)" : "") +
    (result.tied ? "; tied on points, so the pools decided (Gold counts 2)." : ".")));
  const table = el("table");
  const head = el("tr");
  ["", "Player", "VP", "From"].concat(result.tied ? ["Pool"] : []).forEach((h) => head.appendChild(el("th", "", h)));
  table.appendChild(head);
  const order = view.names.map((_, p) => p).sort((a, b) => result.vp[b] - result.vp[a] || result.pools[b] - result.pools[a]);
  order.forEach((p, i) => {
    const row = el("tr", result.winners.includes(p) ? "winner" : "");
    row.appendChild(el("td", "", `${i + 1}.`));
    row.appendChild(el("td", "", named(view.names[p], p === view.you)));
    row.appendChild(el("td", "", `${result.vp[p]}`));
    row.appendChild(el("td", "from", view.position.players[p].points_from.map((f) => `${f.label} ${f.points}`).join(", ") || "nothing"));
    if (result.tied) row.appendChild(el("td", "", `${result.pools[p]}`));
    table.appendChild(row);
  });
  div.appendChild(table);
  if (view.match) {
    div.appendChild(el("p", "", (view.match.over ? "The match is over: " : `Game ${view.match.game} of a best of ${view.match.best_of}: `) +
      view.names.map((name, p) => `${name} ${view.match.wins[p]}`).join(", ") + (view.match.over ? "." : "; the next game follows.")));
  }
  box.appendChild(div);
  if (view.you !== null && view.over && !(view.match && !view.match.over)) box.appendChild(reviewPanel());
}

// -- the review, once the match is over: each move graded, the win-chance graph, "n" to the next mistake --

function matchOver() {
  return current && current.over && current.you !== null && !(current.match && !current.match.over);
}

function askReview() {
  if (!matchOver() || reviewed || reviewing) return;
  reviewing = {done: 0, total: 0};
  socket.send(JSON.stringify({type: "review"}));
  drawChoices();
}

function reviewPanel() {
  const panel = el("div", "review");
  panel.appendChild(el("h3", "", "Your review"));
  if (!reviewed && !reviewing) {
    panel.appendChild(el("p", "dim", "Where the game was won and lost: each of your moves graded by the chance to win it " +
      "gave away, as the AI's search judges it from what you knew, with the move it preferred."));
    const button = el("button", "tool", "Review my game (r)");
    button.type = "button";
    button.addEventListener("click", askReview);
    panel.appendChild(button);
    return panel;
  }
  if (!reviewed) {
    const {done, total} = reviewing;
    panel.appendChild(el("p", "", total ? `Reviewing: ${done} of ${total} decisions searched…` : "Reviewing…"));
    const bar = el("progress");
    if (total) { bar.max = total; bar.value = done; }
    panel.appendChild(bar);
    return panel;
  }
  reviewed.games.forEach((g) => {
    const c = g.counts;
    const turning = g.decisions.find((d) => d.index === g.turning);
    panel.appendChild(el("p", "summary", (reviewed.games.length > 1 ? `Game ${g.game}: ` : "") +
      `accuracy ${g.accuracy}% · ${c.inaccuracy} inaccurac${c.inaccuracy === 1 ? "y" : "ies"} · ${c.mistake} mistake${c.mistake === 1 ? "" : "s"} · ` +
      `${c.blunder} blunder${c.blunder === 1 ? "" : "s"}` + (turning ? ` · turning point: #${turning.index + 1}` : "")));
    panel.appendChild(chanceGraph(g));
  });
  const list = el("ol", "graded");
  reviewed.games.forEach((g) => g.decisions.forEach((d) => {
    const item = el("li", `grade-${d.grade}` + (reviewAt && reviewAt[0] === g.game && reviewAt[1] === d.index ? " at" : ""));
    item.appendChild(el("span", "num", `${reviewed.games.length > 1 ? g.game + "." : ""}#${d.index + 1}`));
    item.appendChild(el("span", "played", d.played));
    if (d.mark) item.appendChild(el("span", "mark", d.mark));
    item.appendChild(el("span", "words", d.words));
    item.addEventListener("click", () => { reviewAt = [g.game, d.index]; drawChoices(); });
    list.appendChild(item);
  }));
  panel.appendChild(list);
  const faults = reviewed.games.reduce((n, g) => n + g.decisions.filter((d) => d.fault).length, 0);
  panel.appendChild(el("p", "keys", faults ? "n: the next mistake or blunder · click a move or a point to pick it out" :
    "No mistake or blunder. Click a move or a point to pick it out."));
  requestAnimationFrame(() => { const at = list.querySelector(".at"); if (at) at.scrollIntoView({block: "nearest"}); });
  return panel;
}

function chanceGraph(g) {
  // The chance to win before each of the seat's decisions, 0% at the bottom; marked moves as dots.
  const n = g.decisions.length, w = Math.max(100, n * 8), h = 60;
  const holder = el("div");
  holder.innerHTML = "<svg></svg>";  // (the HTML parser gives it SVG's namespace, and its children take it)
  const svg = holder.firstChild, SVG = svg.namespaceURI;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "chance");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Your chance to win over game ${g.game}`);
  const x = (i) => (n > 1 ? (i * (w - 8)) / (n - 1) + 4 : w / 2), y = (p) => h - 4 - p * (h - 8);
  const half = document.createElementNS(SVG, "line");
  Object.entries({x1: 0, x2: w, y1: y(0.5), y2: y(0.5), class: "half"}).forEach(([k, v]) => half.setAttribute(k, v));
  svg.appendChild(half);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", g.decisions.map((d, i) => `${x(i).toFixed(1)},${y(d.before).toFixed(1)}`).join(" "));
  svg.appendChild(line);
  g.decisions.forEach((d, i) => {
    if (!d.mark && !(reviewAt && reviewAt[0] === g.game && reviewAt[1] === d.index)) return;
    const dot = document.createElementNS(SVG, "circle");
    Object.entries({cx: x(i), cy: y(d.before), r: 3, class: `grade-${d.grade}` + (reviewAt && reviewAt[1] === d.index && reviewAt[0] === g.game ? " at" : "")})
      .forEach(([k, v]) => dot.setAttribute(k, v));
    const title = document.createElementNS(SVG, "title");
    title.textContent = `#${d.index + 1} ${d.played}${d.mark}: ${d.words}`;
    dot.appendChild(title);
    dot.addEventListener("click", () => { reviewAt = [g.game, d.index]; drawChoices(); });
    svg.appendChild(dot);
  });
  return svg;
}

function nextFault() {
  if (!reviewed) return;
  const faults = [];
  reviewed.games.forEach((g) => g.decisions.forEach((d) => { if (d.fault) faults.push([g.game, d.index]); }));
  if (!faults.length) return;
  const after = (f) => !reviewAt || f[0] > reviewAt[0] || (f[0] === reviewAt[0] && f[1] > reviewAt[1]);
  reviewAt = faults.find(after) || faults[0];  // (after the last, back to the first)
  drawChoices();
}

// -- the whole board --------------------------------------------------------------------------------

const PHASES = {SETUP_GAME: "setting up", SETUP_CHOOSE_MAGES: "choosing mages", SETUP_CHOOSE_ITEMS: "choosing magic items",
  COLLECT: "collect", ACTIONS: "actions", SETUP_DRAFT: "draft", SETUP_CHOOSE_FIRST: "choosing who starts",
  SETUP_REDRAFT: "redraft"};

function drawHeader(view) {
  const pos = view.position;
  $("round").textContent = (view.match ? `Game ${view.match.game} of ${view.match.best_of} · ` : "") +
    (pos.round ? `Round ${pos.round} · ` : "") + (PHASES[pos.phase] || pos.phase.toLowerCase().replace(/_/g, " "));
  const turn = $("turn");
  const bar = $("notebar");
  bar.className = "";
  if (view.over) {
    const won = view.result ? view.result.winners.map((p) => view.names[p]) : [];
    turn.textContent = won.length ? `Game over: ${won.join(" and ")} ${won.length > 1 ? "share the victory" : "wins"}` : "Game over";
    turn.className = "over";
    bar.hidden = true;
    return;
  }
  const mine = view.choices !== null;
  const deciding = (view.deciding || [view.to_play]).filter((p) => p !== view.you);
  turn.textContent = mine ? "Your turn" : deciding.length ? `${deciding.map((p) => view.names[p]).join(", ")} to play` :
    "Waiting";
  turn.className = mine ? "yours" : "theirs";
  // The note: what the player to play is deciding; loud when a rival must React or choose.
  const pending = pos.pending;
  bar.hidden = !view.note;
  bar.textContent = !mine ? view.note : view.note_you === null ? "Your turn: place an artifact, claim, use a power, discard or pass." :
    `Your decision: you ${view.note_you}`;
  const seat = view.seats[view.to_play];
  if (!mine && seat && seat.kind === "person" && !seat.connected) {
    bar.textContent += ` (away: waiting for ${view.names[view.to_play]} to come back, or for the host to hand the seat to the AI)`;
  }
  if (mine) bar.className = "yours";
  else if (pending) bar.className = "alert";  // (a rival answers a Life loss or chooses: every seat sees it)
}

function draw(view) {
  const fresh = view.choices && !(current && current.choices && current.choices.ask === view.choices.ask);
  if (!view.choices || fresh) hinted = null;
  current = view;
  if (fresh) {  // (a new decision: the last one's ways or card, if one was open, mean nothing in it)
    const single = view.choices.groups.length === 1 && view.choices.groups[0].ways.length;
    picking = single ? 0 : null;  // (one choice of several ways, a Collect's say: its ways at once, one click each)
    onlyCard = null;
    lit = 0;
    typed = "";
  }
  drawnAt = performance.now();
  if (!view.choices) { picking = null; onlyCard = null; }
  else if (picking !== null && picking >= view.choices.groups.length) picking = null;
  $("status").textContent = view.you === null ? "watching" :
    view.names[view.you] === "You" ? "your seat" : `you are ${view.names[view.you]}`;
  $("status").className = "";
  drawHeader(view);
  drawRivals(view);
  drawCentre(view);
  const mine = $("mine");
  mine.replaceChildren();
  if (view.you !== null) mine.appendChild(playerPanel(view, view.you, false));
  drawHand(view);
  drawTools(view);
  drawChoices();
  if (view.notice) {  // (the session's word on an undo, until the next move)
    $("notebar").hidden = false;
    $("notebar").textContent = view.notice;
  }
  if (hinted && view.choices && hinted.ask === view.choices.ask) {
    $("notebar").hidden = false;
    $("notebar").className = "hint";
    $("notebar").textContent = hinted.text;
  }
  drawLog(view);
  const lines = listed();
  if (shown) showCard(shown);
  else if (lines[lit] && lines[lit].card) showCard(lines[lit].card);
}

let logLines = 0;  // the log's lines last drawn: new ones bring the log to its newest line

function drawLog(view) {
  const log = $("log");
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  log.replaceChildren(el("h2", "", "Log"));
  view.log.forEach(([style, line]) => log.appendChild(el("p", style, line)));
  if (atBottom || view.log.length !== logLines) log.scrollTop = log.scrollHeight;
  logLines = view.log.length;
}
// (the side's panels change height as the choices come and go: the log keeps its newest line in view)
new ResizeObserver(() => { const log = $("log"); log.scrollTop = log.scrollHeight; }).observe($("log"));

function overlay(text) {
  const box = $("overlay");
  box.textContent = text;
  box.hidden = false;
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === ">" && current) {
    const others = current.names.map((_, p) => p).filter((p) => p !== current.you);
    const at = others.indexOf(expanded === null ? (others.includes(current.to_play) ? current.to_play : others[0]) : expanded);
    expanded = others[(at + 1) % others.length];
    draw(current);
    return;
  }
  if (event.key === "Enter" && document.activeElement && document.activeElement.dataset &&
      document.activeElement.dataset.card && document.activeElement.classList.contains("playable")) {
    event.preventDefault();
    cardClicked(document.activeElement.dataset.card);
    return;
  }
  if (event.target && event.target.tagName === "INPUT" && event.target.type !== "checkbox") return;
  if (event.key === "h") { askHint(); return; }
  if (event.key === "r" && matchOver()) { askReview(); return; }
  if (event.key === "n" && reviewed) { nextFault(); return; }
  if (event.key === "u") { askUndo(); return; }
  if (event.key === "a" && current && current.tools) { setAutoCollect(!current.tools.auto_collect); return; }
  const lines = listed();
  if (!lines.length) return;
  if (event.key >= "0" && event.key <= "9") {
    const now = Date.now();
    if (now - typedAt > TYPED_PAUSE_MS) typed = "";
    typedAt = now;
    typed += event.key;
    let n = parseInt(typed, 10);
    if (!(n >= 1 && n <= lines.length)) { typed = event.key; n = parseInt(typed, 10); }
    if (n >= 1 && n <= lines.length) { lit = n - 1; drawChoices(); if (lines[lit].card) showCard(lines[lit].card); }
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    lit = (lit + (event.key === "ArrowDown" ? 1 : lines.length - 1)) % lines.length;
    typed = "";
    drawChoices();
    if (lines[lit].card) showCard(lines[lit].card);
    event.preventDefault();
  } else if (event.key === "Enter") {
    event.preventDefault();  // (not also the click of a focused button)
    typed = "";
    if (hinting) return;  // (Enter after "h" means the hint's move: wait for it)
    take(lines[lit]);
  } else if (event.key === "Escape" && (picking !== null || onlyCard !== null)) {
    back_();
  }
});

function connect() {
  const token = location.pathname.split("/").pop();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "cards") {
      cards = data.cards;
      KINDS = data.letters.toLowerCase().split("");
      KIND_NAMES = data.essences;
    }
    else if (data.type === "view") {
      const first = current === null;
      draw(data);
      const kept = localStorage.getItem(AUTO_KEY);  // (the setting this browser keeps, told once a connection)
      if (first && data.tools && kept !== null && (kept === "on") !== data.tools.auto_collect) setAutoCollect(kept === "on");
    }
    else if (data.type === "hint") hintCame(data);
    else if (data.type === "reviewing") { if (!reviewed) { reviewing = data; drawChoices(); } }
    else if (data.type === "review") { reviewed = data; reviewing = null; drawChoices(); }
    else if (data.type === "left") {
      overlay(data.alone ? `Saved to ${data.file} (in the folder the server runs in). Resume it with: amigos host --resume ${data.file}` :
        `You left the table. Your seat waits for you: this page's address brings you back (${location.href}).`);
    }
    else if (data.type === "refused") {  // (nothing changed: the choices are offered again)
      if (hinting) { hinting = false; drawTools(current); }
      reviewing = null;  // (a review refused or failed may be asked again)
      $("notebar").hidden = false;
      $("notebar").className = "alert";
      $("notebar").textContent = "Not taken: " + data.why;
      drawChoices();
    }
    else if (data.type === "replaced") overlay("This seat was opened in another tab or window: play there.");
  };
  socket.onclose = () => {
    if (!$("overlay").hidden || (current && current.over && !(current.match && !current.match.over))) return;
    $("status").textContent = "disconnected: reconnecting…";
    $("status").className = "lost";
    setTimeout(connect, RECONNECT_MS);
  };
}

$("card").addEventListener("click", () => $("card").classList.remove("sheet"));
connect();
