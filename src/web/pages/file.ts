import type { FastifyInstance, FastifyReply } from "fastify";
import {
  hasPrivateSections,
  checkSectionName,
  contentHash,
  FILE_KINDS,
  type FileKind,
  isPrivateSection,
  MAX_PRIVATE_SECTIONS,
  type MemoryFile,
  type MemoryStore,
  parseSections,
  PERSON_ON_THE_WEB,
  type SectionDocument,
} from "../../memory/index.js";
import { countChars } from "../../lib/text.js";
import type { Say } from "../../lib/locale.js";
import { badSectionNameLine, secretWarningLine, writeRefusalLine } from "../../present/write-refusal.js";
import { signInPage } from "../auth.js";
import { banner, csrfField, html, page } from "../page.js";
import { perPerson, type PersonContext, type WebContext } from "../web-context.js";

// A Map: a plain object would answer /memory/constructor with an inherited property.
/** Each kind's page by its name (`daily` as Discord and the CLI say it); `today` stays for links made before. */
const KINDS = new Map<string, FileKind>([...FILE_KINDS.map((kind) => [kind, kind] as const), ["today", "daily"]]);
/** The most sections one form may send (a file's cap allows far fewer). */
const MAX_SECTIONS = 200;

/** What the editor shows and sends back: the text before the first heading, and each section. */
interface Draft {
  preamble: string;
  /**
   * `private`: kept out of public places (USER.md and MEMORY.md only), as /memory private sets it;
   * `wasPrivate`: as the form showed it (a form sent without the boxes changes no section's privacy).
   */
  sections: { name: string; body: string; remove: boolean; private: boolean; wasPrivate?: boolean }[];
  added: { name: string; body: string };
  /** Made from the file (not a form sent back): what each part adds to the file if left as it is, for the live counter. */
  original?: { preamble: string; sections: string[] };
}

const lf = (text: string) => text.replace(/\r\n?/g, "\n");

function draftOf(doc: SectionDocument, privateSections: readonly string[] | undefined): Draft {
  return {
    preamble: lf(doc.preamble).trim(),
    sections: doc.sections.map((s) => ({ name: s.name, body: lf(s.body).trim(), remove: false, private: isPrivateSection(s.name, privateSections) })),
    added: { name: "", body: "" },
    original: { preamble: doc.preamble, sections: doc.sections.map(untouched) },
  };
}

/**
 * The file the draft stands for. A section left as it was keeps its exact text (so saving an
 * untouched form writes nothing); one that changed is written as "## name", its text and a blank line.
 */
function textOf(draft: Draft, original: SectionDocument): string {
  const preamble = draft.preamble.trim();
  const keptPreamble = preamble === lf(original.preamble).trim() ? original.preamble : preamble ? `${preamble}\n\n` : "";
  let out = keptPreamble;
  draft.sections.forEach((s, i) => {
    if (s.remove) return;
    const was = original.sections[i];
    if (was && was.name === s.name.trim() && lf(was.body).trim() === s.body.trim()) {
      out += untouched(was);
      return;
    }
    out = separated(out) + `## ${s.name.trim()}\n${s.body.trim() ? `${s.body.trim()}\n` : ""}\n`;
  });
  if (draft.added.name.trim() || draft.added.body.trim()) out = separated(out) + `## ${draft.added.name.trim()}\n${draft.added.body.trim()}\n`;
  const trimmed = out.trimEnd();
  return trimmed === "" ? "" : `${trimmed}\n`;
}

/** What a section left as it was adds to the file: its exact text, ending a line. */
function untouched(was: SectionDocument["sections"][number]): string {
  // Its blank tail (trimEnd, not a pattern: /\n\s*$/ would retry at every line break).
  const endsLine = was.body === "" || was.body.slice(was.body.trimEnd().length).includes("\n");
  return was.heading + (endsLine ? was.body : `${was.body}\n`);
}

/** A blank line between what is there and a section that follows. */
function separated(text: string): string {
  if (text === "" || text.endsWith("\n\n")) return text;
  return text.endsWith("\n") ? `${text}\n` : `${text}\n\n`;
}

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === "string" ? lf(value) : "";
}

function readDraft(body: Record<string, unknown>): Draft | undefined {
  const count = Number(field(body, "sections"));
  if (!Number.isInteger(count) || count < 0 || count > MAX_SECTIONS) return undefined;
  const sections = Array.from({ length: count }, (_, i) => ({
    name: field(body, `name_${i}`),
    body: field(body, `body_${i}`),
    remove: field(body, `remove_${i}`) === "on",
    private: field(body, `private_${i}`) === "on",
    ...(field(body, `shown_private_${i}`) === "" ? {} : { wasPrivate: field(body, `shown_private_${i}`) === "1" }),
  }));
  return { preamble: field(body, "preamble"), sections, added: { name: field(body, "name_new"), body: field(body, "body_new") } };
}

/**
 * Marks a kept section private or not where the person changed its box (against what the form
 * showed: a form without the boxes changes nothing); "too-many" when the limit would refuse one
 * (checked before any is changed).
 */
