// A game's stream of lines (GET /api/games/{id}/stream): the seat page (app.js) and the table screen (table.js)
// both follow it. Server-sent events read through fetch, so that the token goes in a header; resumed with
// Last-Event-ID from the last line seen when the connection drops.
"use strict";

// Follow `url` from line `last` on: each burst of events is handed to onEvents (their data, decoded) at once;
// onState says "live" or "reconnecting"; onDenied is called, and following stops, when the token is refused.
async function followStream(url, token, last, {onEvents, onState, onDenied}) {
  for (;;) {
    try {
      const response = await fetch(url, {headers: {Authorization: `Bearer ${token}`, "Last-Event-ID": String(last)}});
      if (response.status === 401 || response.status === 403) return onDenied();
      onState("live");
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        buffer += value;
        const burst = [];
        let cut;
        // An event ends at a blank line; the server ends its lines with CRLF (LF and CR alone are allowed too).
        while ((cut = buffer.match(/\r\n\r\n|\n\n|\r\r/))) {
          const block = buffer.slice(0, cut.index).split(/\r\n|\r|\n/);
          buffer = buffer.slice(cut.index + cut[0].length);
          const id = block.find((l) => l.startsWith("id:"));
          const data = block.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
          if (id && data) { burst.push(JSON.parse(data)); last = Number(id.slice(3).trim()); }
        }
        if (burst.length) await onEvents(burst);  // one update for the lines of a burst
      }
    } catch (e) { /* the connection dropped: catch up from the last line seen */ }
    onState("reconnecting");
    await new Promise((r) => setTimeout(r, 1000));
  }
}
