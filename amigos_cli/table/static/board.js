// The table's board: draws each view the server sends (amigos_cli/table/view.py) and sends back the
// choice made.  Plain script, nothing fetched from elsewhere.  Keys: a number then Enter (or Enter on
// the highlighted choice), the arrows, Escape back from a choice's ways.
"use strict";

const KINDS = ["e", "l", "c", "d", "g"];
const KIND_NAMES = ["elan", "life", "calm", "death", "gold"];
let cards = {};          // id -> {name, kind, cost, cost_any, points, text}
let current = null;      // the last view
let picking = null;      // the group whose ways are listed, or null
let lit = 0;             // the highlighted line of the choices
let typed = "";          // a number being typed
let expanded = null;     // the rival shown in full (a seat), or null for the next one
let socket = null;

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function essences(counts, cls) {
  const span = el("span", cls || "pool");
  counts.forEach((n, k) => {
    if (n) span.appendChild(el("span", KINDS[k], `${n}${KINDS[k].toUpperCase()} `));
  });
  if (!counts.some((n) => n)) span.appendChild(el("span", "dim", "none"));
  return span;
}

function showCard(id) {
  const card = cards[id];
  const panel = $("card");
  panel.replaceChildren();
  if (!card) return;
  panel.appendChild(el("h2", "", card.name));
  const line = el("p", "dim", `${card.kind} · ${card.points} point${card.points === 1 ? "" : "s"} · cost `);
  line.appendChild(essences(card.cost, "cost"));
  if (card.cost_any) line.appendChild(el("span", "", ` +${card.cost_any} any`));
  panel.appendChild(line);
  panel.appendChild(el("p", "", card.text));
}

function cardBox(entry, extra) {
  const id = entry.id || entry;
  const card = cards[id] || {name: id, cost: [0, 0, 0, 0, 0], points: 0};
  const box = el("div", "card" + (entry.turned ? " turned" : "") + (extra ? " " + extra : ""));
  box.appendChild(el("div", "cname", card.name));
  if (entry.essences && entry.essences.some((n) => n)) box.appendChild(essences(entry.essences, "ess"));
  box.addEventListener("mouseenter", () => showCard(id));
  box.addEventListener("click", () => showCard(id));
  return box;
}

function playerPanel(view, p, compact) {
  const entry = view.position.players[p];
  const seat = view.seats[p];
  const you = view.you === p;
  const panel = el("div", "player" + (you ? " you" : "") + (compact ? " compact" : ""));
  const head = el("div", "head");
  head.appendChild(el("span", "name", entry.name + (you ? " (you)" : "")));
  head.appendChild(el("span", "vp", `${entry.vp} VP`));
  if (entry.first_player) head.appendChild(el("span", "tag", "first player"));
  if (entry.passed) head.appendChild(el("span", "tag passed", "passed"));
  if (seat.kind === "person" && !seat.connected) head.appendChild(el("span", "tag waiting", "waiting"));
  if (seat.kind === "agent") head.appendChild(el("span", "tag", "AI"));
  if (view.to_play === p) head.appendChild(el("span", "tag", "to play"));
  head.appendChild(essences(entry.pool));
  head.appendChild(el("span", "dim", `hand ${entry.hand_size} · deck ${entry.deck_size}` +
    (entry.discard.length ? ` · discards ${entry.discard.length}` : "")));
  panel.appendChild(head);
  const row = el("div", "row");
  entry.in_play.forEach((c) => row.appendChild(cardBox(c)));
  panel.appendChild(row);
  if (entry.points_from.length) {
    const points = el("div", "row points", "points: " + entry.points_from.map(([s, n]) => `${s} ${n}`).join(", "));
    panel.appendChild(points);
  }
  if (compact) panel.addEventListener("click", () => { expanded = p; draw(current); });
  return panel;
}

function drawCentre(view) {
  const centre = $("centre");
  centre.replaceChildren(el("h2", "", "Centre"));
  const pos = view.position;
  const row = el("div", "row");
  pos.monuments_face_up.forEach((id) => row.appendChild(cardBox(id)));
  row.appendChild(el("span", "dim", `monument deck: ${pos.monument_deck_size}`));
  centre.appendChild(row);
  const places = el("div", "row");
  pos.places_of_power.forEach((id) => places.appendChild(cardBox(id)));
  centre.appendChild(places);
  if (pos.magic_items_available.length) {
    const items = el("div", "row");
    items.appendChild(el("span", "dim", "magic items:"));
    pos.magic_items_available.forEach((id) => items.appendChild(cardBox(id)));
    centre.appendChild(items);
  }
}

