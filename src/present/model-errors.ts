import { english, type Say } from "../lib/locale.js";
import type { Logger } from "../lib/logger.js";
import type { ModelError } from "../model/model-error.js";
import type { ServerNotice } from "../model/model-client.js";

/** The address OPENAI_BASE_URL should have: the same with /v1 at the end. */
function withV1(baseURL: string): string {
  let base = baseURL;
  while (base.endsWith("/")) base = base.slice(0, -1);
  return `${base}/v1`;
}

/** One line for a person, in their language, saying what failed and what to do (Discord and the terminal chat). */
export function modelErrorLine(error: ModelError, say: Say, { showAddress = true } = {}): string {
  const { status } = error.details;
  // In Discord everyone in the channel reads the line: the server's address stays in the operator's log.
  const baseURL = error.details.baseURL;
  const at = showAddress ? ` at ${baseURL}` : "";
  const atZh = showAddress ? ` ${baseURL}` : "";
  const http = status === undefined ? "" : ` (HTTP ${status})`;
  switch (error.kind) {
    case "unreachable":
      return say(`Could not reach the model server${at} (OPENAI_BASE_URL). Is it running?`, `无法连接模型服务器${atZh}（OPENAI_BASE_URL）。它在运行吗？`);
    case "wrong-base-url":
      if (status !== undefined && status >= 300 && status < 400 && error.details.reason) {
        // A redirect the client does not follow (another origin, or a 301/302): the operator sets the address it names.
        if (!showAddress) {
          return say(
            `The model server sent the request to another address${http}; the bot's operator can see which in its log (OPENAI_BASE_URL).`,
            `模型服务器把请求转到了另一个地址${http}；机器人的管理员可以在日志里看到是哪个（OPENAI_BASE_URL）。`,
          );
        }
        // The address named is the endpoint's; OPENAI_BASE_URL is its base (config.ts refuses the endpoint).
        const base = /^https?:\/\/\S+\/(chat\/completions|embeddings)$/.test(error.details.reason)
          ? error.details.reason.replace(/\/(chat\/completions|embeddings)$/, "")
          : undefined;
        return base
          ? say(
              `The model server at ${baseURL} sent the request elsewhere${http}${theirWords(error, say)}. If that server is the one to use, set OPENAI_BASE_URL to ${base}.`,
              `模型服务器 ${baseURL} 把请求转到了别处${http}${theirWords(error, say)}。如果要用那台服务器，请把 OPENAI_BASE_URL 设为 ${base}。`,
            )
          : say(
              `The model server at ${baseURL} sent the request elsewhere${http}${theirWords(error, say)}. Check OPENAI_BASE_URL.`,
              `模型服务器 ${baseURL} 把请求转到了别处${http}${theirWords(error, say)}。请检查 OPENAI_BASE_URL。`,
            );
      }
      if (!showAddress) {
        return say(
          `The model server has no chat API at the configured address${http}: OPENAI_BASE_URL usually ends in /v1.`,
          `模型服务器在所配置的地址下没有聊天接口${http}：OPENAI_BASE_URL 通常以 /v1 结尾。`,
        );
      }
      return say(
        `The model server at ${baseURL} has no chat API there${http}: OPENAI_BASE_URL usually ends in /v1, e.g. ${withV1(baseURL)}.`,
        `模型服务器 ${baseURL} 的这个地址下没有聊天接口${http}：OPENAI_BASE_URL 通常以 /v1 结尾，例如 ${withV1(baseURL)}。`,
      );
    case "auth":
      return say(`The model server refused the API key (OPENAI_API_KEY)${http}.`, `模型服务器拒绝了 API 密钥（OPENAI_API_KEY）${http}。`);
    case "rate-limit":
      return say("The model is busy right now (rate limited). Please try again in a moment.", "模型现在太忙了（请求受限），请稍后再试。");
    case "server":
      return say(`The model server had an error${http}. Please try again in a moment.`, `模型服务器出错了${http}，请稍后再试。`);
    case "timeout":
      return say("The model took too long to answer. Please try again.", "模型回答超时，请再试一次。");
    case "refused":
      return refusedLine(error, say, showAddress);
    case "bad-response":
      return say(
        "The model server stopped answering in the middle (the connection broke or the answer was garbled). Please try again.",
        "模型服务器中途停止了回答（连接断开或回答损坏），请再试一次。",
      );
  }
}

