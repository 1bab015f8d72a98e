import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import type { HealthReport } from "./health.js";

export interface OpsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  health: () => Promise<HealthReport>;
}

export interface OpsServer {
  /** Where it listens (the port it got, when asked for port 0). */
  url: string;
  close(): Promise<void>;
}

/** GET /healthz (200 or 503 with a reason, JSON) and GET /metrics (Prometheus text); nothing else. */
export async function startOpsServer({ host, port, registry, health }: OpsServerOptions): Promise<OpsServer> {
  const server = createServer((request, response) => {
    void answer(request, response).catch((error: unknown) => send(response, 500, "text/plain", `${(error as Error).message}\n`));
  });
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://ops").pathname;
    if (request.method !== "GET" && request.method !== "HEAD") return send(response, 405, "text/plain", "GET only\n");
    if (path === "/healthz") {
      const report = await health();
      return send(response, report.ok ? 200 : 503, "application/json", JSON.stringify(report));
    }
    if (path === "/metrics") return send(response, 200, registry.contentType, await registry.metrics());
    send(response, 404, "text/plain", "/healthz or /metrics\n");
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(":") ? `[${address}]` : address}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(response.req.method === "HEAD" ? undefined : body);
}
