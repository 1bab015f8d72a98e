import type { FileKind, MemoryStore } from "../memory/memory-store.js";
import { formatUsage, type Writer, type WriteOutcome } from "../memory/memory-file.js";
import type { Result } from "../result.js";
import { SEARCH_DEFAULT_LIMIT, TOOL_NAMES, toolSchemas, type ToolName } from "./memory-tools.js";
import { searchResultsForModel } from "./search-results.js";

export interface MemoryChange {
  file: string;
  section?: string;
}

/** What one turn's tool calls have done so far. */
export interface TurnState {
  refusedWrites: number;
  changes: MemoryChange[];
}

export function newTurnState(): TurnState {
  return { refusedWrites: 0, changes: [] };
}

export interface ToolContext {
  now: Date;
  turn: TurnState;
  /** The model in its session: the safety level of its writes and who the journal names. */
  writer: Writer;
}

const MAX_REFUSED_WRITES = 3;
const STOP_RETRYING =
  "Three memory writes were refused this turn: stop retrying and reply to the person now; mention what could not be saved if it matters.";

/**
 * Runs one memory tool call. Never throws on bad input: every failure is a
 * JSON `{"ok":false,"error":…}` the model can read and act on.
 */
export async function executeTool(
  store: MemoryStore,
  name: string,
  argumentsJson: string,
  context: ToolContext,
): Promise<string> {
  try {
    return JSON.stringify(await run(store, name, argumentsJson, context));
  } catch (error) {
    // Disk errors and the like: the turn goes on, the model is told.
    return JSON.stringify({ ok: false, error: `memory is unavailable right now (${(error as Error).message})` });
  }
}

async function run(store: MemoryStore, name: string, argumentsJson: string, context: ToolContext): Promise<object> {
  if (!(TOOL_NAMES as string[]).includes(name)) {
    return failure(`unknown tool "${name}"; the memory tools are ${TOOL_NAMES.join(", ")}`);
  }
  const tool = name as ToolName;
  let raw: unknown;
  try {
    raw = JSON.parse(argumentsJson);
  } catch {
    return failure(`the arguments are not valid JSON: ${argumentsJson.slice(0, 80)}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return failure("the arguments must be a JSON object");
  }
  const isWrite = tool !== "memory_read" && tool !== "memory_search";
  if (isWrite && context.turn.refusedWrites >= MAX_REFUSED_WRITES) return failure(STOP_RETRYING);

  const parsed = toolSchemas[tool].safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
    return refused(context, `invalid arguments for ${tool}: ${problems.join("; ")}`, isWrite);
  }
  if (tool === "memory_search") {
    const { query, limit } = parsed.data as { query: string; limit?: number };
    return searchResultsForModel(query, await store.search(query, { limit: limit ?? SEARCH_DEFAULT_LIMIT }));
  }
  // The schema has validated these fields for the tool at hand.
  const args = parsed.data as { file: FileKind; section: string; content: string; old_text: string; new_text: string };
  const file = store.file(args.file, context.now);
  if (tool === "memory_read") {
    const content = await file.read();
    return { ok: true, file: file.label, usage: formatUsage(await file.usage()), content };
  }
  const outcome: Result<WriteOutcome> =
    tool === "memory_add"
      ? await file.add(args.section, args.content, context.writer)
      : tool === "memory_replace"
        ? await file.replace(args.section, args.old_text, args.new_text, context.writer)
        : await file.remove(args.section, context.writer);
  if (!outcome.ok) return refused(context, outcome.error, true);
  return success(outcome.value, context);
}

function success(outcome: WriteOutcome, context: ToolContext): object {
  const { file, section, usage, changed } = outcome;
  if (changed) context.turn.changes.push({ file, ...(section ? { section } : {}) });
  const percent = Math.floor((usage.used / usage.cap) * 100);
  return {
    ok: true,
    file,
    ...(section ? { section } : {}),
    usage: formatUsage(usage),
    ...(changed ? {} : { unchanged: true, note: "the section already holds this text; nothing changed" }),
    ...(percent >= 90 && usage.used > 0
      ? { warning: `${file} is ${percent}% full; consolidate (replace or remove old entries) before adding more` }
      : {}),
  };
}

function failure(error: string): object {
  return { ok: false, error };
}

function refused(context: ToolContext, error: string, isWrite: boolean): object {
  if (!isWrite) return failure(error);
  context.turn.refusedWrites += 1;
  return failure(context.turn.refusedWrites >= MAX_REFUSED_WRITES ? `${error.replace(/\.$/, "")}. ${STOP_RETRYING}` : error);
}