/** The server's own words, quoted, for the operator (never in Discord, where everyone reads the line). */
function theirWords(error: ModelError, say: Say): string {
  const reason = error.details.reason;
  return reason ? say(`: “${reason}”`, `：“${reason}”`) : "";
}

/**
 * A refused request. In Discord one short line in the person's language, never "try again" (a
 * refusal does not change); for the operator (the log, the terminal chat) the server's own words
 * and, for a refusal AgentKit knows, its fix.
 */
function refusedLine(error: ModelError, say: Say, showAddress: boolean): string {
  const { status, refusal, model } = error.details;
  const http = status === undefined ? "" : ` (HTTP ${status})`;
  if (!showAddress) {
    if (refusal === "context") {
      return say(
        "This conversation no longer fits in what the model can read at once. End it with /end and write again to start a new one; the bot's operator can give the model a longer context.",
        "这段对话已经超出了模型一次能读的长度。请用 /end 结束，再发消息开始新的对话；机器人的管理员可以给模型更长的上下文。",
      );
    }
    return say(
      `The model server refused the request${http}; the bot's operator can see why in its log (OPENAI_MODEL and the server's settings).`,
      `模型服务器拒绝了请求${http}；机器人的管理员可以在日志里看到原因（OPENAI_MODEL 和服务器的设置）。`,
    );
  }
  const fix = refusal ? ` ${refusalFix(error, say)}` : say(" Check OPENAI_MODEL and the server's settings.", " 请检查 OPENAI_MODEL 和服务器的设置。");
  return say(
    `The model server at ${error.details.baseURL} refused the request for ${model ?? "the model"}${http}${theirWords(error, say)}.${fix}`,
    `模型服务器 ${error.details.baseURL} 拒绝了对 ${model ?? "模型"} 的请求${http}${theirWords(error, say)}。${fix}`,
  );
}

