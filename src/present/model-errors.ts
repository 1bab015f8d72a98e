import type { Say } from "../lib/locale.js";
import type { ModelError } from "../model/model-client.js";

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
      return say(
        `Could not reach the model server${at} (OPENAI_BASE_URL). Is it running?`,
        `无法连接模型服务器${atZh}（OPENAI_BASE_URL）。它在运行吗？`,
      );
    case "wrong-base-url":
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
      return say(`The model server rejected the request${http}. Check OPENAI_MODEL.`, `模型服务器拒绝了请求${http}。请检查 OPENAI_MODEL。`);
    case "bad-response":
      return say(
        "The model server stopped answering in the middle (the connection broke or the answer was garbled). Please try again.",
        "模型服务器中途停止了回答（连接断开或回答损坏），请再试一次。",
      );
  }
}
