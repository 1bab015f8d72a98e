/**
 * `npm run eval`: scripted lives (eval/lives.ts) through the real engine, memory tools and
 * nightly tidy-up, against the model in .env (or the test fake with --test-model, as CI runs it),
 * then what ended up in memory is scored. Prints a table per life and writes JSON.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { TZDate } from "@date-fns/tz";
import { ConfigError, loadConfig } from "../src/config.js";
import { SessionEngine } from "../src/engine/session-engine.js";
import { tidyUp } from "../src/engine/tidy/tidy-up.js";
import { silentLogger } from "../src/lib/logger.js";
import { countChars } from "../src/lib/text.js";
import { CAPS } from "../src/memory/file-kinds.js";
import { Recall } from "../src/memory/recall/recall.js";
import { relativeTimeIn } from "../src/memory/relative-time.js";
import { ModelClient } from "../src/model/model-client.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { startFakeOpenAI, type FakeOpenAI } from "../tests/fakes/fake-openai.js";
import { lives, type EvalCheck, type EvalLife } from "./lives.js";

const { values } = parseArgs({
  options: {
    "test-model": { type: "boolean", default: false },
    only: { type: "string" },
    out: { type: "string", default: join(import.meta.dirname, "results", "latest.json") },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (values.help) {
  console.log(`npm run eval -- [--test-model] [--only en|zh] [--out eval/results/latest.json]
  Without --test-model: the model in .env (OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY) plays the assistant.
  With it: the test fake speaks each life's scripted answers (what CI runs; every check should pass).`);
  process.exit(0);
}

interface CheckResult {
  life: string;
  language: string;
  check: string;
  kind: EvalCheck["kind"];
  pass: boolean;
  detail: string;
}

/** "2026-11-02T10:00" in a zone, as an instant. */
function instant(at: string, zone: string): Date {
  const [date, time] = at.split("T") as [string, string];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [h, min] = time.split(":").map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, h, min, zone).getTime());
}

async function live(life: EvalLife, model: ModelClient, fake: FakeOpenAI | undefined): Promise<CheckResult[]> {
  const home = await mkdtemp(join(tmpdir(), `agentkit-eval-${life.id}-`));
  const store = await SessionStore.open(home);
  const recall = new Recall({ debounceMs: 10 });
  let now = new Date();
  const engine = new SessionEngine({ home, memory: { defaultTimeZone: life.zone, recall }, model, store, log: silentLogger, historyBudgetChars: 60_000, clock: () => now });
  const memory = engine.memoryOf(life.userId);
  await memory.saveSettings({ timezone: life.zone, locale: life.language === "zh" ? "zh-CN" : "en-US" });
  let lastAnswer = "";
  try {
    for (const event of life.events) {
      now = instant(event.at, life.zone);
      if (event.kind === "night") {
        if (fake && event.plan) fake.enqueue({ text: JSON.stringify(event.plan) });
        const result = await tidyUp(memory, model, { now });
        process.stderr.write(`eval ${life.id}: tidy-up ${event.at}: ${result.kind}${"dropped" in result && Object.keys(result.dropped).length ? ` (dropped ${JSON.stringify(result.dropped)})` : ""}${"held" in result && result.held.length ? ` (held ${JSON.stringify(result.held.map((h) => h.held.why))})` : ""}\n`);
        continue;
      }
      const session = await engine.open({
        userId: life.userId,
        displayName: life.name,
        locale: life.language === "zh" ? "zh-CN" : "en-US",
        title: event.title,
        place: { platform: "terminal", channelId: `eval-${life.id}-${event.at}`, description: "a terminal" },
      });
      for (const turn of event.turns) {
        if (fake) fake.enqueue(...(turn.scripted ?? [{ text: "…" }]));
        lastAnswer = (await engine.turn(session.id, turn.person)).text;
        now = new Date(now.getTime() + 60_000);
      }
      if (fake) fake.enqueue({ text: event.summary });
      await engine.close(session.id, "eval");
    }
    await engine.settle();
    const user = (await memory.user.read()) ?? "";
    const notes = (await memory.memory.read()) ?? "";
    return life.checks.map((check) => ({ life: life.id, language: life.language, check: check.name, kind: check.kind, ...score(check, { user, notes, lastAnswer }) }));
  } finally {
    await recall.close();
    await store.close();
    await rm(home, { recursive: true, force: true });
  }
}

