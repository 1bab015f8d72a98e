import { describe, expect, it } from "vitest";
import { kindOf } from "../../../../src/discord/attachments/attachment-kind.js";

describe("kindOf", () => {
  it("sends PNG, JPEG, WebP and GIF to the image reader, by extension or content type", () => {
    expect(kindOf("cat.png", "image/png")).toEqual({ kind: "image" });
    expect(kindOf("IMG_0001.JPG", null)).toEqual({ kind: "image" });
    expect(kindOf("photo.jpeg", "image/jpeg")).toEqual({ kind: "image" });
    expect(kindOf("sticker.webp", "image/webp")).toEqual({ kind: "image" });
    expect(kindOf("dance.gif", "image/gif")).toEqual({ kind: "image" });
    expect(kindOf("clipboard", "image/png")).toEqual({ kind: "image" });
  });

  it("names image formats the model cannot take", () => {
    expect(kindOf("logo.svg", "image/svg+xml")).toEqual({ kind: "unsupported-image", format: "SVG" });
    expect(kindOf("drawing", "image/svg+xml")).toEqual({ kind: "unsupported-image", format: "SVG" });
    expect(kindOf("IMG_0002.HEIC", "image/heic")).toEqual({ kind: "unsupported-image", format: "HEIC" });
    expect(kindOf("scan.tiff", "image/tiff")).toEqual({ kind: "unsupported-image", format: "TIFF" });
    expect(kindOf("old.bmp", "image/bmp")).toEqual({ kind: "unsupported-image", format: "BMP" });
    expect(kindOf("new.avif", "image/avif")).toEqual({ kind: "unsupported-image", format: "AVIF" });
    expect(kindOf("x", "image/x-portable-pixmap")).toEqual({ kind: "unsupported-image", format: "X-PORTABLE-PIXMAP" });
  });

  it("reads source, data, config and log files as text, with a fence language where one is obvious", () => {
    expect(kindOf("server.log", "text/plain")).toEqual({ kind: "text", language: "log" });
    expect(kindOf("notes.md", "text/markdown")).toEqual({ kind: "text", language: "markdown" });
    expect(kindOf("notes.txt", "text/plain; charset=utf-8")).toEqual({ kind: "text", language: "" });
    expect(kindOf("config.yml", null)).toEqual({ kind: "text", language: "yaml" });
    expect(kindOf("main.py", "text/x-python")).toEqual({ kind: "text", language: "python" });
    expect(kindOf("Cargo.toml", null)).toEqual({ kind: "text", language: "toml" });
    expect(kindOf("Dockerfile", null)).toEqual({ kind: "text", language: "dockerfile" });
    expect(kindOf("Makefile", "application/octet-stream")).toEqual({ kind: "text", language: "makefile" });
    expect(kindOf("data.json", "application/json")).toEqual({ kind: "text", language: "json" });
    expect(kindOf("query", "application/sql")).toEqual({ kind: "text", language: "" });
    expect(kindOf("page", "text/html")).toEqual({ kind: "text", language: "" });
  });

  it("goes by the extension when Discord's content type is wrong for it (.ts is not an MPEG stream)", () => {
    expect(kindOf("bot.ts", "video/mp2t")).toEqual({ kind: "text", language: "typescript" });
  });

  it("keeps files that usually hold secrets out, even when they are text", () => {
    expect(kindOf(".env", "text/plain")).toEqual({ kind: "secret" });
    expect(kindOf(".env.production", null)).toEqual({ kind: "secret" });
    expect(kindOf("server.key", null)).toEqual({ kind: "secret" });
    expect(kindOf("cert.pem", "application/x-pem-file")).toEqual({ kind: "secret" });
    expect(kindOf("id_ed25519", null)).toEqual({ kind: "secret" });
    expect(kindOf(".env.example", null)).toEqual({ kind: "text", language: "" });
  });

  it("refuses every .env file but examples, samples and templates", () => {
    for (const name of [
      ".env",
      ".ENV",
      ".env.local",
      ".env.production.local",
      ".env.dist",
      ".env.test",
      ".env.example.bak",
      ".envrc",
      ".env-prod",
      ".env_backup",
      ".env~",
      "prod.env",
      "prod.env.txt",
    ]) {
      expect(kindOf(name, "text/plain")).toEqual({ kind: "secret" });
    }
    for (const name of [".env.example", ".env.sample", ".env.template", ".env.local.example", ".ENV.Example"]) {
      expect(kindOf(name, null)).toEqual({ kind: "text", language: "" });
    }
  });

  it("refuses credential files by name, whatever their extension says", () => {
    for (const name of [
      "credentials.json",
      "Credentials.JSON",
      "credentials",
      "service-account.json",
      "service-account-prod.json",
      "service_account.json",
      "client_secret_1234.apps.googleusercontent.com.json",
      ".git-credentials",
      ".pypirc",
      ".npmrc",
      ".netrc",
      ".pgpass",
      ".htpasswd",
      "id_rsa",
      "id_ed25519",
      "id_ecdsa_sk",
      "id_rsa.pub",
      "id_work",
      "vault.kdbx",
      "AuthKey_ABC123.p8",
      "credentials.txt",
      "aws_credentials",
      "id_rsa.txt",
      "terraform.tfvars",
      "terraform.tfstate",
      "my-service-account.json",
      "sa-key.json",
    ]) {
      expect(kindOf(name, "application/json")).toEqual({ kind: "secret" });
    }
    for (const name of ["credentials-guide.md", "identity.json", "ids.txt", "service.json", "package.json", "environment.md", "venv.txt", "keyboard.json"]) {
      expect(kindOf(name, null).kind).not.toBe("secret");
    }
  });

  it("leaves everything else to the 'cannot read this kind of file' answer", () => {
    for (const [name, type] of [
      ["report.pdf", "application/pdf"],
      ["photos.zip", "application/zip"],
      ["clip.mp4", "video/mp4"],
      ["letter.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      ["blob", null],
      ["song.mp3", "audio/mpeg"],
    ] as const) {
      expect(kindOf(name, type)).toEqual({ kind: "other" });
    }
  });
});
