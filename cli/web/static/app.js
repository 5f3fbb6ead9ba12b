// The recorder's page: the host's home (games, a new game, the seats' links) or one game as this device's token
// sees it (standings, a form for each kind of line, the history, the report), following the game live.
// Every value shown is set as text, never as HTML. The token stays in the URL's fragment and goes out only in the
// Authorization header.
"use strict";

const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token") || "";
const gameMatch = location.pathname.match(/^\/games\/([^/]+)$/);
const gameId = gameMatch ? decodeURIComponent(gameMatch[1]) : null;
const $ = (id) => document.getElementById(id);
let me = null, forms = null, lines = 0, seen = [], replacing = null, pending = null, reportUrl = null, undoReason = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

async function api(path, options = {}) {
  const response = await fetch(path, {...options, headers: {...(options.headers || {}), Authorization: `Bearer ${token}`,
                                                            "Content-Type": "application/json"}});
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") && !type.includes("jsonl") ? await response.json() : await response.text();
  return {status: response.status, body};
}

function errorsText(body) {
  const errors = (body && body.errors) || [body];
  return errors.map((e) => typeof e === "string" ? e : (e.line ? `line ${e.line}: ` : "") + `${e.message} at ${e.path}`).join("\n");
}

// -- forms, from the server's description of each kind of line ---------------------------------------------------

function words(name) { return name.replace(/_/g, " "); }

function fieldInput(field, path, players) {
  const id = `f-${path}`;
  const label = words(field.name) + (field.required ? "" : " (optional)");
  if (field.kind === "bool") {
    return el("label", {class: "check"}, el("input", {type: "checkbox", id, "data-path": path, "data-kind": "bool",
                                                      checked: field.default === true}), label);
  }
  if (field.kind === "group") {
    return el("fieldset", {}, el("legend", {}, label), field.fields.map((f) => fieldInput(f, `${path}.${f.name}`, players)));
  }
  if (field.kind === "map") {
    return el("fieldset", {"data-map": path}, el("legend", {}, label + " by player"),
              players().map((p) => fieldInput({...field.item, name: p, required: false}, `${path}.${p}`, players)));
  }
  if (field.kind === "list") {
    const rows = el("div", {"data-list": path});
    const add = () => rows.append(fieldInput({...field.item, name: `${words(field.name)} ${rows.children.length + 1}`,
                                              required: false}, `${path}[${rows.children.length}]`, players));
    add();
    return el("fieldset", {}, el("legend", {}, label), rows, el("button", {type: "button", onclick: add}, "+ another"));
  }
  let input;
  if (field.kind === "choice" || (field.kind === "text" && field.offered.length && field.player)) {
    const options = field.kind === "choice" ? field.choices : field.offered;
    input = el("select", {id, "data-path": path, "data-kind": field.kind === "choice" && typeof options[0] === "number" ? "number" : "text"},
               field.required ? [] : [el("option", {value: ""}, "—")],
               options.map((o) => el("option", {value: o, selected: field.default === o}, o)));
  } else if (field.kind === "text" && field.offered.length) {
    const list = el("datalist", {id: `${id}-offered`}, field.offered.map((o) => el("option", {value: o})));
    input = el("input", {id, "data-path": path, "data-kind": "text", list: `${id}-offered`,
                         value: field.offered.length === 1 ? field.offered[0] : ""});
    return el("label", {}, label, input, list);
  } else if (field.kind === "number") {
    input = el("input", {id, "data-path": path, "data-kind": "number", type: "number", inputmode: "numeric",
                         min: field.minimum, max: field.maximum, placeholder: field.default ?? ""});
  } else if (field.kind === "json") {
    input = el("textarea", {id, "data-path": path, "data-kind": "json", placeholder: "JSON"});
  } else {
    input = el("input", {id, "data-path": path, "data-kind": "text"});
  }
  return el("label", {}, label, input);
}

function setAt(target, path, value) {
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== "");
  let at = target;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const nextIsIndex = !last && /^\d+$/.test(keys[i + 1]);
    if (last) { if (Array.isArray(at)) at.push(value); else at[key] = value; }
    else { at[key] = at[key] ?? (nextIsIndex ? [] : {}); at = at[key]; }
  });
}

