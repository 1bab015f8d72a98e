import { describe, expect, it } from "vitest";
import { findSecret } from "../../../src/memory/secrets.js";

// Built from pieces so that no scanner mistakes this test file for a leak.
const join = (...parts: string[]) => parts.join("");

const secrets: [string, string][] = [
  [join("my key is sk-", "proj-", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4"), "an OpenAI API key"],
  [join("sk-", "abcdefghijklmnopqrstuvwx1234"), "an OpenAI API key"],
  [join("token ghp_", "A".repeat(36)), "a GitHub token"],
  [join("github_pat_", "11ABCDEFG0123456789_abcdefghijklmnop"), "a GitHub token"],
  [join("xoxb-", "123456789012-123456789012-abcdefGHIJKL"), "a Slack token"],
  [join("AKIA", "IOSFODNN7EXAMPLE"), "an AWS access key"],
  [join("aws_secret_access_key = ", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"), "an AWS secret key"],
  [join("MTIzNDU2Nzg5MDEyMzQ1Njc4", ".GaBcDe.", "abcdefghijklmnopqrstuvwxyz0123456"), "a Discord bot token"],
  [join("eyJhbGciOiJIUzI1NiJ9", ".eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"), "a JSON web token"],
  [join("-----BEGIN RSA ", "PRIVATE KEY-----\nMIIEpAIBAAKCAQEA"), "a private key (PEM)"],
  [join("-----BEGIN OPENSSH ", "PRIVATE KEY-----"), "a private key (PEM)"],
  ["wifi password: hunter22!", "a password"],
  ["My password is Tr0ub4dor&3", "a password"],
  ["银行卡密码是 839201", "a password"],
  ["card 4111 1111 1111 1111 exp 12/29", "a payment card number"],
  ["5500-0000-0000-0004", "a payment card number"],
  [join("api_key=", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"), "an API key or token"],
  [join("AIza", "SyA1234567890abcdefghijklmnopqrstuv"), "a Google API key"],
];

const ordinary = [
  "- Drinks oolong, no sugar",
  "Dentist on 2026-12-02 at 15:00; call +1 604 555 0199 to confirm",
  "Order number 1234567890123 arrived (not a card: fails the check)",
  "ISBN 978-0-306-40615-7 is the book she mentioned",
  "Flight CA 981 on 2026/12/24, seat 32K",
  "Her GitHub is github.com/linmei; the repo skeleton is at https://example.com/a/b?c=d",
  "She changed her password last week and uses a password manager",
  "Password reset link expired, she will ask IT",
  "The API key rotation policy at work is 90 days",
  "Bank: RBC, account in Daniel's name (no numbers stored)",
  "Ran 5 km in 27:45, heart rate 152",
  "Tracking: 1Z999AA10123456784",
  "我最喜欢乌龙茶，密码学课很有意思",
  "Sketch-heavy notes: skip-level meeting with Aisha on Tuesday",
  "Her dog's microchip is registered with the vet",
  "Phone number 6045550123 for the garage",
  "Wedding at Mission Hill on June 14; dress code is sage green",
  "Coordinates 49.2827, -123.1207",
  "Uses the token bucket algorithm in her rate limiter",
  "Says pin the tweet tomorrow",
  "eye-opening talk; sk-8 points rule in climbing gym",
];

describe("findSecret", () => {
  it.each(secrets)("names %s", (text, kind) => {
    expect(findSecret(text)).toMatchObject({ kind });
  });

  it.each(ordinary)("lets ordinary notes through: %s", (text) => {
    expect(findSecret(text)).toBeUndefined();
  });
});