function privacyChanges(memory: MemoryStore, draft: Draft): Draft["sections"] {
  const marked = memory.readSettings().privateSections ?? [];
  return draft.sections.filter(
    (s) =>
      !s.remove && s.name.trim() !== "" && s.wasPrivate !== undefined && s.private !== s.wasPrivate && s.private !== isPrivateSection(s.name.trim(), marked),
  );
}

async function savePrivacy(memory: MemoryStore, changes: Draft["sections"]): Promise<void> {
  // Made public first, so the limit counts what is left.
  for (const s of [...changes].sort((a, b) => Number(a.private) - Number(b.private))) await memory.markPrivate(s.name.trim(), s.private);
}

function tooManyPrivate(memory: MemoryStore, changes: Draft["sections"]): boolean {
  const marked = memory.readSettings().privateSections ?? [];
  const added = changes.filter((s) => s.private).length - changes.filter((s) => !s.private).length;
  return added > 0 && marked.length + added > MAX_PRIVATE_SECTIONS;
}

/** A section name as the tools take one (one line, no #); undefined when it is fine. */
function badName(name: string, say: Say): string | undefined {
  const checked = checkSectionName(name);
  return checked.ok ? undefined : badSectionNameLine(checked.error, say, name);
}

function editor(person: PersonContext, kind: string, file: MemoryFile, draft: Draft, shown: string, used: number): string {
  const { say, frame } = person;
  const f = frame();
  // Only the profile and the notes have private sections (what public threads leave out).
  const canBePrivate = hasPrivateSections(kind);
  const privacy = (s: Draft["sections"][number], i: number) =>
    canBePrivate
      ? html`<input type="hidden" name="shown_private_${i}" value="${s.private ? "1" : "0"}"><label class="inline"><input type="checkbox" name="private_${i}"${s.private ? " checked" : ""}> ${say("🔒 Private: kept out of public threads", "🔒 私密：公开子区里不会用到")}</label>`
      : "";
  const original = (i: number) => (draft.original?.sections[i] === undefined ? "" : html` data-original="${draft.original.sections[i]}"`);
  const sectionBox = (s: Draft["sections"][number], i: number) => html`<fieldset data-section id="s${i + 1}"!${original(i)}>
<legend>${canBePrivate && s.private ? say("🔒 ", "🔒 ") : ""}${s.name || say("(no name)", "（无名）")}</legend>
<label for="name_${i}">${say("Section name", "小节名")}</label>
<input type="text" id="name_${i}" name="name_${i}" value="${s.name}" maxlength="200">
<label for="body_${i}">${say("Text", "内容")}</label>
<textarea id="body_${i}" name="body_${i}" rows="${Math.min(20, Math.max(3, s.body.split("\n").length + 1))}">${s.body}</textarea>
!${privacy(s, i)}
<label class="inline"><input type="checkbox" name="remove_${i}"${s.remove ? " checked" : ""}> ${say("Remove this section", "删除这个小节")}</label>
</fieldset>`;
  const template = say("{used}/{cap} characters", "{used}/{cap} 字");
  return html`<form method="post" action="/memory/${kind}" data-cap="${file.cap}">
!${csrfField(f)}
<input type="hidden" name="shown" value="${shown}">
<input type="hidden" name="sections" value="${draft.sections.length}">
<p><output id="counter" class="counter${used > file.cap ? " over" : ""}" aria-live="polite" data-template="${template}">${template.replace("{used}", String(used)).replace("{cap}", String(file.cap))}</output></p>
<fieldset id="s0">
<legend>${say("Before the first section", "第一个小节之前")}</legend>
<label for="preamble" class="muted">${say("Text at the top of the file (optional)", "文件开头的文字（可不填）")}</label>
<textarea id="preamble" name="preamble" rows="3"!${draft.original ? html` data-original="${draft.original.preamble}"` : ""}>${draft.preamble}</textarea>
</fieldset>
!${draft.sections.map(sectionBox)}
<fieldset data-section id="new">
<legend>${say("Add a section", "添加小节")}</legend>
<label for="name_new">${say("Section name", "小节名")}</label>
<input type="text" id="name_new" name="name_new" value="${draft.added.name}" maxlength="200">
<label for="body_new">${say("Text", "内容")}</label>
<textarea id="body_new" name="body_new" rows="3">${draft.added.body}</textarea>
</fieldset>
<button type="submit">${say("Save", "保存")}</button>
</form>`;
}

function sendEditor(
  reply: FastifyReply,
  person: PersonContext,
  kind: string,
  file: MemoryFile,
  draft: Draft,
  shown: string,
  text: string,
  lines: { error?: string; notice?: string },
  status = 200,
): FastifyReply {
  const { say } = person;
  const intro = html`<p class="muted">${say(`Cap ${file.cap} characters. Saving checks what /memory edit checks; it applies from your next conversation, and History can undo it.`, `上限 ${file.cap} 字。保存时的检查与 /memory edit 相同；从下一次对话起生效，可在“记录”里撤销。`)}</p>`;
  // The log's own mark, said in words where it may appear.
  const marks =
    kind === "today" || kind === "daily"
      ? html`<p class="muted">${say("🌐 after an entry's title: it comes from a public thread, and public threads of that server may use it.", "条目标题后的 🌐：它来自公开子区，该服务器的公开子区可以用到它。")}</p>`
      : "";
  const body = banner("error", lines.error) + banner("notice", lines.notice) + intro + marks + editor(person, kind, file, draft, shown, countChars(text));
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(page(person.frame(kind === "today" || kind === "daily" ? "today" : (kind as "soul" | "user" | "memory")), file.label, body));
}

