/** The console's one stylesheet: readable at phone width, visible focus, no web fonts. */
export const CONSOLE_STYLESHEET =
  `:root{color-scheme:light dark;--fg:#1b1f23;--bg:#fff;--muted:#59636e;--line:#d0d7de;` +
  `--accent:#0b57d0;--ok:#116329;--bad:#a40e26;--warn:#7d4e00}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#3d444d;` +
  `--accent:#79b8ff;--ok:#3fb950;--bad:#ff7b72;--warn:#d29922}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:anywhere}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
header p,header ul{margin:0}
.brand{font-weight:700}
nav ul{display:flex;gap:1rem;list-style:none;padding:0}
a{color:var(--accent)}
a[aria-current=page]{font-weight:700}
main{padding:1rem;max-width:70rem}
.skip{position:absolute;left:-100vw}
.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
caption{text-align:left;color:var(--muted);padding:.25rem 0}
th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid var(--line);overflow-wrap:break-word}
td{overflow-wrap:anywhere}
code{font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.message{border-left:4px solid var(--accent);padding:.25rem .75rem;margin:1rem 0}
.message.error{border-color:var(--bad)}
.note{border-left:4px solid var(--warn);padding:.25rem .75rem}
.agent-reason{margin:0 0 .25rem;padding-left:.75rem;border-left:3px solid var(--line);white-space:pre-wrap}
.status.granted h2,.badge.granted{color:var(--ok)}
.status.rejected h2,.status.expired h2,.badge.rejected,.badge.expired{color:var(--bad)}
.forms{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}
form{margin:0}
fieldset{border:1px solid var(--line);margin:0 0 1rem}
.field{display:flex;flex-direction:column;gap:.25rem;margin-bottom:.75rem}
.kind,small{color:var(--muted)}
.field.invalid input,.field.invalid select,.field.invalid textarea{border:2px solid var(--bad)}
.field-error{color:var(--bad);font-weight:600;margin:0}
.field textarea{width:100%;font:14px/1.4 ui-monospace,monospace}
input,select,textarea{max-width:100%;font:inherit;padding:.4rem;border:1px solid var(--line);` +
  `border-radius:4px;background:var(--bg);color:var(--fg)}
button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid var(--line);` +
  `background:var(--bg);color:var(--fg);cursor:pointer;min-height:44px}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--bg)}
button.danger{border-color:var(--bad);color:var(--bad)}
button.link{border:0;padding:0;min-height:0;color:var(--accent);text-decoration:underline}
form.inline{display:inline}
.live-status{color:var(--muted);font-size:.875rem}
table.arguments td,.value{white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate}
pre.value{font:14px/1.4 ui-monospace,monospace;margin:.25rem 0}
.escape{border:1px solid var(--warn);border-radius:3px;padding:0 .2em;color:var(--warn);font:.875em ui-monospace,monospace;` +
  `white-space:nowrap;unicode-bidi:isolate}
.warning{color:var(--warn);font-weight:600;margin:.25rem 0}
.long-value p{margin:.25rem 0}
.summary{overflow-wrap:anywhere;unicode-bidi:isolate}
@media (max-width:40rem){
table.approvals thead{position:absolute;left:-100vw}
table.approvals tr{display:block;border-bottom:1px solid var(--line);padding:.5rem 0}
table.approvals th,table.approvals td{display:block;border:0;padding:.1rem 0}
table.approvals td::before{content:attr(data-label) ": ";font-weight:600}
dl.facts{grid-template-columns:1fr}
}
`;
