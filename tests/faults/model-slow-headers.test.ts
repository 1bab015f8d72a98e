import http from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { modelFetch } from "../../src/model/model-fetch.js";

// In the faults tier, where each file has a process of its own: undici's timers keep one clock for
// the process (lib/util/timers.js, a tick every 499 ms started by the first wait), and the fake
// clock has to be the one it starts on.
let server: http.Server;
let url: string;
const waiting: http.ServerResponse[] = [];
beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => waiting.push(response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"] });
});
afterAll(async () => {
  vi.useRealTimers();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What a fetch gives when the server takes 301 s to send its headers. */
async function after301s(fetch: ReturnType<typeof modelFetch>): Promise<number | string> {
  const answer = fetch(url, { method: "POST", body: "{}" }).then(
    (response) => response.status,
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  );
  const before = waiting.length;
  await vi.waitFor(() => expect(waiting.length).toBe(before + 1), { interval: 5 });
  await vi.advanceTimersByTimeAsync(301_000);
  const response = waiting.at(-1)!;
  if (!response.writableEnded && !response.destroyed) {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end("data: [DONE]\n\n");
  }
  return answer;
}

describe("the model server's fetch on a slow machine", () => {
  it("waits for the headers past 300 s, where undici's own default (Node's fetch's too) gives up; the client's timers decide", async () => {
    expect(await after301s(modelFetch(new Agent()))).toBe("UND_ERR_HEADERS_TIMEOUT");
    expect(await after301s(modelFetch())).toBe(200);
  });
});