export function registerFilePages(app: FastifyInstance, ctx: WebContext): void {
  app.get<{ Params: { kind: string }; Querystring: { saved?: string } }>("/memory/:kind", async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const kind = KINDS.get(request.params.kind);
    if (!kind) return reply.callNotFound();
    const file = person.memory.file(kind, ctx.now());
    const text = await file.read();
    const notice = request.query.saved === "1" ? person.say("Saved. It applies from your next conversation.", "已保存。从下一次对话开始生效。") : undefined;
    return sendEditor(
      reply,
      person,
      request.params.kind,
      file,
      draftOf(parseSections(text), person.memory.readSettings().privateSections),
      contentHash(text),
      text,
      { ...(notice ? { notice } : {}) },
    );
  });

  app.post<{ Params: { kind: string }; Body: Record<string, unknown> }>(
    "/memory/:kind",
    { preHandler: app.csrfProtection, config: perPerson(30) },
    async (request, reply) => {
      const person = await ctx.person(request, reply);
      if (!person) return signInPage(ctx, request, reply, 401);
      const { say, memory } = person;
      const kind = KINDS.get(request.params.kind);
      if (!kind) return reply.callNotFound();
      const file = memory.file(kind, ctx.now());
      const form = (request.body ?? {}) as Record<string, unknown>;
      const draft = readDraft(form);
      const shown = field(form, "shown");
      if (!draft || !/^[0-9a-f]{16}$/.test(shown))
        return ctx.linePage(
          reply,
          400,
          person.frame(),
          say("Refused", "已拒绝"),
          say("The page could not read that form: reload it and try again.", "页面无法读取这个表单：请刷新后重试。"),
        );
      const current = await file.read();
      // The draft is rebuilt on the file as it was shown; a file changed meanwhile is refused by the write (ifUnchanged).
      const parsed = parseSections(current);
      const original = contentHash(current) === shown ? parsed : { preamble: "", sections: [] };
      const named = [
        ...draft.sections.filter((s) => !s.remove).map((s) => s.name),
        ...(draft.added.name.trim() || draft.added.body.trim() ? [draft.added.name] : []),
      ];
      const nameProblem = named.map((n) => badName(n.trim(), say)).find(Boolean);
      const text = textOf(draft, original);
      if (nameProblem) return sendEditor(reply, person, request.params.kind, file, draft, shown, text, { error: nameProblem }, 422);
      // Which sections are private is a setting, saved whether or not the text changed, and only once the text is.
      const privacy = hasPrivateSections(kind) ? privacyChanges(memory, draft) : [];
      if (tooManyPrivate(memory, privacy)) {
        return sendEditor(
          reply,
          person,
          request.params.kind,
          file,
          draft,
          shown,
          text,
          {
            error: say(
              `${MAX_PRIVATE_SECTIONS} sections are private already: make one public first. Nothing was changed.`,
              `已有 ${MAX_PRIVATE_SECTIONS} 个私密小节：请先把其中一个改回公开。没有做任何改动。`,
            ),
          },
          422,
        );
      }
      // An untouched form (or one that only moved blank lines) writes nothing.
      if (original === parsed && text.trimEnd() === current.trimEnd()) {
        await savePrivacy(memory, privacy);
        return reply.redirect(`/memory/${request.params.kind}?saved=1`, 303);
      }
      const result = await file.write(text, PERSON_ON_THE_WEB, { ifUnchanged: shown });
      if (!result.ok) {
        // The person's typed text stays in the form, so nothing they wrote is lost.
        const line = `${writeRefusalLine(result, file.label, say)} ${say("Nothing was changed; your text is still below.", "没有做任何改动；你写的内容还在下面。")}`;
        const latest = await file.read();
        return sendEditor(
          reply,
          person,
          request.params.kind,
          file,
          draft,
          result.refusal === "changed" ? contentHash(latest) : shown,
          text,
          { error: line },
          result.refusal === "changed" ? 409 : 422,
        );
      }
      await savePrivacy(memory, privacy);
      const warning = result.value.secret ? secretWarningLine(result.value.secret, say, { en: "take it out here", zh: "请在这里删除" }) : undefined;
      if (warning) {
        const saved = await file.read();
        return sendEditor(
          reply,
          person,
          request.params.kind,
          file,
          draftOf(parseSections(saved), memory.readSettings().privateSections),
          contentHash(saved),
          saved,
          { notice: say("Saved. It applies from your next conversation.", "已保存。从下一次对话开始生效。"), error: warning },
        );
      }
      return reply.redirect(`/memory/${request.params.kind}?saved=1`, 303);
    },
  );
}