function drawHand(view) {
  const hand = $("hand");
  hand.replaceChildren();
  if (view.you === null) return;
  const mine = view.position.players[view.you];
  hand.appendChild(el("h2", "", "Your hand"));
  const row = el("div", "row");
  const choices = view.choices ? view.choices.groups : [];
  (mine.hand || []).forEach((id) => {
    const which = choices.findIndex((g) => g.card === id && g.text.startsWith("Place"));
    const box = cardBox(id, which >= 0 ? "playable" : "");
    if (which >= 0) box.addEventListener("click", () => choose(which));
    row.appendChild(box);
  });
  hand.appendChild(row);
  if (mine.deck && mine.deck.length) {
    hand.appendChild(el("p", "dim", "in your deck: " + mine.deck.map((id) => (cards[id] || {name: id}).name).join(", ")));
  }
}

function lines() {
  // The lines listed now: the groups, or the ways of the group being picked.
  if (!current || !current.choices) return [];
  if (picking !== null) return current.choices.groups[picking].ways;
  return current.choices.groups.map((g) => g.text + (g.ways.length ? `  (${g.ways.length} ways)` : ""));
}

function drawChoices() {
  const box = $("choices");
  box.replaceChildren();
  if (!current) return;
  if (!current.choices) {
    box.appendChild(el("p", "dim", current.over ? "The game is over." : (current.note || "")));
    return;
  }
  box.appendChild(el("h2", "", picking === null ? `Your choice (${lines().length})` :
    `${current.choices.groups[picking].text}: how? (Escape: back)`));
  lines().forEach((text, i) => {
    const button = el("button", i === lit ? "lit" : "");
    button.appendChild(el("span", "num", `${i + 1}.`));
    button.appendChild(document.createTextNode(text));
    button.addEventListener("click", () => (picking === null ? choose(i) : send(picking, i)));
    const group = picking === null ? current.choices.groups[i] : current.choices.groups[picking];
    if (group.card) button.addEventListener("mouseenter", () => showCard(group.card));
    box.appendChild(button);
  });
}

function choose(group) {
  const ways = current.choices.groups[group].ways;
  if (ways.length) {
    picking = group;
    lit = 0;
    drawChoices();
  } else {
    send(group, 0);
  }
}

function send(group, way) {
  socket.send(JSON.stringify({type: "choose", ask: current.choices.ask, group: group, way: way}));
  picking = null;
  lit = 0;
}

function draw(view) {
  current = view;
  $("status").textContent = view.over ? "game over" : (view.you === null ? "watching" : `you are ${view.names[view.you]}`);
  $("note").textContent = view.note;
  const rivals = $("rivals");
  rivals.replaceChildren();
  const others = view.names.map((_, p) => p).filter((p) => p !== view.you);
  const many = others.length > 1;
  const full = expanded !== null && others.includes(expanded) ? expanded : others[0];
  others.forEach((p) => rivals.appendChild(playerPanel(view, p, many && p !== full)));
  drawCentre(view);
  const mine = $("mine");
  mine.replaceChildren();
  if (view.you !== null) mine.appendChild(playerPanel(view, view.you, false));
  drawHand(view);
  if (!view.choices) picking = null;
  drawChoices();
  const log = $("log");
  log.replaceChildren(el("h2", "", "Log"));
  view.log.forEach((line) => log.appendChild(el("p", "", line)));
  log.scrollTop = log.scrollHeight;
}

function overlay(text) {
  const box = $("overlay");
  box.textContent = text;
  box.hidden = false;
}

document.addEventListener("keydown", (event) => {
  const count = lines().length;
  if (!count) return;
  if (event.key >= "0" && event.key <= "9") {
    typed += event.key;
    const n = parseInt(typed, 10);
    if (n >= 1 && n <= count) { lit = n - 1; drawChoices(); }
  } else if (event.key === "ArrowDown") {
    lit = (lit + 1) % count; typed = ""; drawChoices(); event.preventDefault();
  } else if (event.key === "ArrowUp") {
    lit = (lit + count - 1) % count; typed = ""; drawChoices(); event.preventDefault();
  } else if (event.key === "Enter") {
    typed = "";
    if (picking === null) choose(lit); else send(picking, lit);
  } else if (event.key === "Escape" && picking !== null) {
    picking = null; lit = 0; typed = ""; drawChoices();
  }
});

function connect() {
  const token = location.pathname.split("/").pop();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "cards") cards = data.cards;
    else if (data.type === "view") draw(data);
    else if (data.type === "refused") $("note").textContent = "Not taken: " + data.why;
    else if (data.type === "replaced") overlay("This seat was opened in another tab or window: play there.");
  };
  socket.onclose = (event) => {
    if (!$("overlay").hidden) return;
    $("status").textContent = "disconnected: reconnecting…";
    setTimeout(connect, 2000);
  };
}

connect();
