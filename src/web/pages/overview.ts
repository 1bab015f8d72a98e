import type { FastifyInstance } from "fastify";
import { FILE_TABLE, kindOfLabel, memoryOverview } from "../../memory/index.js";
import { historyLine } from "../../present/history-lines.js";
import { settingsLine } from "../../present/settings-lines.js";
import { storageLine } from "../../present/storage-lines.js";
import { signInPage } from "../auth.js";
import { html, page } from "../page.js";
import type { WebContext } from "../web-context.js";

/** The page of each file kind, from its label. */
function fileHref(label: string): string {
  return FILE_TABLE[kindOfLabel(label) ?? "daily"].page;
}

export function registerOverview(app: FastifyInstance, ctx: WebContext): void {
  app.get("/", async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply);
    const { memory, say } = person;
    const overview = await memoryOverview(memory, ctx.now());
    const history = overview.recentChanges;
    const files = overview.files.map((f) => {
      const percent = f.cap > 0 ? Math.round((f.used / f.cap) * 100) : 0;
      return html`<li><h2><a href="${fileHref(f.label)}">${f.label}</a></h2>
<meter min="0" max="${f.cap}" value="${Math.min(f.used, f.cap)}" aria-label="${say(`${f.label}: ${percent}% full`, `${f.label}：已用 ${percent}%`)}"></meter>
<p>${say(`${f.used}/${f.cap} chars (${percent}%)`, `${f.used}/${f.cap} 字（${percent}%）`)}${f.used > f.cap ? say(" ⚠️ over the cap: only the part that fits is read", " ⚠️ 超出上限：只读取放得下的部分") : ""} · ${say(`${f.sections} section${f.sections === 1 ? "" : "s"}`, `${f.sections} 个小节`)}</p></li>`;
    });
    const changes = history.length
      ? html`<ul>!${history.map((e) => html`<li>${historyLine(e, overview.zone, say)}</li>`)}</ul><p><a href="/history">${say("All changes", "全部改动")}</a></p>`
      : html`<p class="muted">${say("No changes yet.", "还没有改动。")}</p>`;
    const { storage: usage } = overview;
    const storage = html`<p id="storage">${say("Storage", "存储空间")}: ${storageLine(usage, say)}${usage.quotaBytes !== undefined && usage.usedBytes >= usage.quotaBytes ? say(" ⚠️ full: imports, new conversations and files are not kept; delete conversations you no longer need.", " ⚠️ 已满：导入、新对话和文件都不会保存；请删除不再需要的对话。") : ""}</p>`;
    const body = html`<ul class="files">!${files}</ul>
<h2>${say("Last changes", "最近的改动")}</h2>
!${changes}
<h2>${say("Kept", "保存的内容")}</h2>
<p><a href="/conversations">${say(`${overview.conversations} conversations, word for word`, `${overview.conversations} 段对话（逐字保存）`)}</a> · ${say(`${overview.archivedLogs} archived daily logs`, `${overview.archivedLogs} 份归档的每日日志`)}</p>
!${storage}
<h2>${say("Settings", "设置")}</h2>
<p>${settingsLine(memory.readSettings(), overview.zone, say)} · <a href="/settings">${say("Change", "修改")}</a></p>`;
    return reply.type("text/html; charset=utf-8").send(page(person.frame("overview"), say("Your memory", "你的记忆"), body));
  });
}