function collect(container, type) {
  const out = type ? {type} : {};
  for (const input of container.querySelectorAll("[data-path]")) {
    let value;
    if (input.dataset.kind === "bool") { if (!input.checked) continue; value = true; }
    else {
      const text = input.value.trim();
      if (text === "") continue;
      value = input.dataset.kind === "number" ? Number(text) : input.dataset.kind === "json" ? JSON.parse(text) : text;
    }
    setAt(out, input.dataset.path, value);
  }
  return out;
}

function fill(container, values, prefix = "") {
  for (const [key, value] of Object.entries(values)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object" && !Array.isArray(value)) { fill(container, value, path); continue; }
    if (Array.isArray(value)) { fillList(container, value, path); continue; }
    const input = container.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (!input) continue;
    if (input.dataset.kind === "bool") input.checked = value === true;
    else {
      if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === String(value)))
        input.append(el("option", {value: String(value)}, String(value)));
      input.value = String(value);
    }
  }
}

function fillList(container, values, path) {
  // A list's rows: as many as it has items ("+ another" adds the missing ones), each filled.
  const rows = container.querySelector(`[data-list="${CSS.escape(path)}"]`);
  if (!rows) return;
  while (rows.children.length < values.length) rows.parentElement.querySelector(":scope > button").click();
  values.forEach((value, i) => fill(container, {[`${path}[${i}]`]: value}));
}

// -- the host's home ---------------------------------------------------------------------------------------------

async function home() {
  $("home").hidden = false;
  $("who").textContent = "host";
  const listed = await api("/api/games");
  if (listed.status !== 200) return problem(errorsText(listed.body));
  $("games").replaceChildren(...listed.body.games.map((g) => el("li", {},
    el("a", {href: `/games/${encodeURIComponent(g.id)}#token=${encodeURIComponent(token)}`}, `${g.id} (${g.game}, ${g.players.join(", ")})`))));
  const headers = (await api("/api/headers")).body;
  const kinds = Object.keys(headers);
  $("new-kind").replaceChildren(...kinds.map((k) => el("option", {value: k}, k)));
  const players = () => [...$("new-fields").querySelectorAll('[data-path^="players["]')].map((i) => i.value.trim()).filter(Boolean);
  const show = () => {
    const form = headers[$("new-kind").value];
    const fields = form.fields.filter((f) => f.name !== "version");
    $("new-fields").replaceChildren(...fields.map((f) => fieldInput(f, f.name, players)));
    const list = $("new-fields").querySelector('[data-list="players"]');
    list.parentElement.querySelector("button").click();  // two seats to start with
    list.addEventListener("change", () => {  // the values by player follow the players named
      for (const map of $("new-fields").querySelectorAll("[data-map]")) {
        const field = fields.flatMap((f) => f.fields.length ? f.fields : [f]).find((f) => map.dataset.map.endsWith(f.name));
        if (field) map.replaceWith(fieldInput(field, map.dataset.map, players));
      }
    });
  };
  $("new-kind").onchange = show;
  show();
  $("new-game").onsubmit = async (event) => {
    event.preventDefault();
    let header;
    try { header = collect($("new-fields"), "game"); } catch (e) { return problem(`not JSON: ${e.message}`); }
    header.game = $("new-kind").value;
    const made = await api("/api/games", {method: "POST", body: JSON.stringify(header)});
    if (made.status !== 201) return problem(errorsText(made.body));
    problem("");
    await showSeats(made.body.id, $("seat-links"));
    await home();
  };
}

