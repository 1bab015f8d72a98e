import type { FastifyInstance } from "fastify";
import { countChars } from "../../lib/text.js";
import { SERVER_NOTES_CAP } from "../../memory/index.js";
import { signInPage } from "../auth.js";
import { serversTalkedIn } from "../conversation-heads.js";
import { banner, html, page } from "../page.js";
import { perPerson, type WebContext } from "../web-context.js";

/** At most this many servers are asked about for one page: each is a question to Discord. */
const SHOWN = 25;

interface Shown {
  guildId: string;
  name: string | undefined;
  notes: string;
}

/**
 * The notes of the servers a person talks in (read-only: moderators write them in Discord). A
 * server is named by the person's own conversation files, which an import can write, so its notes
 * are shown only while Discord says the person is a member.
 */
export function registerServersPage(app: FastifyInstance, ctx: WebContext): void {
  app.get("/servers", { config: perPerson(30) }, async (request, reply) => {
    const person = await ctx.person(request, reply);
    if (!person) return signInPage(ctx, request, reply, 401);
    const { say, memory, userId } = person;
    const title = say("Your servers' notes", "你所在服务器的笔记");
    const lookups = ctx.discordLookups;
    if (!lookups) {
      const line = say(
        "This page cannot ask Discord which servers you are in (the bot's DISCORD_TOKEN is not set for it), so it shows no server's notes. Type /server-notes view in a server.",
        "这个页面无法向 Discord 确认你在哪些服务器里（没有为它设置机器人的 DISCORD_TOKEN），所以不显示服务器笔记。请在服务器里输入 /server-notes view。",
      );
      return reply.type("text/html; charset=utf-8").send(page(person.frame("servers"), title, banner("notice", line)));
    }
    // The most recent servers first, until SHOWN have notes (an import may name hundreds).
    const withNotes: { guildId: string; notes: string }[] = [];
    for (const guildId of await serversTalkedIn(memory.conversationsDir)) {
      const notes = await ctx.engine.serverNotesOf(guildId).notes.read();
      if (notes.trim() !== "") withNotes.push({ guildId, notes });
      if (withNotes.length === SHOWN) break;
    }
    let unanswered = false;
    const checked = await Promise.all(
      withNotes.map(async (s): Promise<Shown | undefined> => {
        const roles = await lookups.memberRoles(s.guildId, userId).catch(() => {
          unanswered = true;
          return null;
        });
        return roles === null ? undefined : { ...s, name: await lookups.guildName(s.guildId) };
      }),
    );
    const shown = checked.filter((s): s is Shown => s !== undefined);
    const sections = shown.map(
      (s) => html`<section><h2>${s.name ?? say(`Server ${s.guildId}`, `服务器 ${s.guildId}`)}</h2>
<p class="muted">${say(`${countChars(s.notes)}/${SERVER_NOTES_CAP} chars · every conversation in this server sees them`, `${countChars(s.notes)}/${SERVER_NOTES_CAP} 字 · 这个服务器里的每段对话都能看到`)}</p>
<pre>${s.notes}</pre></section>`,
    );
    const body = html`<p>${say("What the bot knows about the servers you talk to it in, shared by everyone there. Members with Manage Server (or the server-notes role) change them with /server-notes in Discord; the bot only suggests changes.", "机器人对你与它交谈的服务器的了解，由服务器里的所有人共享。拥有“管理服务器”权限（或服务器笔记角色）的成员在 Discord 里用 /server-notes 修改；机器人只会提出建议。")}</p>
!${unanswered ? banner("error", say("Discord did not answer for some servers just now: reload in a minute.", "Discord 暂时没有回应部分服务器：请过一分钟再刷新。")) : ""}
!${sections.length ? sections.join("\n") : html`<p class="muted">${say("No server's notes apply to you yet: they appear here for the servers you talk to the bot in.", "还没有适用于你的服务器笔记：你在哪个服务器里和机器人交谈，那个服务器的笔记就会显示在这里。")}</p>`}`;
    return reply.type("text/html; charset=utf-8").send(page(person.frame("servers"), title, body));
  });
}
