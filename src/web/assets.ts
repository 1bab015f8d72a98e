import { createHash } from "node:crypto";

/**
 * The page's one stylesheet and one script, served from /assets/ under a name with their hash
 * (cached for a year; a new build is a new name). Kept as text here so `npm run build` carries
 * them into dist/ with everything else, and the Content-Security-Policy needs no inline code.
 */
const CSS = `
:root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fff; --muted: #5b5b66; --line: #d5d5de; --accent: #3f4fd8; --bad: #b3261e; --good: #1b6e3a; --ins: #dff5e3; --del: #fbe3e1; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececf1; --bg: #17171b; --muted: #a9a9b6; --line: #3a3a44; --accent: #9ea8ff; --bad: #ffb4ab; --good: #8fd9a8; --ins: #1f3b28; --del: #4a2322; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji"; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
header { border-bottom: 1px solid var(--line); padding: .5rem 1rem; display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; }
header nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem .9rem; }
header nav a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
header form { margin-left: auto; }
.brand { font-weight: 700; margin-right: .5rem; }
main { max-width: 56rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.muted, small { color: var(--muted); }
.notice { border-left: 4px solid var(--good); padding: .5rem .75rem; margin: 0 0 1rem; }
.error { border-left: 4px solid var(--bad); padding: .5rem .75rem; margin: 0 0 1rem; }
.files { list-style: none; padding: 0; display: grid; gap: .75rem; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); }
.files li { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; }
meter { width: 100%; height: 1rem; }
fieldset { border: 1px solid var(--line); border-radius: .5rem; margin: 0 0 1rem; padding: .75rem; }
legend { font-weight: 600; padding: 0 .25rem; }
label { display: block; margin: .25rem 0; }
input[type="text"], input[type="search"], select, textarea { width: 100%; font: inherit; padding: .4rem; border: 1px solid var(--line); border-radius: .35rem; background: var(--bg); color: var(--fg); }
textarea { min-height: 6rem; resize: vertical; font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: .9rem; }
.inline { display: inline-flex; gap: .4rem; align-items: center; }
.inline input { width: auto; }
button { font: inherit; padding: .4rem .9rem; border-radius: .35rem; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
button.quiet { background: transparent; color: var(--accent); }
button.danger { border-color: var(--bad); background: var(--bad); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.counter.over { color: var(--bad); font-weight: 700; }
.entries { list-style: none; padding: 0; }
.entries > li { border-bottom: 1px solid var(--line); padding: .75rem 0; }
.diff { margin: .35rem 0; padding: .4rem; border: 1px solid var(--line); border-radius: .35rem; white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, Menlo, monospace; font-size: .85rem; }
.diff ins { background: var(--ins); text-decoration: none; }
.diff del { background: var(--del); }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
.filters label { margin: 0; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.conversation { overflow-wrap: anywhere; }
.conversation h2 { font-size: 1rem; }
.hit { margin: 0 0 1rem; }
.hit blockquote { margin: .25rem 0 0 0; padding-left: .75rem; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.danger-zone { border-color: var(--bad); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
@media (max-width: 40rem) { header form { margin-left: 0; } main { padding: .75rem; } }
`;

/**
 * The editor's live counter: the file as it would be saved (pages/file.ts textOf), counted in code
 * points like the server. A section left as it was counts as the file has it (data-original, its
 * exact text); one edited as "## name", its text and a blank line. Untouched, it shows what the
 * overview and Discord show.
 */
const JS = `
(function () {
  var form = document.querySelector("form[data-cap]");
  if (!form) return;
  var cap = Number(form.getAttribute("data-cap"));
  var out = document.getElementById("counter");
  var chars = function (s) { return Array.from(s).length; };
  var lf = function (s) { return s.replace(/\\r\\n?/g, "\\n"); };
  var separated = function (t) { return t === "" || t.slice(-2) === "\\n\\n" ? t : t.slice(-1) === "\\n" ? t + "\\n" : t + "\\n\\n"; };
  // Left as it is, the form saves nothing: the file's own count (the server's, as the overview shows).
  var asShown = out.textContent;
  var count = function () {
    var text = "";
    var changed = false;
    var pre = form.querySelector("[name=preamble]");
    if (pre) {
      var preText = lf(pre.value).trim();
      var preOriginal = pre.getAttribute("data-original");
      var preSame = preOriginal !== null && preText === lf(pre.defaultValue).trim();
      changed = changed || !preSame;
      text = preSame ? preOriginal : preText ? preText + "\\n\\n" : "";
    }
    form.querySelectorAll("[data-section]").forEach(function (box) {
      var removed = box.querySelector("input[name^=remove_]");
      if (removed && removed.checked) { changed = true; return; }
      var nameBox = box.querySelector("input[type=text]");
      var bodyBox = box.querySelector("textarea");
      var name = nameBox.value.trim();
      var body = lf(bodyBox.value).trim();
      var original = box.getAttribute("data-original");
      if (original !== null && name === nameBox.defaultValue.trim() && body === lf(bodyBox.defaultValue).trim()) { text += original; return; }
      if (box.id === "new") { if (name || body) { changed = true; text = separated(text) + "## " + name + "\\n" + body + "\\n"; } return; }
      changed = true;
      text = separated(text) + "## " + name + "\\n" + (body ? body + "\\n" : "") + "\\n";
    });
    if (!changed) { out.textContent = asShown; return; }
    var kept = text.trimEnd();
    var used = kept ? chars(kept) + 1 : 0;
    out.textContent = out.getAttribute("data-template").replace("{used}", used).replace("{cap}", cap);
    out.classList.toggle("over", used > cap);
  };
  form.addEventListener("input", count);
  form.addEventListener("change", count);
  count();
})();
`;

export interface Asset {
  path: string;
  type: string;
  body: string;
}

const hashed = (name: string, ext: string, type: string, body: string): Asset => ({
  path: `/assets/${name}.${createHash("sha256").update(body).digest("hex").slice(0, 10)}.${ext}`,
  type,
  body,
});

export const STYLESHEET = hashed("app", "css", "text/css; charset=utf-8", CSS.trim());
export const SCRIPT = hashed("app", "js", "text/javascript; charset=utf-8", JS.trim());

/** The tab's icon: a letter on the page's accent colour, drawn without a font or an image file. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f5d8a"/><path d="M10 24 16 8l6 16M12.3 18h7.4" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
export const FAVICON = hashed("icon", "svg", "image/svg+xml", ICON);