async function showSeats(id, into) {
  const got = await api(`/api/games/${encodeURIComponent(id)}/seats`);
  if (got.status !== 200) return problem(errorsText(got.body));
  // The QR code is inline SVG (no xmlns): parsed as HTML, so that it is in the SVG namespace and drawn.
  const qr = (svg) => document.importNode(new DOMParser().parseFromString(svg, "text/html").body.firstElementChild, true);
  const link = (who, l) => el("div", {class: "seat"}, qr(l.qr), el("div", {class: "link"}, el("strong", {}, who), el("br"),
                                                                 el("a", {href: l.url, target: "_blank", rel: "noopener"}, "join link")));
  const allow = el("label", {class: "check"}, el("input", {type: "checkbox", checked: got.body.any_seat, onchange: async (e) => {
    await api(`/api/games/${encodeURIComponent(id)}/settings`, {method: "POST", body: JSON.stringify({any_seat: e.target.checked})});
  }}), "every seat may record any player's lines");
  into.replaceChildren(el("h2", {}, `Seats of ${id}`), allow,
                       ...Object.entries(got.body.seats).map(([p, l]) => link(p, l)), link("spectators", got.body.spectator),
                       el("p", {}, el("a", {href: `/games/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`}, "open the game as host")));
}

// -- one game -----------------------------------------------------------------------------------------------------

function showForm(type, values) {
  const form = forms.forms.find((f) => f.type === type) || forms.forms[0];
  $("kind").value = form.type;
  const players = () => forms.players;
  const fields = form.fields.map((f) => {
    // A seat records its own player's lines: their name comes first, picked already.
    if (f.player && me.role === "seat") f = {...f, offered: [me.player, ...f.offered.filter((p) => p !== me.player)]};
    return fieldInput(f, f.name, players);
  });
  $("fields").replaceChildren(...fields);
  if (values) fill($("fields"), values);
}

async function refresh() {
  // The page opened: the history once; from then on the stream carries each new line (follow).
  const history = await api(`/api/games/${encodeURIComponent(gameId)}/history`);
  if (history.status !== 200) return problem(errorsText(history.body));
  seen = history.body.lines;
  await moved();
}

async function moved() {
  // What a new line changes besides the history: the forms and the standings (two requests), the report when open;
  // once the game is over, where its result stands too (the seats confirm it then).
  const base = `/api/games/${encodeURIComponent(gameId)}`;
  const [got, state] = await Promise.all([api(`${base}/forms`), api(`${base}/replay`)]);
  if (got.status !== 200) return problem(errorsText(got.body));
  const result = state.body.finished ? await api(`${base}/result`) : {body: null};
  lines = got.body.lines;
  const keep = forms && $("kind").value;
  const kept = forms && collect($("fields"));
  forms = got.body;
  $("kind").replaceChildren(...forms.forms.map((f) => el("option", {value: f.type}, f.label || words(f.type))));
  showForm(keep || forms.forms[0].type, kept);
  showStandings(state.body);
  showResult(result.body, state.body);
  showTurnSteps();
  showState(state.body);
  showHistory();
  showReport();
}

function take(line) {
  // A line as the stream gives it (as this device may see it): after the last one held; a correction strikes the
  // line it voids, as the history says it.
  if (seen.length && line.line <= seen[seen.length - 1].line) return;
  seen.push(line);
  const voided = line.entry.type === "correction" ? seen.find((s) => s.line === line.entry.voids) : null;
  if (voided && !voided.voided_by) voided.voided_by = line.line;
}

function showStandings(state) {
  const due = state.finished ? null : forms.due;  // once the game is over, nobody's turn is due
  const cards = Object.entries(state.players || {}).map(([name, p]) => el("div", {class: name === due ? "standing due" : "standing"},
    el("div", {class: "name"}, name + (name === due ? " (due)" : "")),
    Object.entries(p).filter(([, v]) => typeof v === "number").slice(0, 4).map(([k, v]) => el("div", {class: "figure"}, `${words(k)}: ${v}`))));
  const status = state.finished ? `the game is over${state.winner ? `: ${state.winner} wins` : ""}` : `line ${state.line}`;
  $("standings").replaceChildren(...cards, el("div", {class: "standing"}, status));
}

function resultLine(r) {
  // The result's state in one line, as `gamelog result` says it.
  const seats = r.confirmed.length + r.pending.length;
  const confirmed = !r.pending.length ? `confirmed by all ${seats} seats after line ${r.lines}`
    : r.confirmed.length ? `confirmed by ${r.confirmed.join(", ")} after line ${r.lines}; waiting for ${r.pending.join(", ")}`
    : `no seat has confirmed the game after line ${r.lines}`;
  const open = r.disputes.filter((d) => d.resolved_by === null);
  return `${r.state}: ` + open.map((d) => `${d.player} disputes it at line ${d.line}: ${d.reason}; `).join("") + confirmed;
}

