import { diffLines } from "diff";
import type { FastifyInstance } from "fastify";
import { countChars } from "../../lib/text.js";
import type { Say } from "../../lib/locale.js";
import { localDate, localTime } from "../../lib/time.js";
import { type JournalEntry, PERSON_ON_THE_WEB, type SectionChange, undoableOf, undoChange, type UndoResult, WHOLE_FILE_LABELS } from "../../memory/index.js";
import { describeChange, describeEntry, meaningfulChanges, who } from "../../present/history-lines.js";
import { signInPage } from "../auth.js";
import { banner, csrfField, html, page } from "../page.js";
import { perPerson, type PersonContext, type WebContext } from "../web-context.js";
import { changedSinceHead, editedByHandLine, undoThoseTooQuestion } from "../../present/undo-lines.js";

const PER_PAGE = 20;
/**
 * A line diff costs (lines × edits): a section longer than this (an import of a long log), or one
 * whose diff needs more edits, is described instead, and an entry shows at most DIFFS_PER_ENTRY
 * diffs, so no page of history holds up anyone for long.
 */
const DIFF_CHARS = 4_000;
const MAX_EDITS = 200;
const DIFFS_PER_ENTRY = 10;

/** The filter's files: the table's one-file kinds, then the logs. */
const FILES: readonly string[] = [...WHOLE_FILE_LABELS, "daily"];
const WHO = ["model", "you", "tidy-up", "import", "system"] as const;
type Who = (typeof WHO)[number];

function whoKind(entry: JournalEntry): Who {
  if (entry.op === "import") return "import";
  if (entry.op === "tidy-up" || (entry.by.kind === "model" && entry.by.session === "tidy-up")) return "tidy-up";
  if (entry.by.kind === "model") return "model";
  if (entry.by.kind === "person") return "you";
  return "system";
}

function inFile(change: SectionChange, file: string): boolean {
  return file === "daily" ? change.file.startsWith("daily/") : change.file === file;
}

function whoLabel(kind: Who, say: Say): string {
  return {
    model: say("AgentKit in a conversation", "对话中的助手"),
    you: say("you", "你"),
    "tidy-up": say("the nightly tidy-up", "夜间整理"),
    import: say("an import", "导入"),
    system: say("AgentKit itself", "助手自身"),
  }[kind];
}

/** One section's change as an inline diff: removed lines struck, added lines marked. */
function diffOf(change: SectionChange, say: Say): string {
  const before = change.before ?? "";
  const after = change.after ?? "";
  if (countChars(before) + countChars(after) > DIFF_CHARS)
    return html`<p>${describeChange(change, say)} <small>${say("(too long to show line by line)", "（太长，不逐行显示）")}</small></p>`;
  const parts = diffLines(before, after, { maxEditLength: MAX_EDITS });
  if (!parts) return html`<p>${describeChange(change, say)} <small>${say("(too many changes to show line by line)", "（改动太多，不逐行显示）")}</small></p>`;
  const label = change.section ? `${change.file} › ${change.section}` : change.file;
  return html`<p><strong>${label}</strong>${change.before === null ? say(" (new section)", "（新小节）") : change.after === null ? say(" (removed)", "（已删除）") : ""}</p>
<div class="diff">!${parts.map((p) => (p.added ? html`<ins><span class="sr-only">${say("added: ", "新增：")}</span>${p.value}</ins>` : p.removed ? html`<del><span class="sr-only">${say("removed: ", "删除：")}</span>${p.value}</del>` : html`<span>${p.value}</span>`))}</div>`;
}

function entryItem(person: PersonContext, entry: JournalEntry, canUndo: boolean, zone: string): string {
  const { say } = person;
  const at = new Date(entry.at);
  const changes = meaningfulChanges(entry);
  const undo = canUndo
    ? html`<form method="post" action="/history/${entry.id}/undo">!${csrfField(person.frame())}<button type="submit" class="quiet">${say("Undo", "撤销")}</button></form>`
    : "";
  return html`<li id="e-${entry.id}"><p><time datetime="${entry.at}">${localDate(at, zone)} ${localTime(at, zone)}</time> · ${who(entry, say)} · ${describeEntry(entry, say)}</p>
!${changes.slice(0, DIFFS_PER_ENTRY).map((c) => diffOf(c, say))}!${changes.length > DIFFS_PER_ENTRY ? html`<p>${say(`…and ${changes.length - DIFFS_PER_ENTRY} more sections`, `……另有 ${changes.length - DIFFS_PER_ENTRY} 个小节`)}</p>` : ""}
!${undo}</li>`;
}

