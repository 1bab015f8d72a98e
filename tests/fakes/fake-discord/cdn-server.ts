import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { cdnPath, hasValidSignature, type CdnFolder } from "./attachments.js";
import type { CdnRequest, RecordedAttachment } from "./model.js";
import type { FakeDiscordState } from "./state.js";

/**
 * The fake's cdn.discordapp.com, on a loopback port of its own: serves message attachments under
 * `/attachments/<channel>/<attachment>/<filename>` and slash-command uploads under
 * `/ephemeral-attachments/…`, only at the signed links the fake handed out, as Discord's CDN does.
 */
export async function startCdnServer(state: FakeDiscordState): Promise<Server> {
  const server = createServer((request, response) => serve(state, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  state.cdnBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

function serve(state: FakeDiscordState, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const method = (request.method ?? "GET").toUpperCase();
  const record: CdnRequest = {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    status: 0,
    at: Date.now(),
    bytesSent: 0,
    body: "none",
  };
  state.cdnRequests.push(record);
  const answer = (status: number, headers: Record<string, string> = {}, body?: Buffer) => {
    record.status = status;
    response.writeHead(status, headers);
    response.end(method === "HEAD" ? undefined : body);
  };
  if (method !== "GET" && method !== "HEAD") return answer(405, { allow: "GET, HEAD" });
  const found = fileAt(state, url.pathname);
  if (!found || !hasValidSignature(state, cdnPath(found.folder, found.channelId, found.attachment), url.searchParams)) {
    // Discord's CDN answers unsigned, expired and altered links as if there were no file.
    return answer(404, { "content-type": "text/plain" }, Buffer.from("This content is no longer available."));
  }
  const { attachment } = found;
  const headers = { "content-type": attachment.contentType ?? "application/octet-stream", "content-length": String(attachment.size) };
  if (method === "HEAD") return answer(200, headers);
  record.status = 200;
  response.writeHead(200, headers);
  sendBody(response, attachment.data, record);
}

/** Chunk size of a download; small enough that a reader who stops early leaves most of a large file unsent. */
const SEND_CHUNK = 64 * 1024;

/**
 * Writes the file in chunks, waiting for the connection to drain between them as a real server
 * does, and records how much was sent, so a test can tell a download that was cut short (the
 * reader cancelled its stream) from one that fetched everything.
 */
function sendBody(response: ServerResponse, data: Buffer, record: CdnRequest): void {
  record.body = "sending";
  let offset = 0;
  response.on("finish", () => (record.body = "sent"));
  response.on("close", () => {
    if (!response.writableFinished) record.body = "cut";
  });
  const pump = (): void => {
    while (offset < data.length && !response.destroyed) {
      const chunk = data.subarray(offset, offset + SEND_CHUNK);
      offset += chunk.length;
      record.bytesSent = offset;
      if (!response.write(chunk)) {
        response.once("drain", pump);
        return;
      }
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

function fileAt(state: FakeDiscordState, pathname: string): { folder: CdnFolder; channelId: string; attachment: RecordedAttachment } | undefined {
  const [, folder, channelId, attachmentId, encodedName, ...rest] = pathname.split("/");
  if (!channelId || !attachmentId || !encodedName || rest.length > 0) return undefined;
  let filename: string;
  try {
    filename = decodeURIComponent(encodedName);
  } catch {
    return undefined;
  }
  let attachment: RecordedAttachment | undefined;
  if (folder === "attachments") {
    // A deleted message takes its files with it.
    attachment = [...state.messages.values()]
      .filter((m) => m.channelId === channelId && !m.deleted)
      .flatMap((m) => m.attachments)
      .find((a) => a.id === attachmentId);
  } else if (folder === "ephemeral-attachments") {
    const upload = state.commandAttachments.get(attachmentId);
    attachment = upload?.channelId === channelId ? upload.attachment : undefined;
  } else {
    return undefined;
  }
  return attachment && attachment.filename === filename ? { folder, channelId, attachment } : undefined;
}
