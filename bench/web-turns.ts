/**
 * Issue 31: other people's Discord turns while one person reloads the heaviest conversation page
 * anyone can store, the page served from the bot's own process (WEB_PORT). The same load runs
 * with the page idle (the floor) and with one person reloading it, in alternating rounds, each
 * round a fresh bot; the reloads come from this process (a browser is another process), as fast
 * as the page's per-person limit lets one person (30 a minute), and also back to back.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { mintSignInToken, webSecret } from "../src/sessions/web-sign-in.js";
import { freePort } from "../tests/helpers/free-port.js";
import { csrfOf, WebClient } from "../tests/helpers/web-client.js";
import { runLoad, type LoadOptions, type LoadResult } from "./load.js";
import { summarize, type Summary } from "./stats.js";

export interface WebTurnsOptions {
  load: LoadOptions;
  /** Rounds of each side (floor, reloads, reloads, floor, …). */
  rounds: number;
}

/** One side's turns, pooled over its rounds. */
export interface WebTurnsSide {
  toModelMs: Summary;
  toFinalMs: Summary;
  turns: number;
  failures: string[];
}

export interface WebTurnsResult {
  options: { people: number; turns: number; rounds: number; pauseMs: number };
  page: { name: string; messages: number; chars: number; htmlBytes: number };
  floor: WebTurnsSide;
  /** Reloads paced at the page's limit (every 2 s): every one is rendered. */
  paced: WebTurnsSide & { renders: number; renderMs: Summary };
  /** Reloads back to back: the limit answers 429 after 30 a minute. */
  flood: WebTurnsSide & { renders: number; refused: number; renderMs: Summary };
}

const HEAVY = "900000000000000001";
const PAGE = "2026-12-01-heaviest-ffff0000.md";
const PACED_MS = 2_000;

/**
 * The costliest page the conversation view will render (src/web/pages/conversations.ts): 40
 * messages of 10,000 characters, the 400,000 it shows. Odd ones are the patterns markdown-it parses
 * slowest (10,000 characters of `![` took 90 ms before the cost bound), shown as plain text; even
 * ones carry 39 marks, the most a 10,000-character message may have and still be Markdown.
 */
function heaviestConversation(): { text: string; messages: number; chars: number } {
  const slow = ["![", "![x](", "*a", "_*", "[a](", "["];
  const marked = `${"*a* [b](/c) ".repeat(13)}${"word ".repeat(2_000)}`.slice(0, 10_000);
  const bodies = Array.from({ length: 40 }, (_, i) => (i % 2 ? slow[i % slow.length]!.repeat(10_000).slice(0, 10_000) : marked));
  const messages = bodies.map((body, i) => `## ${i % 2 ? "🤖 Assistant" : "🧑 Heavy"}\n${body}\n`);
  return { text: `# heaviest\n\n- place: DM\n\n${messages.join("\n")}`, messages: bodies.length, chars: bodies.reduce((n, b) => n + b.length, 0) };
}

interface Reloads {
  renders: number;
  refused: number;
  renderMs: number[];
  htmlBytes: number;
}

/** Signs the heavy person in with a one-time link and reloads their page until stopped. */
async function reloader(home: string, port: number, pacedMs: number | undefined): Promise<{ stop(): Promise<Reloads> }> {
  const folder = join(home, "users", HEAVY, "conversations");
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, PAGE), heaviestConversation().text);
  const browser = new WebClient(`http://127.0.0.1:${port}`);
  const token = mintSignInToken(await webSecret(home), HEAVY);
  const signed = await browser.post(`/auth/link/${token}`, { _csrf: csrfOf((await browser.get(`/auth/link/${token}`)).text) });
  if (signed.status !== 303) throw new Error(`the heavy person's sign-in answered ${signed.status}`);
  const seen: Reloads = { renders: 0, refused: 0, renderMs: [], htmlBytes: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = performance.now();
      const page = await browser.get(`/conversations/${PAGE}`);
      const ms = performance.now() - at;
      if (page.status === 200) {
        seen.renders++;
        seen.renderMs.push(ms);
        seen.htmlBytes = Buffer.byteLength(page.text);
      } else if (page.status === 429) seen.refused++;
      else throw new Error(`the heaviest page answered ${page.status}`);
      if (pacedMs !== undefined) await new Promise((resolve) => setTimeout(resolve, Math.max(0, pacedMs - ms)));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

async function round(options: WebTurnsOptions, reloads: "none" | "paced" | "flood"): Promise<{ load: LoadResult; seen: Reloads | undefined }> {
  const port = await freePort();
  let seen: Reloads | undefined;
  const load = await runLoad("agentkit", {
    ...options.load,
    env: { ...options.load.env, WEB_PORT: String(port) },
    ...(reloads === "none"
      ? {}
      : {
          alongside: async ({ home }) => {
            const running = await reloader(home, port, reloads === "paced" ? PACED_MS : undefined);
            return async () => void (seen = await running.stop());
          },
        }),
  });
  return { load, seen };
}

function side(loads: LoadResult[]): WebTurnsSide {
  const samples = loads.flatMap((l) => l.samples);
  return {
    toModelMs: summarize(samples.map((s) => s.modelReceivedAt - s.sentAt)),
    toFinalMs: summarize(samples.map((s) => s.finalAt - s.lastTokenAt)),
    turns: samples.length,
    failures: loads.flatMap((l) => l.failures),
  };
}

export async function measureWebTurns(options: WebTurnsOptions): Promise<WebTurnsResult> {
  const floor: LoadResult[] = [];
  const paced: { load: LoadResult; seen: Reloads | undefined }[] = [];
  const flood: { load: LoadResult; seen: Reloads | undefined }[] = [];
  for (let r = 0; r < options.rounds; r++) {
    // Which side goes first alternates: a busy moment of the shared machine lands on all alike.
    const order = r % 2 === 0 ? (["none", "paced", "flood"] as const) : (["flood", "paced", "none"] as const);
    for (const kind of order) {
      process.stderr.write(
        `bench: web turns, round ${r + 1}/${options.rounds}: ${kind === "none" ? "page idle" : kind === "paced" ? "page reloaded every 2 s" : "page reloaded back to back"}…\n`,
      );
      const result = await round(options, kind);
      if (kind === "none") floor.push(result.load);
      else (kind === "paced" ? paced : flood).push(result);
    }
  }
  const pooled = (runs: { seen: Reloads | undefined }[]) => {
    const seen = runs.flatMap((r) => (r.seen ? [r.seen] : []));
    return {
      renders: seen.reduce((n, s) => n + s.renders, 0),
      refused: seen.reduce((n, s) => n + s.refused, 0),
      renderMs: summarize(seen.flatMap((s) => s.renderMs)),
      htmlBytes: Math.max(0, ...seen.map((s) => s.htmlBytes)),
    };
  };
  const heavy = heaviestConversation();
  const pacedSeen = pooled(paced);
  const floodSeen = pooled(flood);
  return {
    options: { people: options.load.people, turns: options.load.turns, rounds: options.rounds, pauseMs: options.load.pauseMs },
    page: { name: PAGE, messages: heavy.messages, chars: heavy.chars, htmlBytes: Math.max(pacedSeen.htmlBytes, floodSeen.htmlBytes) },
    floor: side(floor),
    paced: { ...side(paced.map((p) => p.load)), renders: pacedSeen.renders, renderMs: pacedSeen.renderMs },
    flood: { ...side(flood.map((p) => p.load)), renders: floodSeen.renders, refused: floodSeen.refused, renderMs: floodSeen.renderMs },
  };
}
