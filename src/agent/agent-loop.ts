import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Writer } from "../memory/memory-file.js";
import type { MemoryStore } from "../memory/memory-store.js";
import { executeTool, newTurnState, type MemoryChange, type PendingChange } from "../tools/execute-tool.js";
import { memoryToolDefinitions } from "../tools/memory-tools.js";
import type { ModelClient, TokenUsage } from "./model-client.js";

export const MAX_TOOL_ROUNDS = 8;

export interface TurnInput {
  model: ModelClient;
  memory: MemoryStore;
  /** System prompt and the history before this turn, exactly as sent. */
  context: ChatCompletionMessageParam[];
  text: string;
  now: Date;
  /** The model in this session, as the journal names it. */
  writer: Writer;
  onDelta?: (text: string) => void;
}

export interface TurnOutput {
  text: string;
  /** The messages this turn adds to the history: the person's, tool rounds, the answer. */
  messages: ChatCompletionMessageParam[];
  changes: MemoryChange[];
  /** Writes waiting for the person's OK (ask before saving). */
  proposals: PendingChange[];
  usage: TokenUsage;
}

/** One turn: the model may call memory tools for up to 8 rounds, then must answer. */
export async function runTurn(input: TurnInput): Promise<TurnOutput> {
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: input.text }];
  const turn = newTurnState();
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  let shown = "";
  let needsBreak = false;
  const onDelta = (delta: string) => {
    // Text from an earlier round stays; a later round's text starts a new paragraph.
    const piece = needsBreak && shown !== "" ? `\n\n${delta}` : delta;
    needsBreak = false;
    shown += piece;
    input.onDelta?.(piece);
  };
  for (let round = 0; ; round++) {
    const toolsAllowed = round < MAX_TOOL_ROUNDS;
    const reply = await input.model.stream({
      messages: [...input.context, ...messages],
      ...(toolsAllowed ? { tools: memoryToolDefinitions } : {}),
      onDelta,
    });
    if (reply.usage) {
      usage.promptTokens += reply.usage.promptTokens;
      usage.completionTokens += reply.usage.completionTokens;
      usage.cachedTokens += reply.usage.cachedTokens;
    }
    if (reply.toolCalls.length === 0 || !toolsAllowed) {
      messages.push({ role: "assistant", content: reply.content });
      return { text: shown, messages, changes: turn.changes, proposals: turn.proposals, usage };
    }
    messages.push({
      role: "assistant",
      content: reply.content || null,
      tool_calls: reply.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of reply.toolCalls) {
      const result = await executeTool(input.memory, call.name, call.arguments, { now: input.now, turn, writer: input.writer });
      messages.push({ role: "tool", tool_call_id: call.id, content: result });
    }
    needsBreak = true;
  }
}