function undoOutcome(person: PersonContext, result: UndoResult, entries: Map<string, JournalEntry>, id: string): { status: number; body: string } {
  const { say } = person;
  const line = (e: JournalEntry | undefined) => (e ? describeEntry(e, say) : id);
  const back = html`<p><a href="/history">${say("Back to history", "返回记录")}</a></p>`;
  if (result.ok) {
    const undone = (result.entry.undoes ?? []).map((u) => html`<li>${line(entries.get(u))}</li>`);
    return {
      status: 200,
      body: html`!${banner("notice", say("↩ Undone. It applies from your next conversation.", "↩ 已撤销。从下一次对话开始生效。"))}<ul>!${undone}</ul>!${back}`,
    };
  }
  switch (result.reason) {
    case "not-found":
      return { status: 404, body: banner("error", say("That change is not in your history.", "这处改动不在你的记录中。")) + back };
    case "already-undone":
      return {
        status: 409,
        body:
          banner("error", say(`That change was already undone: ${line(entries.get(result.id))}`, `这处改动已经撤销过了：${line(entries.get(result.id))}`)) +
          back,
      };
    case "not-undoable":
      return { status: 409, body: banner("error", say("Forgotten text cannot be brought back.", "已忘记的内容无法恢复。")) + back };
    case "changed-since": {
      if (result.later.length === 0) {
        return {
          status: 409,
          body: banner("error", editedByHandLine(line(entries.get(result.id)), say)) + back,
        };
      }
      // The same choice as Discord's Undo these too / Cancel.
      const later = result.later.slice(0, 50).map((e) => html`<li>${describeEntry(e, say)}</li>`);
      return {
        status: 409,
        body: html`!${banner("error", changedSinceHead(say))}
<ul>!${later}</ul>
<p>${undoThoseTooQuestion(line(entries.get(result.id)), say)}</p>
<form method="post" action="/history/${result.id}/undo">!${csrfField(person.frame())}<input type="hidden" name="chain" value="1">
<button type="submit" class="danger">${say("Undo these too", "一并撤销")}</button> <a href="/history">${say("Cancel", "取消")}</a></form>`,
      };
    }
  }
}

export function registerHistoryPages(app: FastifyInstance, ctx: WebContext): void {
  app.get<{ Querystring: { file?: string; who?: string; page?: string } }>("/history", async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory } = person;
    const file = FILES.includes(request.query.file ?? "") ? request.query.file! : "";
    const whoFilter = (WHO as readonly string[]).includes(request.query.who ?? "") ? (request.query.who as Who) : undefined;
    const entries = await memory.history();
    const chosen = entries.filter((e) => (!file || e.changes.some((c) => inFile(c, file))) && (!whoFilter || whoKind(e) === whoFilter));
    const pages = Math.max(1, Math.ceil(chosen.length / PER_PAGE));
    const at = Math.min(pages - 1, Math.max(0, Number.parseInt(request.query.page ?? "0", 10) || 0));
    const canUndo = new Set(undoableOf(entries).map((e) => e.id));
    const zone = memory.timeZone().zone;
    const shown = chosen.slice(at * PER_PAGE, (at + 1) * PER_PAGE).map((e) => entryItem(person, e, canUndo.has(e.id), zone));
    const option = (value: string, label: string, selected: string | undefined) =>
      html`<option value="${value}"${value === (selected ?? "") ? " selected" : ""}>${label}</option>`;
    const query = (p: number) => `?${new URLSearchParams({ ...(file ? { file } : {}), ...(whoFilter ? { who: whoFilter } : {}), page: String(p) })}`;
    const body = html`<form class="filters" method="get" action="/history">
<label>${say("File", "文件")} <select name="file">!${option("", say("All files", "全部文件"), file)}!${FILES.map((f) => option(f, f === "daily" ? say("Daily logs", "每日日志") : f, file))}</select></label>
<label>${say("Who", "谁")} <select name="who">!${option("", say("Anyone", "所有人"), whoFilter)}!${WHO.map((w) => option(w, whoLabel(w, say), whoFilter))}</select></label>
<button type="submit" class="quiet">${say("Show", "显示")}</button></form>
<p class="muted">${say(`${chosen.length} change${chosen.length === 1 ? "" : "s"}, newest first.`, `共 ${chosen.length} 处改动，最新在前。`)}</p>
!${shown.length ? html`<ol class="entries">!${shown}</ol>` : html`<p>${say("No changes yet.", "还没有改动。")}</p>`}
<nav class="pager" aria-label="${say("Pages", "分页")}">!${at > 0 ? html`<a href="/history${query(at - 1)}">${say("◀ Newer", "◀ 较新")}</a>` : ""}<span>${say(`Page ${at + 1} of ${pages}`, `第 ${at + 1}/${pages} 页`)}</span>!${at + 1 < pages ? html`<a href="/history${query(at + 1)}">${say("Older ▶", "较早 ▶")}</a>` : ""}</nav>`;
    return reply.type("text/html; charset=utf-8").send(page(person.frame("history"), say("History", "记录"), body));
  });

  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>(
    "/history/:id/undo",
    { preHandler: app.csrfProtection, config: perPerson(30) },
    async (request, reply) => {
      const person = await ctx.person(request, reply);
      if (!person) return signInPage(ctx, request, reply, 401);
      const { memory, say } = person;
      const id = request.params.id.slice(0, 100);
      const entries = new Map((await memory.history()).map((e) => [e.id, e]));
      // Another person's change id is simply not in this person's history.
      if (!entries.has(id)) return reply.callNotFound();
      const chain = (request.body as Record<string, unknown> | undefined)?.chain === "1";
      const result = await undoChange(memory, id, PERSON_ON_THE_WEB.by, { withLater: chain, now: ctx.now() });
      const after = new Map((await memory.history()).map((e) => [e.id, e]));
      const { status, body } = undoOutcome(person, result, after, id);
      return reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(page(person.frame("history"), say("Undo", "撤销"), body));
    },
  );
}