function score(check: EvalCheck, { user, notes, lastAnswer }: { user: string; notes: string; lastAnswer: string }): { pass: boolean; detail: string } {
  const lines = (text: string, pattern: RegExp) => text.split("\n").filter((line) => pattern.test(line));
  switch (check.kind) {
    case "stale-replaced": {
      const current = check.current.test(user);
      const stale = check.stale.test(user);
      return { pass: current && !stale, detail: `current ${current ? "present" : "missing"}, stale ${stale ? "still there" : "gone"}` };
    }
    case "one-entry": {
      const found = lines(user, check.pattern);
      return { pass: found.length === 1, detail: `${found.length} line(s) in USER.md` };
    }
    case "not-saved": {
      const found = lines(user, check.pattern);
      return { pass: found.length === 0, detail: found.length ? `in USER.md: ${found[0]}` : "not in USER.md" };
    }
    case "recalled":
      return { pass: check.pattern.test(lastAnswer), detail: `answer: ${lastAnswer.replace(/\s+/g, " ").slice(0, 80)}` };
    case "under-cap": {
      const sizes = [countChars(user), countChars(notes)];
      const under = sizes[0]! <= CAPS.user && sizes[1]! <= CAPS.memory;
      const kept = check.kept.every((pattern) => pattern.test(user) || pattern.test(notes));
      return { pass: under && kept, detail: `USER.md ${sizes[0]}/${CAPS.user}, MEMORY.md ${sizes[1]}/${CAPS.memory}; kept ${kept ? "yes" : "no"}` };
    }
    case "dated": {
      const found = [...lines(user, check.pattern), ...lines(notes, check.pattern)];
      const undated = found.filter((line) => relativeTimeIn(line) !== undefined || !/\d{4}-\d{2}-\d{2}|\d{1,2}月\d{1,2}[日号]/.test(line));
      return { pass: found.length > 0 && undated.length === 0, detail: found.length === 0 ? "not saved at all" : undated.length ? `undated: ${undated[0]}` : found[0]! };
    }
  }
}

async function main(): Promise<number> {
  let fake: FakeOpenAI | undefined;
  let model: ModelClient;
  if (values["test-model"]) {
    fake = await startFakeOpenAI();
    model = new ModelClient({ baseURL: fake.baseURL, apiKey: "eval", model: "fake-model", maxRetries: 0 });
  } else {
    const config = loadConfig("chat");
    model = new ModelClient({ ...config.openai, maxRetries: 2 });
  }
  const chosen = lives.filter((life) => !values.only || life.id === values.only);
  const results: CheckResult[] = [];
  try {
    for (const life of chosen) results.push(...(await live(life, model, fake)));
  } finally {
    await fake?.close();
  }
  const rows = results.map((r) => `| ${r.language} | ${r.check} | ${r.pass ? "✅" : "❌"} | ${r.detail.replaceAll("|", "\\|")} |`);
  console.log(`## Memory over a month (${values["test-model"] ? "the test model: scripted answers" : `${model.options.model} at ${model.options.baseURL}`})\n`);
  console.log(["| language | check | | what ended up in memory |", "| --- | --- | --- | --- |", ...rows].join("\n"));
  const byLanguage = chosen.map((life) => {
    const mine = results.filter((r) => r.life === life.id);
    return `${life.language} ${mine.filter((r) => r.pass).length}/${mine.length}`;
  });
  console.log(`\nScore: ${byLanguage.join(", ")}`);
  await mkdir(join(values.out!, ".."), { recursive: true });
  await writeFile(values.out!, `${JSON.stringify({ model: values["test-model"] ? "test" : model.options.model, at: new Date().toISOString(), results }, null, 2)}\n`);
  // With the test model every check is scripted to pass: a failure is a regression in the code.
  return values["test-model"] && results.some((r) => !r.pass) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
