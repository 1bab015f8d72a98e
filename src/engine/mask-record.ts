import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { TimeSlices } from "../lib/time-slices.js";
import { maskSecrets, maskSecretsInConversationSliced } from "../memory/secrets.js";
import type { SessionRecord } from "../sessions/session-record.js";
import { joinParts, partsOf, type WordsFrom } from "../lib/provenance.js";

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

/**
 * The texts of the person's and the assistant's messages, in order, masked together (a key split
 * over two messages). A message kept with its parts is masked part by part, as pieces of the same
 * run, and its parts' places are measured again (masking changes lengths).
 */
async function maskConversationTexts(
  record: SessionRecord,
  pause: () => Promise<void>,
): Promise<{ messages: ChatCompletionMessageParam[]; parts: SessionRecord["parts"] }> {
  const messages = record.messages;
  const spoken = messages.flatMap((m, i) => ((m.role === "user" || m.role === "assistant") && typeof m.content === "string" ? [i] : []));
  const pieces: { speaker: string; text: string; message: number; from?: WordsFrom }[] = [];
  for (const index of spoken) {
    const message = messages[index]!;
    const text = message.content as string;
    const spans = message.role === "user" ? record.parts?.[String(index)] : undefined;
    const parts = spans ? partsOf(text, spans) : [];
    if (parts.length > 0 && parts[0]!.origin !== "unknown")
      for (const { text: words, ...from } of parts) pieces.push({ speaker: message.role, text: words, message: index, from });
    else pieces.push({ speaker: message.role, text, message: index });
  }
  const masked = await maskSecretsInConversationSliced(pieces, pause);
  const out = [...messages];
  const parts = record.parts ? { ...record.parts } : undefined;
  // Pieces are in message order: each message takes the run of pieces that are its own.
  let k = 0;
  for (const index of spoken) {
    const mine: { from: WordsFrom | undefined; text: string }[] = [];
    for (; k < pieces.length && pieces[k]!.message === index; k++) mine.push({ from: pieces[k]!.from, text: masked[k]! });
    const joined = mine[0]?.from ? joinParts(mine.map(({ from, text }) => ({ ...from!, text }))) : { text: mine[0]?.text ?? "", spans: undefined };
    if (joined.text !== out[index]!.content) out[index] = { ...out[index]!, content: joined.text } as ChatCompletionMessageParam;
    if (parts && joined.spans) parts[String(index)] = joined.spans;
  }
  return { messages: out, parts };
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
      tool_calls: out.tool_calls.map((call) =>
        call.type === "function" ? { ...call, function: { ...call.function, arguments: maskSecretsInJson(call.function.arguments) } } : call,
      ),
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
  const { messages, parts } = await maskConversationTexts(record, pause);
  if (parts) record.parts = parts;
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
