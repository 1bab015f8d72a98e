import type { FastifyInstance, FastifyReply } from "fastify";
import { isValidTimeZone } from "../../lib/time.js";
import {
  WHOLE_FILE_LABELS,
  ASK_BEFORE_SAVING,
  BUNDLE_NAME,
  cancelImport,
  confirmImport,
  exportBundle,
  holdInFlight,
  IMPORT_LIMITS,
  importableName,
  oneImportAtATime,
  previewImport,
  type Settings,
  TIDY_NOTICE,
  TIDY_UP,
} from "../../memory/index.js";
import { importBusyLine, importForgottenLine, importRefusal, importReport, type ImportReport } from "../../present/import-preview.js";
import { describeAskBeforeSaving, profileNames, unknownTimeZoneLine } from "../../present/settings-lines.js";
import { chinese, english } from "../../lib/locale.js";
import { describeTidyNotice, describeTidyUp } from "../../present/tidy-lines.js";
import { signInPage } from "../auth.js";
import { banner, csrfField, html, page } from "../page.js";
import { perPerson, type PersonContext, type WebContext } from "../web-context.js";

const LANGUAGES = ["", "en-US", "zh-CN"] as const;

function settingsForm(person: PersonContext, settings: Settings, zone: string, lines: { notice?: string; error?: string } = {}): string {
  const { say } = person;
  const f = person.frame();
  const option = (value: string, label: string, current: string) => html`<option value="${value}"${value === current ? " selected" : ""}>${label}</option>`;
  const ask = settings.askBeforeSaving ?? "off";
  const tidy = settings.tidyUp ?? "on";
  const notice = settings.tidyNotice ?? "reply";
  const language = settings.locale ? (/^zh/i.test(settings.locale) ? "zh-CN" : "en-US") : "";
  return html`!${banner("notice", lines.notice)}!${banner("error", lines.error)}
<form method="post" action="/settings">!${csrfField(f)}
<label for="ask">${say("Ask before saving", "保存前询问")}</label>
<select id="ask" name="askBeforeSaving">!${ASK_BEFORE_SAVING.map((v) => option(v, { off: say("Off", "关闭"), profile: say(`For ${profileNames("and", english)}`, `对${profileNames("and", chinese)}`), all: say("For everything", "对所有内容") }[v], ask))}</select>
<p class="muted">${describeAskBeforeSaving(ask, say)}</p>
<label for="tidy">${say("Nightly tidy-up", "夜间整理")}</label>
<select id="tidy" name="tidyUp">!${TIDY_UP.map((v) => option(v, { on: say("On", "开启"), ask: say("Ask first", "先问我"), off: say("Off", "关闭") }[v], tidy))}</select>
<p class="muted">${describeTidyUp(tidy, say)}</p>
<label for="notice">${say("Tell me about a tidy-up", "整理之后告诉我")}</label>
<select id="notice" name="tidyNotice">!${TIDY_NOTICE.map((v) => option(v, { reply: say("Under the next answer", "在下一条回答下"), dm: say("In a direct message", "私信") }[v], notice))}</select>
<p class="muted">${describeTidyNotice(notice, say)}</p>
<label for="timezone">${say("Time zone (IANA name, e.g. Europe/Berlin)", "时区（IANA 名称，例如 Asia/Shanghai）")}</label>
<input type="text" id="timezone" name="timezone" value="${settings.timezone ?? zone}" maxlength="64" autocomplete="off">
<label for="language">${say("Language", "语言")}</label>
<select id="language" name="locale">!${LANGUAGES.map((v) => option(v, { "": say("From Discord or the browser", "跟随 Discord 或浏览器"), "en-US": "English", "zh-CN": "中文" }[v], language))}</select>
<p><button type="submit">${say("Save settings", "保存设置")}</button></p>
</form>
<h2>${say("Export", "导出")}</h2>
<p><a href="/export" download="${BUNDLE_NAME}">${say(`Download everything (${BUNDLE_NAME})`, `下载全部（${BUNDLE_NAME}）`)}</a></p>
<h2>${say("Import", "导入")}</h2>
<form method="post" action="/import?_csrf=${f.csrf ?? ""}" enctype="multipart/form-data">
<label for="upload">${say(`An export (agentkit-memory.json) or one ${WHOLE_FILE_LABELS.join(" / ")}; you see what would change before anything is written.`, `导出文件（agentkit-memory.json）或单个 ${WHOLE_FILE_LABELS.join(" / ")}；写入之前你会先看到会改动什么。`)}</label>
<input type="file" id="upload" name="file" accept=".json,.md,application/json,text/markdown" required>
<p><button type="submit" class="quiet">${say("Preview the import", "预览导入")}</button></p>
</form>
<h2>${say("Sign out everywhere", "在所有地方退出登录")}</h2>
<form method="post" action="/auth/sign-out-everywhere">!${csrfField(f)}<button type="submit" class="quiet">${say("Sign out in every browser", "在所有浏览器中退出登录")}</button></form>
<h2>${say("Delete everything", "全部删除")}</h2>
<form method="post" action="/delete-all" class="danger-zone">!${csrfField(f)}
<label for="confirm">${say("Everything I remember about you goes, for good: type DELETE to confirm.", "我记得的关于你的一切都会被永久删除：输入 DELETE 确认。")}</label>
<input type="text" id="confirm" name="confirm" autocomplete="off" maxlength="20">
<p><button type="submit" class="danger">${say("Delete everything", "全部删除")}</button></p>
</form>`;
}

