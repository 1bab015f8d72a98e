import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { PublicPlace } from "../memory/visibility.js";
import type { Writer } from "../memory/memory-file.js";
import type { MemoryStore } from "../memory/memory-store.js";
import { executeTool, newTurnState, type ToolContext } from "./tools/execute-tool.js";
import { guestName, type Guest } from "../sessions/session-record.js";
import { guestText, replayableArguments } from "./chat-context.js";
import type { Suggestion } from "../memory/server-notes.js";
import { distinctSources, type MemoryChange, type ProposedChange, type SourceRef } from "../memory/changes.js";
import type { MemoryWriteResult, TokenUsage } from "../lib/telemetry.js";
import { memoryToolDefinitions } from "./tools/memory-tools.js";
import { toolJson } from "./tools/tool-json.js";
import { estimateTokens, keepStart } from "../lib/tokens.js";
import { joinParts, type MessagePart, type PartSpan } from "../lib/provenance.js";
import type { ModelClient } from "../model/model-client.js";
import { StoppedError } from "../model/model-error.js";

export const MAX_TOOL_ROUNDS = 8;
/** Calls run from one reply; the rest are answered that they were not run. */
const MAX_CALLS_PER_ROUND = 16;

/** What the person sent in one turn: their words (files already inlined) and images for a model that can see. */
export interface TurnMessage {
  text: string;
  /** The same words part by part with whose they are (a front end that knows: Discord); missing, all of `text` was typed. */
  parts?: MessagePart[];
  /** An invited member's message (the session's guests), not the owner's. */
  from?: Guest;
  /** Sent as image parts in this turn only; the stored history keeps `placeholder` instead. */
  images?: { dataUrl: string; placeholder: string }[];
}

export interface TurnInput {
  model: ModelClient;
  memory: MemoryStore;
  /** System prompt and the history before this turn, exactly as sent. */
  context: ChatCompletionMessageParam[];
  message: TurnMessage;
  now: Date;
  /** The model in this session, as the journal names it. */
  writer: Writer;
  onDelta?: (text: string) => void;
  /** Aborting it stops the turn: the text so far is its answer. */
  signal?: AbortSignal;
  /** Adds up the time spent in model requests, failed ones included (metrics). */
  timing?: TurnTiming;
  onMemoryWrite?: (result: MemoryWriteResult) => void;
  /** Where the session runs: the tools word their notes for its controls. */
  platform?: "discord" | "terminal";
  /** Others can read the conversation (ToolContext.publicPlace). */
  publicPlace?: PublicPlace;
  /** The server the conversation is in (ToolContext.server). */
  server?: ToolContext["server"];
  /** What the model has before it, by whose words it is (ToolContext.words). */
  words?: ToolContext["words"];
  /** This turn answers an invited member (ToolContext.guestTurn). */
  guestTurn?: boolean;
  /** The most of the model's context the message may take (estimated tokens); the history keeps it whole. */
  maxMessageTokens?: number;
}

export interface TurnTiming {
  modelMs: number;
}

export interface TurnOutput {
  text: string;
  /** The messages this turn adds to the history: the person's, tool rounds, the answer. */
  messages: ChatCompletionMessageParam[];
  /** Where each part of the person's message (the first of `messages`) is, with whose words it is. */
  spans: PartSpan[];
  changes: MemoryChange[];
  /** Writes waiting for the person's OK (ask before saving). */
  proposals: ProposedChange[];
  /** Changes to the server's notes waiting for a moderator. */
  suggestions: Suggestion[];
  usage: TokenUsage;
  /** The person pressed Stop: `text` is what had been shown. */
  stopped: boolean;
  /** Where the memory the answer may rest on came from: memory_search's results, at most three. */
  sources: SourceRef[];
  /** What this model or server could not take in this turn, so the front end can say so once. */
  limits: TurnLimits;
}

export interface TurnLimits {
  /** The model takes no tools: the answer could not save to memory (the person's /memory add still can). */
  noTools?: true;
  /** The model took no image of this turn (it cannot see them, or one could not be converted). */
  noImages?: true;
  /** The message was longer than the model's context leaves: the model read its start. */
  messageCut?: true;
}

/** The person's message as the model gets it in its turn, with image parts when there are images, cut to what the context leaves. */
function requestMessage(message: TurnMessage, fits: boolean, maxTokens: number | undefined): ChatCompletionMessageParam {
  const words =
    fits || maxTokens === undefined ? message.text : `${keepStart(message.text, maxTokens)}\n[… the rest of this message was cut to fit the model's context]`;
  const text = message.from ? guestText(message.from, words) : words;
  const name = message.from ? { name: guestName(message.from.userId) } : {};
  if (!message.images?.length) return { role: "user", content: text, ...name };
  const parts: ChatCompletionContentPart[] = [
    { type: "text", text },
    ...message.images.map((image): ChatCompletionContentPart => ({ type: "image_url", image_url: { url: image.dataUrl } })),
  ];
  return { role: "user", content: parts, ...name };
}

