// The table's screen (/games/{id}/table): GET /api/games/{id}/screen drawn for a TV, drawn again each time the
// game's stream says a line was stored. Every value is set as text, never as HTML. The token stays in the URL's
// fragment and goes out only in the Authorization header.
"use strict";

const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const match = location.pathname.match(/^\/games\/([^/]+)\/table$/);
const gameId = match ? decodeURIComponent(match[1]) : null;
const base = `/api/games/${encodeURIComponent(gameId)}`;
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

function words(name) { return name.replace(/_/g, " "); }

function draw(screen) {
  $("title").textContent = screen.id;
  document.title = `${screen.id}: the table`;
  $("turn").textContent = screen.finished ? `The game is over${screen.winner ? `: ${screen.winner} wins` : ""}`
    : screen.active ? `${screen.active}'s turn` : screen.due ? `${screen.due} is next` : "";
  $("facts").replaceChildren(...(screen.round !== null && !screen.facts.some((f) => f.label === "Round")
    ? [{label: "Round", value: String(screen.round)}] : []).concat(screen.facts)
    .map((f) => el("span", {class: "fact"}, el("b", {}, f.label), f.value)));
  $("track-title").textContent = words(screen.score_name) + (screen.goal ? ` (goal ${screen.goal})` : "");
  const top = Math.max(screen.goal || 0, ...screen.standings.map((s) => s.score || 0), 1);
  $("track").replaceChildren(...screen.standings.map((s) => el("li", {
      class: [s.player === (screen.active || screen.due) ? "due" : "", s.player === screen.winner ? "winner" : ""].join(" ").trim(),
      "data-player": s.player},
    el("div", {class: "who"}, el("span", {}, s.player), el("span", {class: "score"}, s.score ?? "?")),
    s.note ? el("div", {class: "note"}, s.note) : "",
    el("div", {class: "bar"}, el("span", {style: `width: ${Math.min(100, Math.max(0, 100 * (s.score || 0) / top))}%`})))));
  $("panels").replaceChildren(...screen.panels.map((p) => el("div", {class: "panel", "data-title": p.title},
    el("h2", {}, p.title),
    el("table", {}, el("thead", {}, el("tr", {}, p.columns.map((c) => el("th", {}, c)))),
       el("tbody", {}, p.rows.map((row) => el("tr", {}, row.map((cell) => el("td", {class: cell === "\u25cf" ? "mark" : null}, cell)))))))));
  $("last").replaceChildren(...screen.last.slice().reverse().map((l) => el("li", {class: l.voided ? "voided" : null, "data-line": l.line},
    el("span", {class: "no"}, l.line), el("span", {class: "words"}, l.words))));
}

async function refresh() {
  const response = await fetch(`${base}/screen`, {headers: {Authorization: `Bearer ${token}`}});
  const body = await response.json();
  if (response.status !== 200) return problem((body.errors || []).map((e) => e.message || e).join("\n"));
  problem("");
  draw(body);
  return body;
}

async function follow(last) {
  await followStream(`${base}/stream`, token, last, {
    onEvents: () => refresh(),  // the screen is read again once for a burst of lines
    onState: (state) => { $("live").textContent = state; },
    onDenied: () => problem("this link is not valid for this game"),
  });
}

if (!token || !gameId) problem("open this screen through a link that carries a token (the host's or the spectators')");
else refresh().then((screen) => screen && follow(screen.line));