/** What the operator should change for a refusal AgentKit recognised (src/model/refusals.ts). */
function refusalFix(error: ModelError, say: Say): string {
  const model = error.details.model ?? "OPENAI_MODEL";
  switch (error.details.refusal) {
    case "no-tools":
      return say(
        `The model ${model} does not support tools, so it cannot save to memory (people's /memory commands still can). Pick a model with tool support, e.g. qwen3 or llama3.1 on Ollama (qwen3-vl to see images too).`,
        `模型 ${model} 不支持工具，所以不能保存记忆（/memory 命令仍然可以）。请选择支持工具的模型，例如 Ollama 上的 qwen3 或 llama3.1（要看图片可用 qwen3-vl）。`,
      );
    case "tools-with-stream":
      return say(
        "This llama.cpp server refuses tools while streaming (a build from before mid-2025, ggml-org/llama.cpp#12379): answers that may use tools are sent without streaming. Update llama.cpp to stream them.",
        "这个 llama.cpp 服务器不允许在流式输出时使用工具（2025 年年中之前的版本，ggml-org/llama.cpp#12379）：可能用到工具的回答不再流式发送。更新 llama.cpp 即可流式输出。",
      );
    case "tools-need-jinja":
      return say(
        "llama.cpp was started without --jinja, so the model gets no tools and cannot save to memory: start llama-server with --jinja.",
        "llama.cpp 启动时没有 --jinja，所以模型拿不到工具，不能保存记忆：请用 --jinja 启动 llama-server。",
      );
    case "tools-need-parser":
      return say(
        "vLLM was started without automatic tool choice, so the model gets no tools and cannot save to memory: start it with --enable-auto-tool-choice --tool-call-parser <the parser for this model> (e.g. hermes for Qwen, llama3_json for Llama 3.1).",
        "vLLM 启动时没有开启自动工具选择，所以模型拿不到工具，不能保存记忆：请加上 --enable-auto-tool-choice --tool-call-parser <适合该模型的解析器>（例如 Qwen 用 hermes，Llama 3.1 用 llama3_json）启动。",
      );
    case "no-vision":
      return say(
        `The model ${model} cannot see images, so they are left out: set OPENAI_VISION=false, or pick a model that sees images (Ollama: qwen3-vl; llama.cpp: start it with --mmproj).`,
        `模型 ${model} 看不到图片，所以图片被略过：请设置 OPENAI_VISION=false，或选择能看图片的模型（Ollama：qwen3-vl；llama.cpp：用 --mmproj 启动）。`,
      );
    case "bad-image":
      return say(
        "The server could not read an image in this format: it is sent as PNG, or left out of that message.",
        "服务器无法读取这种格式的图片：图片会转成 PNG 发送，否则在那条消息中略过。",
      );
    case "context":
      return say(
        "The request is longer than the model's context on the server: raise it (Ollama: OLLAMA_CONTEXT_LENGTH; llama.cpp: -c; vLLM: --max-model-len; LM Studio: the model's context length) and set OPENAI_CONTEXT_TOKENS to the same number.",
        "请求超出了服务器上模型的上下文长度：请调大它（Ollama：OLLAMA_CONTEXT_LENGTH；llama.cpp：-c；vLLM：--max-model-len；LM Studio：模型的上下文长度），并把 OPENAI_CONTEXT_TOKENS 设成同样的数。",
      );
    case "system-message":
      return say(
        "The model's chat template takes one system message, at the start, and refused the request's.",
        "模型的聊天模板只接受开头的一条系统消息，拒绝了这个请求的系统消息。",
      );
    case "template":
      return say(
        "The model's chat template refused the conversation (AgentKit sends one system message, then the person's and the assistant's turns and tool results): try another model or template.",
        "模型的聊天模板拒绝了这段对话（AgentKit 发送一条系统消息，然后是对方和助手的轮次以及工具结果）：请换一个模型或模板。",
      );
    case "tool-arguments":
      return say("The server could not read a tool call's arguments in the conversation's history.", "服务器无法读取对话历史中某次工具调用的参数。");
    case "parameter":
      return say(
        `The server does not take the request parameter ${error.details.parameter ?? ""}; AgentKit leaves it out from now on.`,
        `服务器不接受请求参数 ${error.details.parameter ?? ""}；AgentKit 今后不再发送它。`,
      );
    case undefined:
      return "";
  }
}

/**
 * What the model client learned to do instead of failing (once per process and server), for the
 * operator's log and the terminal chat: the server's words, what AgentKit does now, and the fix.
 */
export function serverNoticeLine(notice: ServerNotice, say: Say): string {
  const { error, action } = notice;
  const { baseURL, model } = error.details;
  const now = {
    "without-tools": say("AgentKit now answers without memory tools.", "AgentKit 现在不带记忆工具回答。"),
    "without-streaming": say("AgentKit now sends requests with tools without streaming.", "AgentKit 现在以非流式方式发送带工具的请求。"),
    "images-as-png": say("AgentKit now sends WebP images as PNG.", "AgentKit 现在把 WebP 图片转成 PNG 发送。"),
    "without-images": say("AgentKit now leaves images out for this model.", "AgentKit 现在对这个模型略过图片。"),
    "without-parameter": say("AgentKit now leaves that parameter out.", "AgentKit 现在不再发送这个参数。"),
    "without-schema": say(
      "AgentKit now asks for the tidy-up's JSON in the prompt only (the server does not take response_format json_schema), and checks it as before.",
      "AgentKit 现在只在提示中要求整理的 JSON（服务器不接受 response_format json_schema），并照常检查。",
    ),
  }[action];
  if (notice.scope === "request") {
    const what = {
      "without-tools": say("without tools", "不带工具"),
      "without-streaming": say("without streaming", "以非流式方式"),
      "images-as-png": say("with its images as PNG", "把图片转成 PNG"),
      "without-images": say("without its images", "不带图片"),
      "without-parameter": say("without that parameter", "不带这个参数"),
      "without-schema": say("without the schema", "不带 schema"),
    }[action];
    return say(
      `The model server at ${baseURL} refused a request for ${model ?? "the model"}${theirWords(error, say)}. AgentKit sent that request again ${what}; the same request without anyone's words was taken, so nothing changes for the others.`,
      `模型服务器 ${baseURL} 拒绝了对 ${model ?? "模型"} 的请求${theirWords(error, say)}。AgentKit ${what}重新发送了这个请求；不含任何人内容的同类请求被接受了，所以其他请求不受影响。`,
    );
  }
  const fix = action === "without-parameter" || action === "without-schema" ? "" : ` ${refusalFix(error, say)}`;
  return say(
    `The model server at ${baseURL} refused a request for ${model ?? "the model"}${theirWords(error, say)}. ${now}${fix}`,
    `模型服务器 ${baseURL} 拒绝了对 ${model ?? "模型"} 的请求${theirWords(error, say)}。${now}${fix}`,
  ).trimEnd();
}

