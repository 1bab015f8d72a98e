import type { FastifyInstance } from "fastify";
import { fromLine } from "../../present/provenance-lines.js";
import MarkdownIt from "markdown-it";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { TimeSlices } from "../../lib/time-slices.js";
import { dateOfConversation, parseConversation } from "../../memory/index.js";
import { signInPage } from "../auth.js";
import { conversationNames, head } from "../conversation-heads.js";
import { banner, csrfField, html, page } from "../page.js";
import { perPerson, type PersonContext, type WebContext } from "../web-context.js";

const PER_PAGE = 50;
/** A conversation longer than this is shown in part (its file is in the export whole). */
const SHOWN_CHARS = 400_000;
/**
 * Markdown is rendered for this much of a message, the rest shown as plain text: markdown-it's
 * link and image parsing turns quadratic on runs of `![` (0.8 MB of them took 4 s).
 */
const MARKDOWN_CHARS = 10_000;
/**
 * What markdown-it costs, about: each `[` scans ahead for its `]`, each `*`, `_` or backtick for its
 * partner, so a text's length times its marks (10,000 characters of `![` took 90 ms). A message
 * over MESSAGE_COST is shown as plain text (a few ms at most to render otherwise); so is every
 * message once the page has rendered PAGE_COST; between messages the loop is handed back.
 */
const MESSAGE_COST = 400_000;
/** The longest the page's rendering holds the loop before handing it back (TimeSlices' default is 8). */
const SLICE_MS = 2;
const PAGE_COST = 10_000_000;
const MARKS = new Set(["[", "*", "_", "`"]);

function markdownCost(text: string): number {
  let marks = 0;
  for (let i = 0; i < text.length; i++) if (MARKS.has(text[i]!)) marks++;
  return text.length * (1 + marks);
}

/**
 * Messages are Markdown as people and the model wrote them. markdown-it with `html: false`
 * escapes every tag (`<img onerror>` is shown as text) and refuses javascript:, vbscript: and
 * file: links; images are shown as links (below), and the Content-Security-Policy loads none from elsewhere.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true });
// Links leave the page without telling it where they came from.
markdown.renderer.rules.link_open = (tokens, i, options, _env, self) => {
  tokens[i]!.attrSet("rel", "noopener noreferrer nofollow");
  return self.renderToken(tokens, i, options);
};
// An image is a link to it: a transcript holds guests' and the model's words, and an image in them
// would make the owner's signed-in browser fetch its address (`![](/export)`, `![](/search?q=…)`)
// every time the page is read.
markdown.renderer.rules.image = (tokens, i, options, env, self) => {
  const token = tokens[i]!;
  const src = String(token.attrGet("src") ?? "");
  const alt = String(self.renderInlineAsText(token.children ?? [], options, env)) || src;
  const escapeHtml = markdown.utils.escapeHtml;
  return `<a href="${escapeHtml(src)}" rel="noopener noreferrer nofollow">🖼 ${escapeHtml(alt)}</a>`;
};

/** Where a conversation happened, from its `- discord:` line: a DM or a server. */
function placeOf(discord: string | undefined, place: string, say: PersonContext["say"]): string {
  if (discord === "@me") return say("direct messages", "私信");
  return place || say("a Discord thread", "Discord 帖子");
}

