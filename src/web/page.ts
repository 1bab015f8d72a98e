import { html } from "ghtml";
import type { Say } from "../lib/locale.js";
import { FAVICON, SCRIPT, STYLESHEET } from "./assets.js";
import { FILE_TABLE, WHOLE_FILE_KINDS, type WholeFileKind } from "../memory/index.js";

/**
 * HTML is written with ghtml's `html` tag, which escapes every interpolated value. A fragment
 * already built by `html` goes in raw with `!${…}`; nothing else ever does (review rule: `!${`
 * only takes the result of `html` or of a function of this folder that returns one).
 */
export { html };

/** What every page of a signed-in person needs: the words, the CSRF token of their forms, where they are. */
export interface Frame {
  say: Say;
  lang: "en" | "zh-CN";
  /** Set when someone is signed in: their forms' token. */
  csrf?: string;
  /** The nav item of this page. */
  current?: NavItem;
}

export type NavItem = "overview" | WholeFileKind | "today" | "history" | "conversations" | "search" | "servers" | "settings";

const NAV: { item: NavItem; href: string; en: string; zh: string }[] = [
  { item: "overview", href: "/", en: "Overview", zh: "概览" },
  // The memory files, from the table.
  ...WHOLE_FILE_KINDS.map((kind) => ({ item: kind, href: FILE_TABLE[kind].page, ...FILE_TABLE[kind].short })),
  { item: "today", href: "/memory/daily", en: "Today", zh: "今日" },
  { item: "history", href: "/history", en: "History", zh: "记录" },
  { item: "conversations", href: "/conversations", en: "Conversations", zh: "对话" },
  { item: "search", href: "/search", en: "Search", zh: "搜索" },
  { item: "servers", href: "/servers", en: "Servers", zh: "服务器" },
  { item: "settings", href: "/settings", en: "Settings", zh: "设置" },
];

/** A form's hidden CSRF field. */
export function csrfField(frame: Frame): string {
  return html`<input type="hidden" name="_csrf" value="${frame.csrf ?? ""}">`;
}

/** A whole page: head, the navigation of a signed-in person, and `body` (already HTML). */
export function page(frame: Frame, title: string, body: string): string {
  const { say } = frame;
  const nav = frame.csrf
    ? html`<nav aria-label="${say("Memory", "记忆")}"><ul>!${NAV.map(
        (n) => html`<li><a href="${n.href}" aria-current="${n.item === frame.current ? "page" : "false"}">${say(n.en, n.zh)}</a></li>`,
      )}</ul></nav>
      <form method="post" action="/auth/sign-out">!${csrfField(frame)}<button class="quiet" type="submit">${say("Sign out", "退出登录")}</button></form>`
    : "";
  return `<!doctype html>${html`<html lang="${frame.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · AgentKit</title>
<link rel="icon" href="${FAVICON.path}" type="image/svg+xml">
<link rel="stylesheet" href="${STYLESHEET.path}">
<script src="${SCRIPT.path}" defer></script>
</head>
<body>
<header><span class="brand">AgentKit</span>!${nav}</header>
<main id="main">
<h1>${title}</h1>
!${body}
</main>
</body>
</html>`}`;
}

/** A line for the person at the top of a page: what happened (notice) or what went wrong (error). */
export function banner(kind: "notice" | "error", text: string | undefined): string {
  if (!text) return "";
  return kind === "error" ? html`<p class="error" role="alert">${text}</p>` : html`<p class="notice" role="status">${text}</p>`;
}