function showResult(r, state) {
  // Everyone sees where the result stands; at the end of the game a seat that has not confirmed is asked to (the
  // standings and the fingerprint its view shows), and may dispute; the host rules on each open dispute.
  if (!r || !r.state) return $("result").replaceChildren();
  const parts = [el("p", {class: `state ${r.state}`, id: "result-state"}, resultLine(r))];
  const open = r.disputes.filter((d) => d.resolved_by === null);
  if (state.finished && me.role === "seat" && r.pending.includes(me.player)) {
    const reason = el("input", {id: "dispute-reason", placeholder: "why the result is wrong"});
    parts.push(el("div", {class: "confirm", id: "confirm-step"},
      el("h2", {}, "Confirm the result"),
      el("ol", {class: "standings-list"}, r.standings.map((s) => el("li", {}, `${s.player}: ${s.score}`,
        Object.keys(s.sources || {}).length ? ` (${Object.entries(s.sources).map(([k, v]) => `${words(k)} ${v}`).join(", ")})` : ""))),
      el("p", {}, "Each line that scored: the report below. Fingerprint after line ", String(r.lines), ": ",
         el("code", {id: "result-fingerprint"}, r.fingerprint.slice(0, 16))),
      el("div", {class: "buttons"},
        el("button", {type: "button", class: "primary", id: "confirm", onclick: () => submit(
          {type: "result_confirmed", player: me.player, lines: r.lines, fingerprint: r.fingerprint}, false, null, null)}, "Confirm"),
        el("label", {}, "Dispute: ", reason),
        el("button", {type: "button", id: "dispute", onclick: () => reason.value.trim()
          ? submit({type: "result_disputed", player: me.player, reason: reason.value.trim()}, false, null, null)
          : problem("say why you dispute the result")}, "Dispute"))));
  }
  if (me.role === "host") {
    for (const d of open) {
      const text = el("input", {class: "ruling-text", placeholder: "the ruling"});
      parts.push(el("div", {class: "ruling", "data-resolves": d.line},
        el("p", {}, `${d.player} disputes the result (line ${d.line}): ${d.reason}`), text,
        el("button", {type: "button", class: "rule", onclick: () => text.value.trim()
          ? submit({type: "ruling", text: text.value.trim(), resolves: d.line}, false, null, null)
          : problem("write the ruling")}, "Rule")));
    }
  }
  if (state.finished) parts.push(el("div", {class: "buttons", id: "bgstats"},
    el("button", {type: "button", id: "bgstats-file", onclick: bgstatsFile}, "BG Stats file"),
    el("button", {type: "button", id: "bgstats-push", onclick: bgstatsPush}, "Open in BG Stats")));
  $("result").replaceChildren(...parts);
}

async function bgstatsOffer() {
  const got = await api(`/api/games/${encodeURIComponent(gameId)}/bgstats`);
  if (got.status !== 200) { problem(errorsText(got.body)); return null; }
  return got.body;
}

async function bgstatsFile() {
  // The play as a .bgsplay file, which BG Stats opens.
  const offer = await bgstatsOffer();
  if (!offer) return;
  const url = URL.createObjectURL(new Blob([JSON.stringify(offer.play, null, 2)], {type: "application/json"}));
  const a = el("a", {href: url, download: offer.filename});
  document.body.append(a);
  a.click();
  a.remove();
}

async function bgstatsPush() {
  // BG Stats' push link: on a phone with BG Stats, its import dialog.
  const offer = await bgstatsOffer();
  if (offer) location.href = offer.link;
}

// -- the turn flow and the table's state above the form ------------------------------------------------------------