function confirmDelete(person: PersonContext, name: string, title: string): string {
  const { say } = person;
  return html`<p>${say(`Delete “${title}” for good? The conversation goes from your memory, from search and from the stored sessions; it cannot be undone. The day's log keeps its short summary.`, `要永久删除“${title}”吗？这段对话会从你的记忆、搜索和保存的会话中删除，无法撤销。当天的日志会保留它的简短摘要。`)}</p>
<form method="post" action="/conversations/${name}/delete">!${csrfField(person.frame())}<button type="submit" class="danger">${say("Delete", "删除")}</button> <a href="/conversations/${name}">${say("Cancel", "取消")}</a></form>`;
}

export function registerConversationPages(app: FastifyInstance, ctx: WebContext): void {
  app.get<{ Querystring: { page?: string; deleted?: string } }>("/conversations", async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory } = person;
    const names = await conversationNames(memory.conversationsDir);
    const pages = Math.max(1, Math.ceil(names.length / PER_PAGE));
    const at = Math.min(pages - 1, Math.max(0, Number.parseInt(request.query.page ?? "0", 10) || 0));
    const rows = await Promise.all(
      names.slice(at * PER_PAGE, (at + 1) * PER_PAGE).map(async (name) => {
        const log = parseConversation(await head(join(memory.conversationsDir, name)).catch(() => ""));
        return html`<li><a href="/conversations/${name}">${log.title || name}</a> <small>· ${dateOfConversation(name)} · ${placeOf(log.discord, log.place, say)}</small></li>`;
      }),
    );
    const notice = request.query.deleted === "1" ? banner("notice", say("Deleted.", "已删除。")) : "";
    const body = html`!${notice}<p class="muted">${say(`${names.length} conversations, newest first, each word for word.`, `共 ${names.length} 段对话，最新在前，逐字保存。`)}</p>
!${rows.length ? html`<ul>!${rows}</ul>` : html`<p>${say("No conversations yet: they are kept here when a conversation ends.", "还没有对话：对话结束后会保存在这里。")}</p>`}
<nav class="pager" aria-label="${say("Pages", "分页")}">!${at > 0 ? html`<a href="/conversations?page=${at - 1}">${say("◀ Newer", "◀ 较新")}</a>` : ""}<span>${say(`Page ${at + 1} of ${pages}`, `第 ${at + 1}/${pages} 页`)}</span>!${at + 1 < pages ? html`<a href="/conversations?page=${at + 1}">${say("Older ▶", "较早 ▶")}</a>` : ""}</nav>`;
    return reply.type("text/html; charset=utf-8").send(page(person.frame("conversations"), say("Conversations", "对话"), body));
  });

  // The costliest page to render (up to 400,000 characters of Markdown): fewer a minute.
  app.get<{ Params: { name: string } }>("/conversations/:name", { config: perPerson(30) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory } = person;
    const { name } = request.params;
    // Only a name of this person's conversations/: anything else (another person's, a path) is not found.
    if (!(await memory.hasConversation(name))) return reply.callNotFound();
    const text = await readFile(join(memory.conversationsDir, name), "utf8").catch(() => "");
    const cut = text.length > SHOWN_CHARS;
    const log = parseConversation(cut ? text.slice(0, SHOWN_CHARS) : text);
    // Whose words each part is comes from the file's fields: a guest is 👤, a replied-to message or a file is marked as not the speaker's.
    // Short slices: this page is the heaviest, and other people's turns wait behind each one.
    const slices = new TimeSlices(SLICE_MS);
    let spent = 0;
    const rendered = async (text: string) => {
      await slices.pause();
      const shown = text.slice(0, MARKDOWN_CHARS);
      const cost = markdownCost(shown);
      const asMarkdown = cost <= MESSAGE_COST && spent + cost <= PAGE_COST;
      if (asMarkdown) spent += cost;
      const rest = text.length > MARKDOWN_CHARS ? html`<pre>${text.slice(MARKDOWN_CHARS)}</pre>` : "";
      return asMarkdown ? html`!${markdown.render(shown)}!${rest}` : html`<pre>${text}</pre>`;
    };
    const bodyOf = async (m: (typeof log.messages)[number]) => {
      const parts: string[] = [];
      for (const part of m.parts ?? [{ origin: "assistant" as const, text: m.text }]) {
        parts.push(
          part.origin === "typed" || part.origin === "assistant" || part.origin === "unknown"
            ? await rendered(part.text)
            : html`<blockquote class="part"><p><small>${fromLine(part, say)}</small></p>!${await rendered(part.text)}</blockquote>`,
        );
      }
      return parts.join("");
    };
    const messages: string[] = [];
    for (const [i, m] of log.messages.entries()) {
      messages.push(
        html`<article id="m${i}"><h2>${m.speaker === "assistant" ? "🤖" : m.guest ? "👤" : "🧑"} ${m.name}!${m.guest ? html` <small>${say("(invited, not you)", "（受邀者，不是你）")}</small>` : ""}</h2>!${await bodyOf(m)}!${m.saved ? html`<p><small>${m.saved}</small></p>` : ""}</article>`,
      );
    }
    const body = html`<p class="muted">${placeOf(log.discord, log.place, say)} · ${say("opened", "开始")} ${log.opened} · ${say("closed", "结束")} ${log.closed}</p>
!${cut ? banner("notice", say("This conversation is long: its beginning is shown; the export has it whole.", "这段对话很长：这里只显示开头，导出文件中有全文。")) : ""}
<div class="conversation">!${messages}</div>
<p><a href="/conversations/${name}/delete">${say("Delete this conversation…", "删除这段对话……")}</a></p>`;
    return reply.type("text/html; charset=utf-8").send(page(person.frame("conversations"), log.title || name, body));
  });

  app.get<{ Params: { name: string } }>("/conversations/:name/delete", async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { name } = request.params;
    if (!(await person.memory.hasConversation(name))) return reply.callNotFound();
    const log = parseConversation(await head(join(person.memory.conversationsDir, name)));
    return reply
      .type("text/html; charset=utf-8")
      .send(page(person.frame("conversations"), person.say("Delete a conversation", "删除对话"), confirmDelete(person, name, log.title || name)));
  });

  app.post<{ Params: { name: string } }>("/conversations/:name/delete", { preHandler: app.csrfProtection, config: perPerson(30) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const deleted = await ctx.engine.deleteConversation(person.userId, request.params.name);
    if (!deleted) return reply.callNotFound();
    return reply.redirect("/conversations?deleted=1", 303);
  });
}