/**
 * The person's message as history keeps it, and where each of its parts is: images become short
 * placeholders, so history stays small; a guest's typed words name the guest.
 */
export function storedMessage(message: TurnMessage): { message: ChatCompletionMessageParam; spans: PartSpan[] } {
  const typed = (text: string): MessagePart => ({ origin: "typed", ...(message.from ? { author: message.from.displayName } : {}), text });
  const given = message.parts?.map((part) => (part.origin === "typed" ? typed(part.text) : part)) ?? [typed(message.text)];
  const placeholders = (message.images ?? []).map((image): MessagePart => ({ origin: "image", text: image.placeholder }));
  const { text, spans } = joinParts([...given, ...placeholders]);
  return { message: { role: "user", content: text, ...(message.from ? { name: guestName(message.from.userId) } : {}) }, spans };
}

/** One turn: the model may call memory tools for up to 8 rounds, then must answer. */
export async function runTurn(input: TurnInput): Promise<TurnOutput> {
  const fits = input.maxMessageTokens === undefined || estimateTokens(input.message.text) <= input.maxMessageTokens;
  const asked = requestMessage(input.message, fits, input.maxMessageTokens);
  const messages: ChatCompletionMessageParam[] = [asked];
  const turn = newTurnState();
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  const limits: TurnLimits = fits ? {} : { messageCut: true };
  let shown = "";
  let roundText = "";
  let needsBreak = false;
  const kept = storedMessage(input.message);
  const stored = () => [kept.message, ...messages.slice(1)];
  const onDelta = (delta: string) => {
    roundText += delta;
    // Text from an earlier round stays; a later round's text starts a new paragraph.
    const piece = needsBreak && shown !== "" ? `\n\n${delta}` : delta;
    needsBreak = false;
    shown += piece;
    input.onDelta?.(piece);
  };
  for (let round = 0; ; round++) {
    const toolsAllowed = round < MAX_TOOL_ROUNDS;
    roundText = "";
    let reply;
    const asking = performance.now();
    try {
      if (input.signal?.aborted) throw new StoppedError();
      reply = await input.model.stream({
        messages: [...input.context, ...messages],
        ...(toolsAllowed ? { tools: memoryToolDefinitions } : {}),
        onDelta,
        ...(input.signal ? { signal: input.signal } : {}),
      });
    } catch (error) {
      if (!(error instanceof StoppedError)) throw error;
      // Stopped: the history keeps exactly what the person saw, and what the tools already did stays done.
      messages.push({ role: "assistant", content: roundText });
      return {
        text: shown,
        messages: stored(),
        spans: kept.spans,
        changes: turn.changes,
        proposals: turn.proposals,
        suggestions: turn.suggestions,
        usage,
        stopped: true,
        sources: distinctSources(turn.found),
        limits,
      };
    } finally {
      if (input.timing) input.timing.modelMs += performance.now() - asking;
    }
    if (reply.toolsLeftOut) limits.noTools = true;
    if (reply.imagesLeftOut) limits.noImages = true;
    if (reply.usage) {
      usage.promptTokens += reply.usage.promptTokens;
      usage.completionTokens += reply.usage.completionTokens;
      usage.cachedTokens += reply.usage.cachedTokens;
    }
    if (reply.toolCalls.length === 0 || !toolsAllowed) {
      messages.push({ role: "assistant", content: reply.content });
      return {
        text: shown,
        messages: stored(),
        spans: kept.spans,
        changes: turn.changes,
        proposals: turn.proposals,
        suggestions: turn.suggestions,
        usage,
        stopped: false,
        sources: distinctSources(turn.found),
        limits,
      };
    }
    messages.push({
      role: "assistant",
      content: reply.content || null,
      tool_calls: reply.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: replayableArguments(call.arguments) },
      })),
    });
    for (const [position, call] of reply.toolCalls.entries()) {
      // A reply of hundreds of calls is not run: each would cost a write and its result a place in every later request.
      if (position >= MAX_CALLS_PER_ROUND) {
        messages.push({
          role: "tool",
          tool_call_id: call.id,
          content: toolJson({ ok: false, error: `too many calls in one reply (${MAX_CALLS_PER_ROUND} at most): this one was not run` }),
        });
        continue;
      }
      const result = await executeTool(input.memory, call.name, call.arguments, {
        now: input.now,
        turn,
        writer: input.writer,
        // The turn's copy (settings.json read at most once a turn), read again after a save in this process.
        settings: input.memory.readSettings(),
        ...(input.onMemoryWrite ? { onWrite: input.onMemoryWrite } : {}),
        ...(input.platform ? { platform: input.platform } : {}),
        ...(input.publicPlace ? { publicPlace: input.publicPlace } : {}),
        ...(input.server ? { server: input.server } : {}),
        ...(input.words ? { words: input.words } : {}),
        ...(input.guestTurn ? { guestTurn: true } : {}),
      });
      messages.push({ role: "tool", tool_call_id: call.id, content: result });
    }
    needsBreak = true;
  }
}
