import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { TokenUsage } from "../lib/telemetry.js";
import type { ModelError } from "./model-error.js";

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelReply {
  content: string;
  toolCalls: ToolCall[];
  usage: TokenUsage | undefined;
}

/** A tool-call fragment as servers really send it: the SDK's type says `index` is always there; Ollama before 0.4.7 leaves it out. */
type CallDelta = Omit<ChatCompletionChunk.Choice.Delta.ToolCall, "index"> & { index?: number | null };

export function usageOf(usage: {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number } | undefined;
}): TokenUsage {
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0 };
}

/**
 * Puts a streamed answer back together: its text, its usage and its tool calls. OpenAI,
 * llama.cpp, vLLM and Ollama from 0.4.7 send a call as fragments keyed by `index`; Ollama 0.3.0
 * to 0.4.6 sends each call whole, with an `id` and no `index`, several in one delta. So a
 * fragment belongs to the call of its `index` when it has one, else to the call of its `id`,
 * else (neither) it continues the last call unless it names a tool of its own.
 */
export class ReplyAssembler {
  private content = "";
  private readonly calls: ToolCall[] = [];
  private readonly byIndex = new Map<number, ToolCall>();
  private readonly byId = new Map<string, ToolCall>();
  private usage: TokenUsage | undefined;
  private finished = false;

  add(chunk: ChatCompletionChunk): string {
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finished = true;
    const calls: unknown = choice.delta?.tool_calls;
    if (Array.isArray(calls)) for (const delta of calls) if (typeof delta === "object" && delta !== null) this.addCall(delta as CallDelta);
    const content: unknown = choice.delta?.content;
    const text = typeof content === "string" ? content : "";
    this.content += text;
    return text;
  }

  private addCall(delta: CallDelta): void {
    const index = typeof delta.index === "number" ? delta.index : undefined;
    const id = typeof delta.id === "string" && delta.id !== "" ? delta.id : undefined;
    const name = typeof delta.function?.name === "string" ? delta.function.name : "";
    const piece = typeof delta.function?.arguments === "string" ? delta.function.arguments : "";
    const last = this.calls.at(-1);
    let call = index !== undefined ? this.byIndex.get(index) : id !== undefined ? this.byId.get(id) : last && !(name && last.name) ? last : undefined;
    // Ollama gives every call of a reply index 0 (0.8.0 to 0.9.0, tools/tools.go; later for models
    // without a parser of their own): a fragment that brings another id, or names a tool after a
    // call that is whole, is a new call at that index.
    if (
      call &&
      index !== undefined &&
      ((id !== undefined && call.id !== "" && id !== call.id) || (name !== "" && piece !== "" && call.name !== "" && isWholeJson(call.arguments)))
    )
      call = undefined;
    if (!call) {
      call = { id: "", name: "", arguments: "" };
      this.calls.push(call);
    }
    if (index !== undefined) this.byIndex.set(index, call);
    if (id !== undefined && !call.id) {
      call.id = id;
      this.byId.set(id, call);
    }
    call.name ||= name;
    call.arguments += piece;
  }

  /** The answer of a server that did not stream (streaming refused with tools): one whole message. */
  static whole(
    message: { content?: string | null; tool_calls?: readonly { id?: string; type?: string; function?: { name?: string; arguments?: string } }[] | null },
    usage: TokenUsage | undefined,
  ): ModelReply {
    const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).flatMap((call) =>
      typeof call === "object" && call?.function
        ? [
            {
              id: typeof call.id === "string" ? call.id : "",
              name: typeof call.function.name === "string" ? call.function.name : "",
              arguments: typeof call.function.arguments === "string" ? call.function.arguments : "",
            },
          ]
        : [],
    );
    return { content: typeof message.content === "string" ? message.content : "", toolCalls: uniqueIds(calls), usage };
  }

  /** A stream that ends without a finish_reason was cut off. */
  finish(cutOff: () => ModelError): ModelReply {
    if (!this.finished) throw cutOff();
    return { content: this.content, toolCalls: uniqueIds(this.calls), usage: this.usage };
  }
}

/** Whether the text is a whole JSON value: a call's arguments are complete. */
function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every call with an id of its own: a missing id gets its position, a repeated one a suffix (each tool result names its call). */
function uniqueIds(calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, position) => {
    let id = call.id || `call_${position}`;
    while (seen.has(id)) id = `${id}_${position}`;
    seen.add(id);
    return { ...call, id };
  });
}
