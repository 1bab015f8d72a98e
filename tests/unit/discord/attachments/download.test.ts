import { describe, expect, it } from "vitest";
import { downloadPrefix, downloadWhole } from "../../../../src/discord/attachments/download.js";

const URL_WITH_SIGNATURE = "https://cdn.discordapp.com/attachments/1/2/a.log?ex=6700&is=6600&hm=abc123&";

/** A server answer streamed in chunks, that remembers how much was pulled and whether the reader gave up. */
function streamedBody(total: number, chunk = 1024) {
  const seen = { sent: 0, cancelled: false, urls: [] as string[] };
  const fetchIt: typeof fetch = async (input) => {
    seen.urls.push(String(input));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const size = Math.min(chunk, total - seen.sent);
        if (size <= 0) return controller.close();
        seen.sent += size;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return new Response(body, { status: 200 });
  };
  return { seen, fetchIt };
}

describe("downloadPrefix", () => {
  it("reads a whole small file and says it is complete", async () => {
    const { seen, fetchIt } = streamedBody(3000);
    const got = await downloadPrefix(URL_WITH_SIGNATURE, 10_000, { fetch: fetchIt });
    expect(got).toMatchObject({ ok: true, value: { complete: true } });
    expect(got.ok && got.value.bytes.length).toBe(3000);
    expect(seen.urls).toEqual([URL_WITH_SIGNATURE]);
  });

  it("stops reading a long file at the budget and cancels the rest of the download", async () => {
    const { seen, fetchIt } = streamedBody(50 * 1024 * 1024);
    const got = await downloadPrefix(URL_WITH_SIGNATURE, 100 * 1024, { fetch: fetchIt });
    expect(got).toMatchObject({ ok: true, value: { complete: false } });
    expect(got.ok && got.value.bytes.length).toBe(100 * 1024);
    expect(seen.cancelled).toBe(true);
    expect(seen.sent).toBeLessThan(200 * 1024);
  });

  it("counts a file of exactly the budget as complete", async () => {
    const { fetchIt } = streamedBody(4096);
    expect(await downloadPrefix(URL_WITH_SIGNATURE, 4096, { fetch: fetchIt })).toMatchObject({ ok: true, value: { complete: true } });
  });
});

describe("downloadWhole", () => {
  it("refuses, without reading on, a file that turns out larger than its limit, whatever size it claimed", async () => {
    const { seen, fetchIt } = streamedBody(5 * 1024 * 1024, 64 * 1024);
    expect(await downloadWhole(URL_WITH_SIGNATURE, 1024 * 1024, { fetch: fetchIt })).toEqual({ ok: false, error: { reason: "too-big" } });
    expect(seen.cancelled).toBe(true);
    expect(seen.sent).toBeLessThan(2 * 1024 * 1024);
  });

  it("refuses before reading when the server announces a length over the limit", async () => {
    let pulled = false;
    const fetchIt: typeof fetch = async () =>
      new Response(new ReadableStream({ pull: () => void (pulled = true) }, { highWaterMark: 0 }), { headers: { "content-length": String(20 * 1024 * 1024) } });
    expect(await downloadWhole(URL_WITH_SIGNATURE, 1024, { fetch: fetchIt })).toEqual({ ok: false, error: { reason: "too-big" } });
    expect(pulled).toBe(false);
  });
});

describe("download failures are values", () => {
  it("reports an HTTP error with its status", async () => {
    const fetchIt: typeof fetch = async () => new Response("This content is no longer available.", { status: 404 });
    expect(await downloadWhole(URL_WITH_SIGNATURE, 1024, { fetch: fetchIt })).toEqual({ ok: false, error: { reason: "http", status: 404 } });
  });

  it("reports a network error", async () => {
    const fetchIt: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    expect(await downloadPrefix(URL_WITH_SIGNATURE, 1024, { fetch: fetchIt })).toEqual({ ok: false, error: { reason: "network" } });
  });

  it("gives up on a server that stops sending, after the timeout", async () => {
    const hanging: typeof fetch = async (_input, init) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new Uint8Array([1]));
            init?.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
          },
        }),
      );
    const started = Date.now();
    expect(await downloadPrefix(URL_WITH_SIGNATURE, 1024, { fetch: hanging, timeoutMs: 50 })).toEqual({ ok: false, error: { reason: "timeout" } });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    const waitsForAbort: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const pending = downloadWhole(URL_WITH_SIGNATURE, 1024, { fetch: waitsForAbort, signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: { reason: "aborted" } });
  });
});
