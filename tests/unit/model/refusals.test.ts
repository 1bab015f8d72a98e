import { describe, expect, it } from "vitest";
import { recogniseRefusal } from "../../../src/model/refusals.js";
import { serverReason } from "../../../src/model/model-error.js";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";

describe("refusals the model servers word the same way every time", () => {
  it.each([
    ["registry.ollama.ai/library/llava:latest does not support tools", "no-tools"],
    ["Cannot use tools with stream", "tools-with-stream"],
    ["tools param requires --jinja flag", "tools-need-jinja"],
    ['"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', "tools-need-parser"],
    ["invalid image input", "no-images"],
    ["image input is not supported - hint: if this is unexpected, you may need to provide the mmproj", "no-images"],
    ["Qwen/Qwen2.5-7B-Instruct is not a multimodal model None", "no-images"],
    ["Failed to parse messages: Unsupported content part type", "no-images"],
    ["request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it exceed_context_size_error", "context"],
    ["This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens.", "context"],
    ["Unable to generate parser for this template. … Error: Jinja Exception: System message must be at the beginning.", "system-message"],
    ["invalid tool call arguments", "tool-arguments"],
    ["Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", "parameter"],
  ] as const)("knows %j", (text, refusal) => {
    expect(recogniseRefusal(text)?.refusal).toBe(refusal);
  });

  it("knows nothing of an ordinary error, and names the parameter refused", () => {
    expect(recogniseRefusal("model 'llama3' not found")).toBeUndefined();
    expect(recogniseRefusal("Scripted 500 error")).toBeUndefined();
    expect(recogniseRefusal("parallel_tool_calls is not supported")).toEqual({ refusal: "parameter", parameter: "parallel_tool_calls" });
  });

  it("keeps the server's reason short and on one line, without long quoted runs, in linear time", () => {
    expect(serverReason("a\nb\tc")).toBe("a b c");
    expect(serverReason("This model's maximum context length is 4096 tokens.")).toBe("This model's maximum context length is 4096 tokens.");
    expect(serverReason(`bad "${"x".repeat(100)}`)).toBe('bad "…');
    expect(serverReason("y".repeat(1000))).toHaveLength(240);
    expectLinear((size) => repeatTo('"a', size), (input) => serverReason(input));
    expectLinear((size) => repeatTo("does not support ", size), (input) => recogniseRefusal(input));
  });
});
