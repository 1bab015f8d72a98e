import { describe, expect, it } from "vitest";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";
import { english, type Say } from "../../../src/lib/locale.js";
import { ModelError } from "../../../src/model/model-error.js";
import type { ModelErrorKind } from "../../../src/lib/telemetry.js";
import { contextWarningLine, modelErrorLine, noImagesLine, noToolsLine, serverNoticeLine } from "../../../src/present/model-errors.js";
import type { ModelRefusal } from "../../../src/lib/telemetry.js";
import type { ServerAction } from "../../../src/model/model-client.js";

const chinese: Say = (_en, zh) => zh;
const error = (kind: ModelErrorKind, baseURL = "http://localhost:11434", status?: number) =>
  new ModelError(kind, { baseURL, ...(status !== undefined ? { status } : {}) });

describe("what a person is told when the model fails", () => {
  it("points a base URL without /v1 at OPENAI_BASE_URL and /v1, with the address it should have, in English and Chinese", () => {
    const en = modelErrorLine(error("wrong-base-url", "http://localhost:11434/", 404), english);
    expect(en).toContain("OPENAI_BASE_URL");
    expect(en).toContain("http://localhost:11434/v1");
    expect(en).toContain("404");
    const zh = modelErrorLine(error("wrong-base-url", "http://localhost:11434", 404), chinese);
    expect(zh).toContain("OPENAI_BASE_URL");
    expect(zh).toContain("http://localhost:11434/v1");
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
  });

  it("names the base to set for a redirect it did not follow, in English and Chinese, and reads the address in linear time", () => {
    const redirected = (reason: string) => new ModelError("wrong-base-url", { baseURL: "http://127.0.0.1:8080/v1", status: 301, reason });
    expect(modelErrorLine(redirected("http://localhost:9000/v1/chat/completions"), english)).toContain("set OPENAI_BASE_URL to http://localhost:9000/v1.");
    expect(modelErrorLine(redirected("http://localhost:9000/v1/chat/completions"), chinese)).toContain("请把 OPENAI_BASE_URL 设为 http://localhost:9000/v1。");
    expect(modelErrorLine(redirected("a javascript: address"), english)).toContain("Check OPENAI_BASE_URL.");
    expect(modelErrorLine(redirected("http://localhost:9000/v1/chat/completions"), english, { showAddress: false })).not.toContain("localhost:9000");
    expectLinear(
      (size) => `http://${repeatTo("/chat/completion", size)}`,
      (reason) => modelErrorLine(redirected(reason), english),
    );
  });

  it("has one line per kind in each language, naming the setting to check where there is one", () => {
    const kinds: [ModelErrorKind, RegExp][] = [
      ["unreachable", /OPENAI_BASE_URL/],
      ["auth", /OPENAI_API_KEY/],
      ["refused", /OPENAI_MODEL/],
      ["rate-limit", /./],
      ["server", /503/],
      ["timeout", /./],
      ["bad-response", /./],
    ];
    for (const [kind, names] of kinds) {
      for (const say of [english, chinese]) {
        const line = modelErrorLine(error(kind, "http://localhost:11434/v1", 503), say);
        expect(line, kind).toMatch(names);
        expect(line.split("\n"), kind).toHaveLength(1);
        expect(line, kind).not.toMatch(/undefined|\[object/);
      }
      expect(modelErrorLine(error(kind), chinese), kind).not.toBe(modelErrorLine(error(kind), english));
    }
  });

  const refusals: [ModelRefusal, RegExp][] = [
    ["no-tools", /qwen3/],
    ["tools-with-stream", /#12379/],
    ["tools-need-jinja", /--jinja/],
    ["tools-need-parser", /--enable-auto-tool-choice --tool-call-parser/],
    ["no-vision", /OPENAI_VISION/],
    ["bad-image", /PNG/],
    ["template", /template|模板/],
    ["context", /OPENAI_CONTEXT_TOKENS/],
    ["system-message", /system|系统/],
    ["tool-arguments", /./],
    ["parameter", /parallel_tool_calls/],
  ];
  const refused = (refusal: ModelRefusal) =>
    new ModelError("refused", {
      baseURL: "http://localhost:8080/v1",
      model: "qwen2.5",
      status: 400,
      reason: "the server's own words",
      refusal,
      parameter: "parallel_tool_calls",
    });

  it("gives the operator the server's own words and the fix for every refusal it knows, in English and Chinese", () => {
    for (const [refusal, fix] of refusals) {
      for (const say of [english, chinese]) {
        const line = modelErrorLine(refused(refusal), say);
        expect(line, refusal).toContain("“the server's own words”");
        expect(line, refusal).toMatch(fix);
        expect(line.split("\n"), refusal).toHaveLength(1);
        expect(line, refusal).not.toMatch(/try again|再试/i);
      }
      expect(modelErrorLine(refused(refusal), chinese)).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it("gives a person in Discord one short line without the server's words, and never try again for a refusal", () => {
    for (const [refusal] of refusals) {
      for (const say of [english, chinese]) {
        const line = modelErrorLine(refused(refusal), say, { showAddress: false });
        expect(line, refusal).not.toContain("the server's own words");
        expect(line, refusal).not.toContain("localhost");
        expect(line, refusal).not.toMatch(/try again|再试/i);
      }
    }
    expect(modelErrorLine(refused("context"), english, { showAddress: false })).toMatch(/End it with \/end and write again/);
  });

  it("words what the client does instead, the context warning and the once-per-conversation lines in both languages", () => {
    const actions: [ServerAction, ModelRefusal][] = [
      ["without-tools", "no-tools"],
      ["without-streaming", "tools-with-stream"],
      ["images-as-png", "bad-image"],
      ["without-images", "no-vision"],
      ["without-parameter", "parameter"],
      ["without-schema", "parameter"],
    ];
    for (const [action, refusal] of actions) {
      const en = serverNoticeLine({ action, error: refused(refusal), scope: "process" }, english);
      const zh = serverNoticeLine({ action, error: refused(refusal), scope: "process" }, chinese);
      const once = serverNoticeLine({ action, error: refused(refusal), scope: "request" }, english);
      expect(once).toMatch(/AgentKit sent that request again .*nothing changes for the others\.$/);
      expect(serverNoticeLine({ action, error: refused(refusal), scope: "request" }, chinese)).toMatch(/其他请求不受影响/);
      expect(en).toMatch(/^The model server at http:\/\/localhost:8080\/v1 refused a request for qwen2\.5: “the server's own words”\. AgentKit/);
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
      expect(en).not.toBe(zh);
    }
    expect(contextWarningLine(4096, 5435, english)).toMatch(/^OPENAI_CONTEXT_TOKENS is 4096: .*about 5435 tokens \(133%\)/);
    expect(contextWarningLine(4096, 5435, chinese)).toMatch(/OLLAMA_CONTEXT_LENGTH=32768/);
    for (const say of [english, chinese]) {
      expect(noToolsLine(say, "discord")).toMatch(/\/memory add/);
      expect(noToolsLine(say, "terminal")).not.toMatch(/\/memory add/);
      expect(noImagesLine(say)).toMatch(/^🖼️/);
    }
  });
});
