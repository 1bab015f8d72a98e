import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { TimeSlices } from "../lib/time-slices.js";
import { maskSecrets, maskSecretsInConversationSliced } from "../memory/secrets.js";
import type { SessionRecord } from "../sessions/session-record.js";

/**
 * Masks secret shapes in a JSON text (a tool call's arguments, a tool's result) string by
 * string, so the placeholder never breaks a quote or an escape; text that is not JSON is
 * masked as it is.
 */
export function maskSecretsInJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return maskSecrets(text);
  }
  let changed = false;
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      const masked = maskSecrets(node);
      if (masked !== node) changed = true;
      return masked;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  const masked = walk(value);
  return changed ? JSON.stringify(masked) : text;
}

/** The texts of the person's and the assistant's messages, in order, masked together (a key split over two messages). */
async function maskConversationTexts(messages: ChatCompletionMessageParam[], pause: () => Promise<void>): Promise<ChatCompletionMessageParam[]> {
  const spoken = messages.flatMap((m, i) => ((m.role === "user" || m.role === "assistant") && typeof m.content === "string" ? [i] : []));
  const masked = await maskSecretsInConversationSliced(spoken.map((i) => ({ speaker: messages[i]!.role, text: messages[i]!.content as string })), pause);
  const out = [...messages];
  spoken.forEach((index, k) => {
    if (masked[k] !== out[index]!.content) out[index] = { ...out[index]!, content: masked[k]! } as ChatCompletionMessageParam;
  });
  return out;
}

function maskMessage(message: ChatCompletionMessageParam): ChatCompletionMessageParam {
  let out = message;
  if (out.role === "tool" && typeof out.content === "string") {
    const content = maskSecretsInJson(out.content);
    if (content !== out.content) out = { ...out, content };
  }
  if (Array.isArray(out.content)) {
    const parts = out.content.map((part) => ("text" in part && typeof part.text === "string" ? { ...part, text: maskSecrets(part.text) } : part));
    out = { ...out, content: parts } as ChatCompletionMessageParam;
  }
  if (out.role === "assistant" && out.tool_calls) {
    out = {
      ...out,
      tool_calls: out.tool_calls.map((call) => (call.type === "function" ? { ...call, function: { ...call.function, arguments: maskSecretsInJson(call.function.arguments) } } : call)),
    };
  }
  return out;
}

/**
 * Masks every secret a session keeps once it closes: the messages (the person's own, which the
 * open conversation needed, tool arguments and results included), the summaries, the frozen
 * prompt, the title. Run when a close starts, before the transcript, the summary request and
 * every later save. A session can hold megabytes (files shared in it): the work hands the event
 * loop back every few milliseconds, so other people's turns go on meanwhile.
 */
export async function maskSecretsInRecord(record: SessionRecord): Promise<void> {
  const slices = new TimeSlices();
  const pause = () => slices.pause();
  const messages = await maskConversationTexts(record.messages, pause);
  for (let i = 0; i < messages.length; i++) {
    messages[i] = maskMessage(messages[i]!);
    await pause();
  }
  record.messages = messages;
  if (record.summary !== undefined) record.summary = maskSecrets(record.summary);
  if (record.condensed) record.condensed = { ...record.condensed, summary: maskSecrets(record.condensed.summary) };
  record.systemPrompt = maskSecrets(record.systemPrompt);
  record.title = maskSecrets(record.title);
  record.channel = { ...record.channel, description: maskSecrets(record.channel.description) };
}
