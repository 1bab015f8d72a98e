import type { FastifyInstance } from "fastify";
import { cutChars } from "../../lib/text.js";
import { FILE_TABLE, isWholeFileKind, type RecallHit } from "../../memory/index.js";
import { emptySearchLine, hitSource, rangeHeading, rangeLabel, readSearchRange } from "../../present/search-range.js";
import { signInPage } from "../auth.js";
import { banner, html, page } from "../page.js";
import { perPerson, type WebContext } from "../web-context.js";

const RESULTS = 20;
const TEXT_CHARS = 600;

/** Where a hit is on this page: its message in the conversation, or its section's file. */
function hrefOf(hit: RecallHit): string | undefined {
  const name = hit.file.startsWith("conversations/") ? hit.file.slice("conversations/".length) : undefined;
  if (name) return `/conversations/${encodeURIComponent(name)}#m${hit.ord}`;
  // A memory file's section on its page (the table's); a log's entry has no link.
  return isWholeFileKind(hit.source) ? `${FILE_TABLE[hit.source].page}#s${hit.ord}` : undefined;
}

export function registerSearchPage(app: FastifyInstance, ctx: WebContext): void {
  app.get<{ Querystring: { q?: string; since?: string; until?: string } }>("/search", { config: perPerson(60) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory } = person;
    const q = String(request.query.q ?? "").slice(0, 200);
    const since = String(request.query.since ?? "").slice(0, 20);
    const until = String(request.query.until ?? "").slice(0, 20);
    const form = html`<form method="get" action="/search" role="search">
<label for="q">${say("Words to look for", "要找的词")}</label><input type="search" id="q" name="q" value="${q}" maxlength="200">
<div class="filters"><label>${say("From (YYYY-MM-DD or YYYY-MM)", "从（YYYY-MM-DD 或 YYYY-MM）")} <input type="text" name="since" value="${since}" maxlength="10"></label>
<label>${say("Until", "到")} <input type="text" name="until" value="${until}" maxlength="10"></label>
<button type="submit">${say("Search", "搜索")}</button></div></form>`;
    let results = "";
    if (q.trim() || since.trim() || until.trim()) {
      const reading = readSearchRange(since, until, say);
      if (!reading.ok) results = banner("error", reading.line);
      else {
        const label = rangeLabel(reading.range, say);
        if (!q.trim() && !label) results = banner("error", emptySearchLine(say, say("a From or Until", "“从”或“到”")));
        else {
          const hits = await memory.search(q, { limit: RESULTS, ...reading.range });
          const heading = q.trim() ? say(`“${q.trim()}”`, `“${q.trim()}”`) + (label ? ` · ${label}` : "") : (rangeHeading(reading.range, say) ?? "");
          const items = hits.map((hit) => {
            const href = hrefOf(hit);
            const where = hitSource(hit, say);
            return html`<li class="hit"><strong>${hit.date}</strong> · !${href ? html`<a href="${href}">${where}</a>` : html`<span>${where}</span>`}<blockquote>${cutChars(hit.text, TEXT_CHARS)}</blockquote></li>`;
          });
          results = html`<h2>${heading}</h2><p class="muted">${say(`${hits.length} result${hits.length === 1 ? "" : "s"}`, `${hits.length} 条结果`)}</p>!${items.length ? html`<ol>!${items}</ol>` : html`<p>${say("Nothing found.", "没有找到。")}</p>`}`;
        }
      }
    }
    return reply.type("text/html; charset=utf-8").send(page(person.frame("search"), say("Search", "搜索"), form + results));
  });
}
