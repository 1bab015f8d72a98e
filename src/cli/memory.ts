import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { archiveClosedSessions } from "../agent/conversation-archive.js";
import { createRecall } from "../agent/create-engine.js";
import { ModelClient } from "../agent/model-client.js";
import { SessionStore } from "../agent/session-store.js";
import { ConfigError, loadConfig, type Config } from "../config.js";
import { MemoryStore } from "../memory/memory-store.js";
import type { Recall } from "../memory/recall/recall.js";
import { english } from "../agent/history-lines.js";
import { importRefusal, importReport, type ImportReport } from "../agent/import-preview.js";
import { applyImport, exportBundle, importableName, IMPORT_LIMITS, planImport, readImport, type ImportRefusal } from "../memory/import.js";
import { printable } from "../lib/printable.js";
import { formatHit } from "./format-hit.js";
import { historyText, undoList, undoText } from "./memory-text.js";

const USAGE = `Usage: npm run memory -- <command> [options]

Commands:
  search "<query>" --user <id> [--limit N] [--json]
      Search everything a person told the bot (conversations, daily logs, memory files).
      --json prints one JSON array, best first, of {source, date, title, text, score}.
  reindex [--user <id>]
      Rebuild the recall index from the files (every person when --user is left out).
  history --user <id> [--file soul|user|memory|daily] [--limit N] [--json]
      Every change to the person's memory, newest first.
  undo --user <id> [--change <id>] [--with-later]
      Without --change: the changes that can be undone. With it: undo that change (and, with
      --with-later, the later changes that touched the same sections).
  export --user <id> [--out <file>]
      Everything of the person as one JSON file (what /memory export gives; stdout without --out).
  import <file> --user <id> [--dry-run]
      Bring back an export (agentkit-memory.json) or one SOUL.md, USER.md or MEMORY.md.

Needs only AGENTKIT_HOME (default ~/.agentkit); with OPENAI_EMBEDDING_MODEL set, the semantic
ranking is used too (same OPENAI_BASE_URL / OPENAI_API_KEY as the bot).`;

class UsageError extends Error {}

interface Tools {
  config: Config;
  recall: Recall;
  memoryOf(userId: string): MemoryStore;
}

function tools(config: Config): Tools {
  const model = new ModelClient({ ...config.openai, maxRetries: 1 });
  const recall = createRecall(model, (message, error) => console.error(`warning: ${message} (${(error as Error).message})`));
  const memoryOf = (userId: string) => {
    const opened = MemoryStore.open(config.home, userId, { defaultTimeZone: config.timeZone, dailyDays: config.dailyDays, recall, journalRetention: config.journal });
    if (!opened.ok) throw new UsageError(`--user: ${opened.error}`);
    return opened.value;
  };
  return { config, recall, memoryOf };
}

async function search(t: Tools, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { user: { type: "string" }, limit: { type: "string", default: "10" }, json: { type: "boolean", default: false } },
  });
  const query = positionals.join(" ").trim();
  if (!values.user) throw new UsageError("search needs --user <id>");
  if (query === "") throw new UsageError('search needs a query: npm run memory -- search "oolong tea" --user <id>');
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new UsageError("--limit must be a whole number from 1 to 50");
  const memory = t.memoryOf(values.user);
  await memory.updateIndex();
  const hits = await memory.search(query, { limit });
  if (values.json) {
    const contract = hits.map(({ source, date, title, text, score }) => ({ source, date, title, text, score }));
    process.stdout.write(`${JSON.stringify(contract)}\n`);
    return;
  }
  if (hits.length === 0) console.log(`Nothing found for "${query}".`);
  hits.forEach((hit, i) => console.log(formatHit(hit, i + 1)));
}

async function reindex(t: Tools, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { user: { type: "string" } } });
  // Conversations that closed before transcripts were kept are written out first (idempotent).
  const store = await SessionStore.open(t.config.home, t.config.sessionStoreUrl);
  try {
    const written = await archiveClosedSessions(store, t.memoryOf, { only: values.user });
    if (written > 0) console.log(`Wrote ${written} earlier conversation(s) to conversations/.`);
  } finally {
    await store.close();
  }
  const users = values.user ? [values.user] : await everyone(t.config.home);
  if (!values.user) {
    // An index whose person's folder is gone holds their words still: it goes too.
    const removed = await removeOrphanIndexes(t.config.home, new Set(users));
    if (removed > 0) console.log(`Removed ${removed} index(es) of people whose memory is gone.`);
  }
  for (const userId of users) {
    const started = performance.now();
    const report = await t.memoryOf(userId).reindex();
    const entries = `${report.units} ${report.units === 1 ? "entry" : "entries"}`;
    console.log(`user ${userId}: ${entries} from ${report.read} file(s) in ${Math.round(performance.now() - started)} ms`);
  }
  if (users.length === 0) console.log("No one has any memory yet.");
}