/** The start-up warning when the largest frozen prompt and the tool schemas take more than a quarter of OPENAI_CONTEXT_TOKENS. */
export function contextWarningLine(contextTokens: number, startTokens: number, say: Say): string {
  const share = Math.round((startTokens / contextTokens) * 100);
  return say(
    `OPENAI_CONTEXT_TOKENS is ${contextTokens}: the memory files at their caps, the instructions and the tool schemas alone can take about ${startTokens} tokens (${share}%), so little is left for the conversation. Give the model a longer context (Ollama: OLLAMA_CONTEXT_LENGTH=32768; llama.cpp: -c 32768; vLLM: --max-model-len; LM Studio: the model's context length) and set OPENAI_CONTEXT_TOKENS to the same number.`,
    `OPENAI_CONTEXT_TOKENS 为 ${contextTokens}：记忆文件写满时，加上指令和工具定义，光这些就可能占约 ${startTokens} 个 token（${share}%），留给对话的很少。请给模型更长的上下文（Ollama：OLLAMA_CONTEXT_LENGTH=32768；llama.cpp：-c 32768；vLLM：--max-model-len；LM Studio：模型的上下文长度），并把 OPENAI_CONTEXT_TOKENS 设成同样的数。`,
  );
}

/**
 * Said once per conversation when the model takes no tools (a model without tool support, a
 * server started without them): the answer goes on, but nothing is saved by the model itself.
 */
export function noToolsLine(say: Say, platform: "discord" | "terminal"): string {
  return platform === "discord"
    ? say(
        "💾 This model can't save to memory, so I won't remember this by myself: /memory add saves what you want kept.",
        "💾 这个模型不能保存记忆，所以我不会自己记住这些：想保留的内容可以用 /memory add 保存。",
      )
    : say(
        "💾 This model can't save to memory, so nothing from this chat is saved by the model (the summary at the end still is).",
        "💾 这个模型不能保存记忆，所以这次聊天中模型不会自己保存任何内容（结束时的摘要仍会保存）。",
      );
}

/** Said when the model took no image of the turn (it cannot see them, or one could not be read): the words were answered. */
export function noImagesLine(say: Say): string {
  return say("🖼️ The model couldn't take the image, so I answered your words only.", "🖼️ 模型无法接收这张图片，所以我只回答了你的文字。");
}

/** Said when the message was longer than the model's context leaves (OPENAI_CONTEXT_TOKENS): the model read its start. */
export function messageCutLine(say: Say): string {
  return say(
    "✂️ Your message was longer than the model can read at once, so it read only the start.",
    "✂️ 你的消息超出了模型一次能读的长度，所以它只读了开头部分。",
  );
}

/** The operator's log line for what the model client worked around (the bot and the terminal chat alike). */
export function logServerNotice(log: Logger, notice: ServerNotice): void {
  const { baseURL, model, status, reason, refusal } = notice.error.details;
  log.warn({ baseURL, model, status, reason, refusal, action: notice.action, scope: notice.scope }, serverNoticeLine(notice, english));
}

/** The start-up warning in the operator's log when OPENAI_CONTEXT_TOKENS is small (createEngine's `context.tight`). */
export function logTightContext(log: Logger, context: { tokens: number; startTokens: number }): void {
  log.warn({ contextTokens: context.tokens, startTokens: context.startTokens }, contextWarningLine(context.tokens, context.startTokens, english));
}
