import type { Say } from "../../lib/locale.js";
import type { FileFormat } from "./file-signatures.js";
import { formatBytes } from "./sizes.js";

/**
 * What the person is told about attachments the model did not get whole, one line each,
 * led by an emoji for the kind of file. Sizes read the same in both languages ("340 KB").
 */

const IMAGE_TYPES_EN = "PNG, JPEG, WebP or GIF";
const IMAGE_TYPES_ZH = "PNG、JPEG、WebP 或 GIF";

/** Chinese puts a space between Han characters and a Latin word: "像是 zip 压缩包" but "像是可执行程序". */
const spacedZh = (word: string) => (/^[\x21-\x7e]/.test(word) ? ` ${word}` : word);

export const textLines = {
  cut: (say: Say, name: string, total: number, kept: number) =>
    say(
      `📄 ${name} is ${formatBytes(total)}; I read the first ${formatBytes(kept)}.`,
      `📄 ${name} 有 ${formatBytes(total)}，我只读了前 ${formatBytes(kept)}。`,
    ),
  overMessageBudget: (say: Say, name: string, messageBytes: number) =>
    say(
      `📄 ${name}: I didn't read it; I read at most ${formatBytes(messageBytes)} of files per message.`,
      `📄 ${name}：没有读取，每条消息的文件我最多读取 ${formatBytes(messageBytes)}。`,
    ),
  binary: (say: Say, name: string, looksLike: FileFormat | null) =>
    looksLike
      ? say(`📄 ${name} doesn't look like a text file (it looks like ${looksLike.en}).`, `📄 ${name} 看起来不是文本文件（像是${spacedZh(looksLike.zh)}）。`)
      : say(`📄 ${name} doesn't look like a text file.`, `📄 ${name} 看起来不是文本文件。`),
  encoding: (say: Say, name: string) =>
    say(`📄 ${name} isn't UTF-8 or UTF-16 text, so I couldn't read it.`, `📄 ${name} 不是 UTF-8 或 UTF-16 编码的文本，我无法读取。`),
  /** `kinds`: what the hidden things look like, each once, e.g. "an OpenAI API key" / "OpenAI API 密钥". */
  secretsHidden: (say: Say, name: string, count: number, kinds: { en: string[]; zh: string[] }) => {
    const listed = (all: string[], separator: string) => (all.length > 3 ? [...all.slice(0, 3), "…"] : all).join(separator);
    return say(
      `🔒 ${name}: I hid ${count} ${count === 1 ? "thing that looks like a secret" : "things that look like secrets"} (${listed(kinds.en, ", ")}) before reading it.`,
      `🔒 ${name}：读取前我隐去了 ${count} 处看起来像密钥的内容（${listed(kinds.zh, "、")}）。`,
    );
  },
};

export const imageLines = {
  /** `size` null: the download ran past the limit, so only that is known. */
  tooBig: (say: Say, name: string, size: number | null, limit: number) =>
    say(
      `🖼️ ${name} is ${size === null ? `over ${formatBytes(limit)}` : formatBytes(size)}; I can look at images up to ${formatBytes(limit)}.`,
      `🖼️ ${name} ${size === null ? `超过 ${formatBytes(limit)}` : `有 ${formatBytes(size)}`}，我只能查看不超过 ${formatBytes(limit)} 的图片。`,
    ),
  tooMany: (say: Say, name: string, perMessage: number) =>
    say(
      `🖼️ ${name}: skipped; I look at ${perMessage} image${perMessage === 1 ? "" : "s"} per message at most.`,
      `🖼️ ${name}：已跳过，每条消息我最多查看 ${perMessage} 张图片。`,
    ),
  animated: (say: Say, name: string) => say(`🖼️ ${name} is animated; I can only look at still images.`, `🖼️ ${name} 是动图，我只能查看静态图片。`),
  unsupported: (say: Say, name: string, format: string) =>
    say(`🖼️ ${name}: ${format} images aren't supported; please send ${IMAGE_TYPES_EN}.`, `🖼️ ${name}：不支持 ${format} 图片，请发送 ${IMAGE_TYPES_ZH}。`),
  notImage: (say: Say, name: string, looksLike: FileFormat | "text" | null) => {
    if (looksLike === null) return say(`🖼️ ${name} isn't a ${IMAGE_TYPES_EN} image.`, `🖼️ ${name} 不是 ${IMAGE_TYPES_ZH} 图片。`);
    const en = looksLike === "text" ? "text" : looksLike.en;
    const zh = looksLike === "text" ? "文本" : spacedZh(looksLike.zh);
    return say(`🖼️ ${name} isn't a valid image (it looks like ${en}).`, `🖼️ ${name} 不是有效的图片（像是${zh}）。`);
  },
  damaged: (say: Say, name: string) => say(`🖼️ ${name} looks damaged; I couldn't read its size.`, `🖼️ ${name} 似乎已损坏，我读不出它的尺寸。`),
  tooLarge: (say: Say, name: string, width: number, height: number) =>
    say(
      `🖼️ ${name} is ${width}×${height} pixels; I look at images up to 4096×4096.`,
      `🖼️ ${name} 有 ${width}×${height} 像素；我只能查看不超过 4096×4096 的图片。`,
    ),
};

export const fileLines = {
  unreadable: (say: Say, name: string, vision: boolean) =>
    vision
      ? say(`📎 ${name}: I can't read this kind of file; I read images and text files.`, `📎 ${name}：我无法读取这类文件，只能读取图片和文本文件。`)
      : say(`📎 ${name}: I can't read this kind of file; I read text files.`, `📎 ${name}：我无法读取这类文件，只能读取文本文件。`),
  secret: (say: Say, name: string) =>
    say(
      `🔒 ${name}: I don't read this file; files like .env and private keys usually hold secrets.`,
      `🔒 ${name}：我不读取这个文件，.env 和私钥这类文件通常含有密钥。`,
    ),
  downloadFailed: (say: Say, name: string) =>
    say(`📎 ${name}: I couldn't download it from Discord; please try again.`, `📎 ${name}：无法从 Discord 下载，请重试。`),
};