function userOf(t: Tools, user: string | undefined, command: string): MemoryStore {
  if (!user) throw new UsageError(`${command} needs --user <id>`);
  return t.memoryOf(user);
}

async function history(t: Tools, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { user: { type: "string" }, file: { type: "string" }, limit: { type: "string", default: "50" }, json: { type: "boolean", default: false } } });
  const memory = userOf(t, values.user, "history");
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a whole number of 1 or more");
  if (values.json) {
    process.stdout.write(`${JSON.stringify((await memory.history()).slice(0, limit))}\n`);
    return;
  }
  console.log(await historyText(memory, { file: values.file, limit }));
}

async function undo(t: Tools, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { user: { type: "string" }, change: { type: "string" }, "with-later": { type: "boolean", default: false } } });
  const memory = userOf(t, values.user, "undo");
  if (!values.change) {
    console.log(`${(await undoList(memory, 25)).text}\nUndo one with: npm run memory -- undo --user ${values.user} --change <id>`);
    return;
  }
  console.log(await undoText(memory, values.change, values["with-later"], `npm run memory -- undo --user ${values.user} --change ${values.change} --with-later`));
}

async function exportCommand(t: Tools, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { user: { type: "string" }, out: { type: "string" } } });
  const text = `${JSON.stringify(await exportBundle(userOf(t, values.user, "export")), null, 2)}\n`;
  if (values.out) await writeFile(values.out, text);
  else process.stdout.write(text);
}

async function importCommand(t: Tools, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { user: { type: "string" }, "dry-run": { type: "boolean", default: false } } });
  const memory = userOf(t, values.user, "import");
  const path = positionals[0];
  if (!path) throw new UsageError("import needs a file: npm run memory -- import agentkit-memory.json --user <id>");
  const name = basename(path);
  // Refused by name and size before the file is read.
  const refused = (refusal: ImportRefusal) => new Error(importRefusal(name, refusal, english));
  if (!importableName(name)) throw refused({ kind: "unknown-name" });
  const { size } = await stat(path);
  if (size > IMPORT_LIMITS.bytes) throw refused({ kind: "too-large", bytes: size, limit: IMPORT_LIMITS.bytes });
  const files = await readImport(name, await readFile(path));
  if (!files.ok) throw refused(files.error);
  const plain = (report: ImportReport) => printable([report.header.replaceAll("**", ""), ...report.files].join("\n"));
  if (values["dry-run"]) {
    console.log(`${plain(importReport(name, await planImport(memory, files.value), "preview", english))}\nDry run: nothing was written.`);
    return;
  }
  const { plan, entry } = await applyImport(memory, files.value);
  const wrote = plan.files.some((f) => f.status === "new" || f.status === "changed");
  const undo = entry ? `\nUndo it with: npm run memory -- undo --user ${values.user} --change ${entry.id}` : "";
  console.log(`${plain(importReport(name, plan, "done", english))}${wrote ? undo : "\nNothing to import: the memory already held all of it."}`);
}

async function removeOrphanIndexes(home: string, people: Set<string>): Promise<number> {
  const names = await readdir(join(home, "index")).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const id = /^(\d{1,20})\.sqlite(-wal|-shm)?$/.exec(name)?.[1];
    if (id === undefined || people.has(id)) continue;
    await rm(join(home, "index", name), { force: true });
    if (name.endsWith(".sqlite")) removed++;
  }
  return removed;
}

async function everyone(home: string): Promise<string[]> {
  const names = await readdir(join(home, "users"), { withFileTypes: true }).catch(() => []);
  return names.filter((d) => d.isDirectory() && /^\d{1,20}$/.test(d.name)).map((d) => d.name).sort();
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const t = tools(loadConfig("operator"));
  try {
    if (command === "search") await search(t, args);
    else if (command === "reindex") await reindex(t, args);
    else if (command === "history") await history(t, args);
    else if (command === "undo") await undo(t, args);
    else if (command === "export") await exportCommand(t, args);
    else if (command === "import") await importCommand(t, args);
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } finally {
    await t.recall.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof ConfigError ? error.message : `npm run memory failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