function showTurnSteps() {
  // One tap per step of the turn flow ("End turn: Bob's turn"), and one to undo the last line this device may void.
  if (me.role === "spectator") return $("turn-steps").replaceChildren();
  const undoable = seen.slice().reverse().find((l) => l.type !== "game" && l.type !== "correction" && !l.voided_by);
  const buttons = forms.turn.map((step) => el("button", {type: "button", "data-step": step.id, onclick: () => takeStep(step)}, step.label));
  if (undoable && mayReplace(undoable)) {
    buttons.push(el("button", {type: "button", class: "undo", "data-undo": undoable.line, onclick: () => undo(undoable)},
                    `Undo line ${undoable.line}`));
  }
  $("turn-steps").replaceChildren(...buttons);
}

async function takeStep(step) {
  // One key for this tap: a step whose answer was lost is sent again with it and stored once. A step is not queued
  // while the host is away (what the turn offers then may differ): the device says so and the player taps again.
  const key = newKey();
  for (let attempt = 0; attempt < 5; attempt++) {
    let sent;
    try {
      sent = await api(`/api/games/${encodeURIComponent(gameId)}/turn`, {method: "POST", body: JSON.stringify({step: step.id, after: lines, key})});
    } catch (e) {
      sent = {status: 503};
    }
    if (sent.status >= 502 && sent.status <= 504) {
      if (attempt < 4) { await new Promise((done) => setTimeout(done, 1000 * (attempt + 1))); continue; }
      return $("verdict").replaceChildren(el("p", {class: "problem"},
        `${step.label}: not taken, the host cannot be reached. Tap it again when it is back (it is never stored twice).`));
    }
    if (sent.status === 201) {  // the stream brings its lines, as it brings every device's
      lines = Math.max(lines, sent.body.line);
      return $("verdict").replaceChildren(el("p", {class: "stored"}, `${step.label}: stored as line ${sent.body.line}.`));
    }
    if (sent.status === 409) {  // the game moved: the step is taken again only if it is still the one offered
      await moved();
      if (!forms.turn.some((s) => s.id === step.id && s.label === step.label)) return;
      continue;
    }
    if (sent.status === 200) return $("verdict").replaceChildren(el("p", {}, "Not stored: this breaks a rule."), ...findingsList(sent.body));
    return $("verdict").replaceChildren(el("p", {class: "problem"}, errorsText(sent.body)));
  }
}

async function undo(line) {
  // The reason is asked once a session: the next undo says the same.
  undoReason = undoReason || (window.prompt("Why is it undone?", "undone at the table") || "undone at the table");
  await submit({type: "correction", voids: line.line, reason: undoReason}, false, null, null);
}

let standing = null;
async function showState(state = standing) {
  // Whose turn, from what the page holds already; the table's facts and panels asked for only when opened (as the
  // report is): a folded state costs no request.
  standing = state;
  if (!state) return;
  const turn = state.finished ? `over${state.winner ? `: ${state.winner} wins` : ""}` : forms.active ? `${forms.active}'s turn`
    : forms.due ? `${forms.due} next` : "";
  $("state-summary").textContent = turn || "The table";
  $("table-link").href = `/games/${encodeURIComponent(gameId)}/table#token=${encodeURIComponent(token)}`;
  if (!$("state").open) return;
  const got = await api(`/api/games/${encodeURIComponent(gameId)}/screen`);
  if (got.status !== 200) return;
  const screen = got.body;
  const round = screen.round !== null && !screen.facts.some((f) => f.label === "Round") ? [{label: "Round", value: String(screen.round)}] : [];
  $("state-summary").textContent = [turn, ...round.concat(screen.facts).slice(0, 2).map((f) => `${f.label} ${f.value}`)].filter(Boolean).join(" · ");
  $("state-facts").replaceChildren(...round.concat(screen.facts).map((f) => el("span", {}, el("b", {}, f.label), f.value)));
  $("state-panels").replaceChildren(...screen.panels.map((p) => el("div", {}, el("h3", {}, p.title),
    el("table", {}, el("tr", {}, p.columns.map((c) => el("th", {}, c))), p.rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))))));
}

function mayReplace(line) {
  if (line.type === "game" || line.type === "correction" || line.voided_by) return false;
  return me.role === "host" || (me.role === "seat" && (!line.player || line.player === me.player));
}