function reportHtml(report: ImportReport): string {
  // The report is worded for Discord (bold with **); here it is plain text.
  return html`<pre>${[report.header, ...report.files].join("\n").replaceAll("**", "")}</pre>`;
}

function sendSettings(reply: FastifyReply, person: PersonContext, lines: { notice?: string; error?: string } = {}, status = 200): FastifyReply {
  const body = settingsForm(person, person.memory.readSettings(), person.memory.timeZone().zone, lines);
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(page(person.frame("settings"), person.say("Settings", "设置"), body));
}

export function registerSettingsPages(app: FastifyInstance, ctx: WebContext): void {
  app.get("/settings", async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    return sendSettings(reply, person);
  });

  app.post<{ Body: Record<string, unknown> }>("/settings", { preHandler: app.csrfProtection, config: perPerson(30) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory } = person;
    const form = (request.body ?? {}) as Record<string, unknown>;
    const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string).trim() : "");
    const ask = text("askBeforeSaving");
    const tidy = text("tidyUp");
    const notice = text("tidyNotice");
    const zone = text("timezone").slice(0, 64);
    const locale = text("locale");
    const known =
      (ASK_BEFORE_SAVING as readonly string[]).includes(ask) &&
      (TIDY_UP as readonly string[]).includes(tidy) &&
      (TIDY_NOTICE as readonly string[]).includes(notice) &&
      (LANGUAGES as readonly string[]).includes(locale);
    if (!known) return sendSettings(reply, person, { error: say("Choose one of the offered values.", "请从给出的选项中选择。") }, 422);
    if (zone && !isValidTimeZone(zone)) {
      return sendSettings(reply, person, { error: unknownTimeZoneLine(zone, say) }, 422);
    }
    const patch: Settings = {
      askBeforeSaving: ask as Settings["askBeforeSaving"],
      tidyUp: tidy as Settings["tidyUp"],
      tidyNotice: notice as Settings["tidyNotice"],
      ...(zone ? { timezone: zone } : {}),
      // "" is the browser's or Discord's language: the setting goes.
      locale: locale || undefined,
    };
    await memory.saveSettings(patch);
    const saved = await ctx.person(request, reply);
    return sendSettings(reply, saved ?? person, {
      notice: (saved ?? person).say("Saved. It applies from now on, in every conversation.", "已保存。从现在起对所有对话生效。"),
    });
  });

  app.get("/export", { config: perPerson(10) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const text = JSON.stringify(await exportBundle(person.memory, ctx.now()), null, 2);
    // Counted as the person's until the response is done: an import meanwhile is measured with it.
    // A browser gone while the bundle was built has closed already: nothing to hold for it.
    const release = holdInFlight(person.memory, Buffer.byteLength(text));
    if (reply.raw.destroyed || request.raw.socket.destroyed) release();
    else reply.raw.once("close", release);
    return reply.type("application/json; charset=utf-8").header("content-disposition", `attachment; filename="${BUNDLE_NAME}"`).send(text);
  });

  app.post<{ Querystring: { _csrf?: string } }>("/import", { preHandler: app.csrfProtection, config: perPerson(10) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory } = person;
    const show = (status: number, body: string) =>
      reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(page(person.frame("settings"), say("Import", "导入"), body));
    const upload = await request.file();
    if (!upload) return sendSettings(reply, person, { error: say("Choose a file to import.", "请选择要导入的文件。") }, 422);
    const name = upload.filename.slice(0, 200);
    if (!importableName(name)) {
      upload.file.resume();
      return sendSettings(reply, person, { error: importRefusal(name, { kind: "unknown-name" }, say) }, 422);
    }
    const bytes = await upload.toBuffer().catch(() => undefined);
    if (!bytes) return sendSettings(reply, person, { error: importRefusal(name, { kind: "too-large", limit: IMPORT_LIMITS.bytes }, say) }, 413);
    return oneImportAtATime(
      memory,
      () => sendSettings(reply, person, { error: importBusyLine(say) }, 429),
      async () => {
        const preview = await previewImport(memory, name, bytes, { keep: true });
        if (preview.kind === "refused") {
          return sendSettings(reply, person, { error: importRefusal(name, preview.refusal, say) }, preview.refusal.kind === "storage-full" ? 413 : 422);
        }
        const report = reportHtml(importReport(name, preview.plan, "preview", say));
        if (preview.kind === "nothing") return show(200, report + banner("notice", say("Nothing to import.", "没有需要导入的内容。")));
        const token = preview.token!;
        const f = person.frame();
        return show(
          200,
          html`!${report}<p class="muted">${say("Memory files and logs are replaced as a whole; History can undo the import.", "记忆文件和日志会被整体替换；可在“记录”里撤销这次导入。")}</p>
<form method="post" action="/import/${token}">!${csrfField(f)}<button type="submit" name="answer" value="import">${say("Import", "导入")}</button> <button type="submit" name="answer" value="cancel" class="quiet">${say("Cancel", "取消")}</button></form>`,
        );
      },
    );
  });

  app.post<{ Params: { token: string }; Body: Record<string, unknown> }>(
    "/import/:token",
    { preHandler: app.csrfProtection, config: perPerson(10) },
    async (request, reply) => {
      const person = await ctx.person(request, reply);
      if (!person) return signInPage(ctx, request, reply, 401);
      const { say, memory } = person;
      const token = request.params.token.slice(0, 100);
      const show = (status: number, body: string) =>
        reply
          .code(status)
          .type("text/html; charset=utf-8")
          .send(page(person.frame("settings"), say("Import", "导入"), body));
      if ((request.body as Record<string, unknown> | undefined)?.answer !== "import") {
        await cancelImport(memory, token);
        return show(200, banner("notice", say("Nothing was imported.", "没有导入任何内容。")));
      }
      return oneImportAtATime(
        memory,
        () => show(429, banner("error", importBusyLine(say))),
        async () => {
          const result = await confirmImport(memory, token, ctx.now());
          if (result.kind === "gone")
            return show(410, banner("error", say("That import is out of date: choose the file again.", "这次导入已过期：请重新选择文件。")));
          if (result.kind === "refused")
            return show(result.refusal.kind === "storage-full" ? 413 : 422, banner("error", importRefusal(result.name, result.refusal, say)));
          if (result.kind === "forgotten") return show(409, banner("error", importForgottenLine(say)));
          const { name, plan, wrote } = result;
          const line = wrote
            ? say("Imported. It applies from your next conversation; History can undo it.", "已导入。从下一次对话开始生效；可在“记录”里撤销。")
            : say("Nothing was changed: your memory already held all of it.", "没有做任何改动：你的记忆里已经有这些内容。");
          return show(200, banner("notice", line) + reportHtml(importReport(name, plan, "done", say)));
        },
      );
    },
  );

  app.post<{ Body: Record<string, unknown> }>("/delete-all", { preHandler: app.csrfProtection, config: perPerson(5) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say } = person;
    if ((request.body as Record<string, unknown> | undefined)?.confirm !== "DELETE") {
      return sendSettings(
        reply,
        person,
        { error: say("Type DELETE (in capitals) to delete everything. Nothing was deleted.", "请输入 DELETE（大写）以全部删除。没有删除任何内容。") },
        422,
      );
    }
    await ctx.engine.deleteEverything(person.userId);
    // Every sign-in of theirs ends with it: nothing of them is left to show.
    await ctx.signOutEverywhere(person.userId);
    await request.session.destroy();
    const { say: visitor, lang } = ctx.visitorSay(request);
    return ctx.linePage(
      reply,
      200,
      { say: visitor, lang },
      visitor("Deleted", "已删除"),
      say("Everything I remembered about you is deleted.", "我记得的关于你的一切都已删除。"),
    );
  });
}
