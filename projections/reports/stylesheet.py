"""The stylesheet the HTML pages share: the report's, and the reconciliation's (its own page, and the section of
the report that holds it).

Its own module, below the renderers that inline it, so that none of them imports another for it. A table wider than
its box scrolls in it (``.scroll``), and the box shows where there is more: a shadow at each edge that has columns
beyond it (backgrounds that scroll with the box, covered by white ones that scroll with the table: the cue goes as
the edge is reached).
"""

from __future__ import annotations

SCROLL_CUE = """.scroll{overflow-x:auto;max-width:100%;background:linear-gradient(to right,#fff 4px,rgba(255,255,255,0)) left/1em 100% no-repeat local,
linear-gradient(to left,#fff 4px,rgba(255,255,255,0)) right/1em 100% no-repeat local,
linear-gradient(to right,rgba(0,0,0,.3),rgba(0,0,0,0)) left/1em 100% no-repeat scroll,
linear-gradient(to left,rgba(0,0,0,.3),rgba(0,0,0,0)) right/1em 100% no-repeat scroll}"""
"""A box (``.scroll``) whose table may be wider than it: it scrolls sideways, a shadow at each edge that has more
(the statistics page's boxes too). The white covers are narrow and solid only at their last 4 px, so that even a few
pixels more show the shadow, and the edge reached shows none. The shadows run the box's whole height (not an
ellipse about its middle), so a table taller than the screen shows its cue wherever it is scrolled to."""

CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;padding:0 1.5em;color:#222;max-width:80em;line-height:1.35}
h1{font-size:1.6em;overflow-wrap:anywhere}h1,h2,h3{line-height:1.2}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}
td:first-child,th:first-child{text-align:left}.log td,.log th{text-align:left;vertical-align:top}
""" + SCROLL_CUE + """
.scroll>table{margin:0}td,th{overflow-wrap:normal;word-break:normal}
.declared p,.declared li{overflow-wrap:anywhere}
.sources td:last-child{text-align:left}
.violation{background:#fde2e2}.warning{background:#fff4d6}.unverifiable{background:#e4f0fb}
.void{text-decoration:line-through;color:#888}.rule{font-family:monospace;font-weight:bold;white-space:nowrap}
svg.chart{display:block;width:100%;height:auto;margin:.3em 0 1em}svg.chart text{fill:#333}
svg .grid{stroke:#e4e4e4}svg .axis{stroke:#888}svg text.title{fill:#555}
svg .goal{stroke:#444;stroke-dasharray:7 5}svg .goal-label{font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:4px}
svg text.end{font-weight:bold}svg .marker{cursor:pointer}svg .marker:hover{stroke:#000;stroke-width:2}
svg .cursor{stroke:#000;stroke-width:1.5;fill:none;pointer-events:none}
svg text.count{font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:3px}svg text.none{fill:#aaa;font-weight:normal}
svg.chart.narrow,div.narrow,ul.legend.narrow{display:none}svg.chart.score.narrow{max-width:36em}
svg.chart.strip.narrow{width:auto;max-width:none;display:block}
.legend{list-style:none;padding:0;margin:-.5em 0 1em;display:flex;flex-wrap:wrap;gap:.2em 1em}
.legend svg{vertical-align:-2px}.legend span{font-weight:bold}
.controls{position:sticky;top:0;z-index:1;background:#fff;padding:.5em 0;display:flex;flex-wrap:wrap;gap:.4em;
align-items:center;border-bottom:1px solid #ddd}.controls input[type=range]{flex:1 1 12em;min-width:10em;height:2em}
.controls button{font-size:1em;min-width:2.4em;min-height:2.2em}.controls label{white-space:nowrap}
.now{display:grid;grid-template-columns:minmax(16em,1fr) 3fr;gap:1.5em;align-items:start}.now>*{min-width:0}
.now .findings{padding-left:1.2em}.now .findings li{padding:.1em .3em}.quiet{color:#777}
#state-now th{text-align:left;font-weight:normal;color:#555;vertical-align:top;background:#fff}
#state-now th[scope=row]{position:sticky;left:0}#state-now .cards{display:none}
.card h4{margin:.6em 0 .2em}.card table{width:100%}.card th{width:35%}td.text,th.text{text-align:left}td.text{min-width:12em}#state-now td{text-align:left;vertical-align:top;min-width:6em}
.swatch{vertical-align:-1px;margin-right:.25em;outline:1px solid #555}
.dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.35em;vertical-align:-.05em;
outline:1px solid #555}.won{font-weight:bold}.side{display:block;color:#555;font-size:.9em;padding-left:1.15em}
.found{padding-left:1.6em}.found li{padding:.1em .3em;margin:.1em 0}.found a{font-weight:bold}
tr.current td{outline:2px solid #000;outline-offset:-2px}tr[data-position]{cursor:pointer}
@media screen and (max-width:50em){
body{margin:.75em auto;padding:0 .75em}h1{font-size:1.3em}
body.report{display:flex;flex-direction:column}body.report>.aside{order:1}body.report>.logs{order:2}
svg.chart.wide{display:none}svg.chart.score.narrow,div.narrow{display:block}ul.legend.narrow{display:flex}
.now{grid-template-columns:1fr;gap:.5em}.controls button{min-width:2.75em;min-height:2.75em}
#state-now td,#state-now th{padding:.15em .3em}#state-now .players-box{display:none}#state-now .cards{display:block}
table.log,table.log tbody{display:block}table.log tr:first-child{display:none}
table.log tr{display:grid;grid-template-columns:auto 1fr;gap:0 .6em;padding:.3em .2em;border-bottom:1px solid #ccc}
table.log td{border:none;padding:0;overflow-wrap:break-word}table.log td:nth-child(n+3){grid-column:1/-1}
table.log td:first-child{font-weight:bold}table.log td:empty{display:none}table.log tr.current{outline:2px solid #000;outline-offset:-2px}
table.log tr.current td{outline:none}}
@media print{
.controls,.now,svg.chart.narrow,div.narrow,ul.legend.narrow{display:none!important}svg.chart.wide{display:block!important}
body{max-width:none;margin:0;padding:0;font-size:10pt}.scroll{overflow:visible}
tr{break-inside:avoid}h2,h3{break-after:avoid}svg.chart{break-inside:avoid}a{color:inherit;text-decoration:none}
svg .cursor{display:none}
tr.current td{outline:none}}
"""