function showHistory() {
  $("history").replaceChildren(...seen.slice().reverse().map((line) => el("li", {class: line.voided_by ? "voided" : "", "data-line": line.line},
    el("span", {class: "no"}, line.line),
    el("span", {class: "words"}, line.words || line.type, line.findings.map((f) => el("span", {class: `finding ${f.severity}`},
      el("span", {class: "rule"}, `${f.rule} `), f.message))),
    mayReplace(line) ? el("button", {type: "button", onclick: () => startReplace(line)}, "Replace") : "")));
}

function startReplace(line) {
  replacing = line.line;
  $("replacing").hidden = false;
  $("replacing").textContent = `Replacing line ${line.line}: ${line.words}. It stays in the history, struck through.`;
  $("cancel-replace").hidden = false;
  $("replace-why").hidden = false;
  $("record").textContent = "Replace";
  const {type, ...values} = line.entry;
  showForm(type, values);
  $("entry").scrollIntoView();
}

function withoutType(entry) {
  const {type, ...values} = entry;
  return values;
}

function endReplace() {
  replacing = null;
  $("replace-reason").value = "";
  $("replace-why").hidden = true;
  $("replacing").hidden = true;
  $("cancel-replace").hidden = true;
  $("record").textContent = "Record";
}

function findingsList(result) {
  return result.findings.map((f) => el("div", {class: `finding ${f.severity}`},
    el("span", {class: "rule"}, `${f.rule} `), `${f.severity}: line ${f.line}: ${f.message}`,
    result.rules && result.rules[f.rule] ? el("span", {class: "text"}, result.rules[f.rule]) : ""));
}

// Each entry carries a key made here: a resend of the same key gets the first answer, never a second line. An entry
// that cannot reach the host is queued (kept in this browser, shown as not yet stored) and sent again, in order,
// with its own key, when the connection is back.
const QUEUE = `gamelog-queue:${gameId}`;
let queue = [];
try { queue = JSON.parse(localStorage.getItem(QUEUE) || "[]"); } catch (e) { queue = []; }

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);  // (crypto.randomUUID needs HTTPS; a table's LAN server is plain HTTP)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function showQueue() {
  try { localStorage.setItem(QUEUE, JSON.stringify(queue)); } catch (e) { /* private mode: kept in this page */ }
  $("queued").hidden = queue.length === 0;
  $("queued").textContent = queue.length === 0 ? "" :
    `${queue.length} ${queue.length === 1 ? "entry" : "entries"} not yet stored: the host cannot be reached. ` +
    "Sent again as soon as it can (nothing is stored twice).";
}

