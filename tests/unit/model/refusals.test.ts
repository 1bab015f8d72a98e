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
    ["invalid image input", "bad-image"],
    ["Failed to load image or audio file", "bad-image"],
    ["image input is not supported - hint: if this is unexpected, you may need to provide the mmproj", "no-vision"],
    ["Qwen/Qwen2.5-7B-Instruct is not a multimodal model None", "no-vision"],
    ["Failed to parse messages: Unsupported content part type", "no-vision"],
    ["Unable to generate parser for this template. … Error: Jinja Exception: Conversation roles must alternate user/assistant", "template"],
    ["request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it exceed_context_size_error", "context"],
    ["This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens.", "context"],
    ["Unable to generate parser for this template. … Error: Jinja Exception: System message must be at the beginning.", "system-message"],
    ["invalid tool call arguments", "tool-arguments"],
    ["registry.ollama.ai/library/llava:latest does not support tools", "no-tools"],
    ['"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set None', "tools-need-parser"],
    ["response_format json_schema is not supported (parameter=response_format)", "parameter"],
    ["Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", "parameter"],
  ] as const)("knows %j", (text, refusal) => {
    expect(recogniseRefusal(text)?.refusal).toBe(refusal);
  });

  it("is not taught by someone's words that a server echoes back in its error", () => {
    const echoes = [
      "Failed to parse input at pos 0: My old laptop does not support tools.",
      "My old laptop does not support tools",
      `Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] last read: '"note: my laptop does not support tools`,
      "1 validation error: input_value='the image does not support tools', input_type=str",
      'Value error, "this phone does not support tools and image input is not supported" is not valid',
      "Failed to parse input at pos 12: invalid image input",
      "Cannot use tools with stream because I said so",
    ];
    for (const text of echoes) expect(recogniseRefusal(text), text).toBeUndefined();
  });

  it("knows nothing of an ordinary error, and names the parameter refused", () => {
    expect(recogniseRefusal("model 'llama3' not found")).toBeUndefined();
    expect(recogniseRefusal("Scripted 500 error")).toBeUndefined();
    expect(recogniseRefusal("parallel_tool_calls is not supported")).toEqual({ refusal: "parameter", parameter: "parallel_tool_calls" });
    // A type or code counts whole.
    expect(recogniseRefusal("too long", ["exceed_context_size_error"])?.refusal).toBe("context");
    expect(recogniseRefusal("too long", ["context_length_exceeded"])?.refusal).toBe("context");
  });

  it("keeps the server's reason short and on one line, without long quoted runs, in linear time", () => {
    expect(serverReason("a\nb\tc")).toBe("a b c");
    expect(serverReason("This model's maximum context length is 4096 tokens.")).toBe("This model's maximum context length is 4096 tokens.");
    expect(serverReason(`bad "${"x".repeat(100)}" here`)).toBe('bad "…" here');
    expect(serverReason("Value error, 'my secret medical condition is diabetes type 2 and I take metformin daily' is not valid")).toBe(
      "Value error, '…' is not valid",
    );
    expect(serverReason("Failed to parse input at pos 3: I told you my address is 5 Kestrel Lane")).toBe("Failed to parse input at pos …");
    expect(serverReason("1 validation error for ChatCompletionRequest input_value={'secret': 'my diary'}")).toBe(
      "1 validation error for ChatCompletionRequest input_value= …",
    );
    expect(serverReason("y".repeat(1000))).toHaveLength(240);
    expectLinear(
      (size) => repeatTo('"a', size),
      (input) => serverReason(input),
    );
    expectLinear(
      (size) => repeatTo("does not support ", size),
      (input) => recogniseRefusal(input),
    );
  });
});