// Send one entry; false when the host could not be reached (nothing known of it: it stays queued).
async function send(item) {
  const base = `/api/games/${encodeURIComponent(gameId)}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    let sent;
    try {
      sent = await api(`${base}/lines`, {method: "POST", body: JSON.stringify(
        {line: item.entry, after: lines, anyway: item.anyway, replaces: item.replaces,
         reason: item.reason, key: item.key})});
    } catch (e) {
      return false;  // the request or its answer was lost: the same key is sent again later
    }
    if (sent.status >= 502 && sent.status <= 504) return false;  // a proxy's word for a host it cannot reach
    if (sent.status === 409) {  // the game moved: read it again, and decide the entry again against it
      lines = sent.body.lines;
      $("verdict").replaceChildren(el("p", {}, `The game moved on (line ${lines}); checking the entry again.`));
      continue;
    }
    if (sent.status === 201) {  // the stream brings the line, as it brings every device's
      pending = null;
      lines = Math.max(lines, sent.body.line);
      if (replacing === item.replaces) endReplace();
      $("verdict").replaceChildren(el("p", {class: "stored"}, `Stored as line ${sent.body.line}.`), ...findingsList(sent.body));
      return true;
    }
    if (sent.status === 200) {
      // A stop ends Replace mode: "Record anyway" still replaces what was being replaced, any other entry voids nothing.
      const {entry, replaces, reason} = item;
      pending = {entry, replaces, reason};
      if (replaces) { endReplace(); showForm(entry.type, withoutType(entry)); }
      $("verdict").replaceChildren(el("p", {}, replaces ? `Not stored: this breaks a rule. Line ${replaces} stays as it was.`
                                                        : "Not stored: this breaks a rule."), ...findingsList(sent.body),
        el("button", {type: "button", class: "anyway", onclick: () => submit(pending.entry, true, pending.replaces, pending.reason)},
           replaces ? `Replace line ${replaces} anyway: the table agreed` : "Record anyway: the table agreed"));
      return true;
    }
    $("verdict").replaceChildren(el("p", {class: "problem"}, errorsText(sent.body)));
    return true;
  }
  return true;
}

async function submit(entry, anyway, replaces = replacing, reason = replacing ? $("replace-reason").value.trim() || null : null) {
  const item = {entry, anyway, replaces, reason, key: newKey()};
  if (queue.length === 0 && await send(item)) return;
  queue.push(item);  // after those queued before it: they are sent in the order they were made
  endReplace();
  showQueue();
  $("verdict").replaceChildren(el("p", {class: "problem"}, "Not yet stored: the host cannot be reached. " +
                                     "It is sent again as soon as it can."));
}

let resending = false;
async function resend() {
  if (resending) return;
  resending = true;
  try {
    while (queue.length && await send(queue[0])) {
      queue.shift();
      showQueue();
    }
  } finally {
    resending = false;
  }
}

async function follow() {
  const last = seen.length ? seen[seen.length - 1].line : 0;
  await followStream(`/api/games/${encodeURIComponent(gameId)}/stream`, token, last, {
    onEvents: async (burst) => { burst.forEach(take); await moved(); },
    onState: (state) => { $("live").textContent = state; },
    onDenied: () => problem("this link is not valid for this game"),
  });
}

let reportTimer = null, reportsAsked = 0;
function showReport() {
  if (!$("report-box").open) return;  // asked for when opened: a closed report costs no request
  clearTimeout(reportTimer);
  const asked = ++reportsAsked;
  reportTimer = setTimeout(async () => {  // one report for a burst of lines
    const got = await api(`/api/games/${encodeURIComponent(gameId)}/report?format=html`);
    if (got.status !== 200 || asked !== reportsAsked) return;  // a later line asked for a newer one
    if (reportUrl) URL.revokeObjectURL(reportUrl);
    reportUrl = URL.createObjectURL(new Blob([got.body], {type: "text/html"}));
    $("report").src = reportUrl;
  }, 300);
}

async function download() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/log`, {headers: {Authorization: `Bearer ${token}`}});
  if (response.status !== 200) return problem("the log cannot be downloaded from this device");
  const url = URL.createObjectURL(await response.blob());
  const a = el("a", {href: url, download: `${gameId}.jsonl`});
  document.body.append(a);
  a.click();
  a.remove();
}

async function table() {
  const who = await api(`/api/me?game=${encodeURIComponent(gameId)}`);
  if (who.status !== 200) return problem(errorsText(who.body));
  me = who.body;
  $("title").textContent = gameId;
  $("who").textContent = me.role === "seat" ? me.player : me.role;
  $("table").hidden = false;
  if (me.role === "spectator") $("entry").hidden = true;
  $("download").hidden = me.role === "seat";
  $("show-seats").hidden = me.role !== "host";
  $("download").onclick = download;
  $("show-seats").onclick = () => showSeats(gameId, $("table-seats"));
  $("kind").onchange = () => { endReplace(); showForm($("kind").value); };  // another kind is another entry
  $("report-box").ontoggle = showReport;
  $("state").ontoggle = () => showState();
  $("cancel-replace").onclick = () => { endReplace(); showForm($("kind").value); };
  $("entry").onsubmit = (event) => {
    event.preventDefault();
    let entry;
    try { entry = collect($("fields"), $("kind").value); } catch (e) { return problem(`not JSON: ${e.message}`); }
    submit(entry, false);
  };
  await refresh();
  showQueue();
  window.addEventListener("online", resend);
  setInterval(resend, 3000);
  resend();
  follow();
}

if (!token) problem("open this page through a join link: it carries this device's token");
else if (gameId) table();
else home();
