/**
 * The corpus the secret detector is measured on (tests/unit/memory/secrets-corpus.test.ts, and
 * the bench's 2,000-character notes): realistic secret shapes, each in the kind of sentence,
 * config line or snippet people paste, in English, Chinese and a few other languages; and ordinary notes, the hard
 * ones first (words such as password, pin, token, key and sk- in harmless places, numbers that
 * pass the Luhn check). The keys are generated from a seeded generator at load time, so that no
 * scanner takes this file for a leak and no real key is in it.
 */

import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seeded(20261202);
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const BASE62 = UPPER + LOWER + DIGITS;
const BASE64URL = `${BASE62}-_`;
const BASE64 = `${BASE62}+/`;
const HEX = "0123456789abcdef";

/** `n` characters of `alphabet`, always holding at least one digit and one upper and lower letter when the alphabet has them. */
function pick(alphabet: string, n: number): string {
  for (;;) {
    let out = "";
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(random() * alphabet.length)];
    const needs = [UPPER, LOWER, DIGITS].filter((set) => [...set].some((c) => alphabet.includes(c)));
    if (n < 8 || needs.every((set) => [...out].some((c) => set.includes(c)))) return out;
  }
}

const join = (...parts: string[]) => parts.join("");

/** A number of `length` digits starting with `prefix` whose last digit makes the Luhn check pass. */
export function luhnNumber(prefix: string, length: number): string {
  let digits = prefix;
  while (digits.length < length - 1) digits += DIGITS[Math.floor(random() * 10)];
  for (let check = 0; check < 10; check++) {
    if (luhnValid(digits + check)) return digits + check;
  }
  throw new Error("unreachable");
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const group = (digits: string, sizes: number[]) => {
  const out: string[] = [];
  let at = 0;
  for (const size of sizes) {
    out.push(digits.slice(at, at + size));
    at += size;
  }
  return out.join(" ");
};

// Keys of each shape, as their issuers write them.
const openaiLegacy = join("sk-", pick(BASE62, 20), "T3BlbkFJ", pick(BASE62, 20));
const openaiProject = join("sk-", "proj-", pick(BASE64URL, 124), "T3BlbkFJ", pick(BASE64URL, 32));
const openaiService = join("sk-", "svcacct-", pick(BASE64URL, 120));
const anthropic = join("sk-", "ant-", "api03-", pick(BASE64URL, 93), "AA");
const anthropicAdmin = join("sk-", "ant-", "admin01-", pick(BASE64URL, 93), "AA");
const githubClassic = join("gh", "p_", pick(BASE62, 36));
const githubOauth = join("gh", "o_", pick(BASE62, 36));
const githubFine = join("github", "_pat_", pick(BASE62, 22), "_", pick(BASE62, 59));
const gitlab = join("gl", "pat-", pick(BASE64URL, 20));
const slackBot = join("xo", "xb-", pick(DIGITS, 12), "-", pick(DIGITS, 13), "-", pick(BASE62, 24));
const slackUser = join("xo", "xp-", pick(DIGITS, 12), "-", pick(DIGITS, 12), "-", pick(DIGITS, 13), "-", pick(HEX, 32));
const slackHook = join("https://hooks.", "slack.com/services/T", pick(UPPER + DIGITS, 8), "/B", pick(UPPER + DIGITS, 10), "/", pick(BASE62, 24));
const discordHook = join("https://discord.com/api/", "webhooks/", pick(DIGITS, 19), "/", pick(BASE64URL, 68));
const awsAccess = join("AK", "IA", pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16));
const awsSecret = pick(BASE64, 40);
const google = join("AI", "za", pick(BASE64URL, 35));
const googleOauth = join("GOC", "SPX-", pick(BASE64URL, 28));
const stripeLive = join("sk", "_live_", pick(BASE62, 99));
const stripeRestricted = join("rk", "_live_", pick(BASE62, 24));
const stripeWebhook = join("wh", "sec_", pick(BASE62, 32));
const npm = join("np", "m_", pick(BASE62, 36));
const huggingFace = join("h", "f_", pick(UPPER + LOWER, 34));
const sendgrid = join("S", "G.", pick(BASE64URL, 22), ".", pick(BASE64URL, 43));
const telegram = join(pick(DIGITS, 10).replace(/^0/, "7"), ":AA", pick(BASE64URL, 33));
const azureStorage = join(pick(BASE64, 86), "==");
const azureSig = join(pick(BASE62, 20), "%2B", pick(BASE62, 20), "%2F", pick(BASE62, 3), "%3D");
const azureClient = join(pick(BASE62, 3), "8Q~", pick(`${BASE62}_.-`, 34));
const discordBot = join("MT", pick(BASE64URL, 24), ".", pick(BASE64URL, 6), ".", pick(BASE64URL, 38));
const jwt = join("ey", "J", pick(BASE64URL, 30), ".eyJ", pick(BASE64URL, 80), ".", pick(BASE64URL, 43));
const pemBody = Array.from({ length: 4 }, () => pick(BASE64, 64)).join("\n");
const bearer = pick(BASE64URL, 40);
const apiHex = pick(HEX, 32);
const generic = pick(BASE62, 32);
const visa = luhnNumber("4", 16);
const mastercard = luhnNumber("52", 16);
const amex = luhnNumber("37", 15);
const unionpay = luhnNumber("62", 19);
const discover = luhnNumber("6011", 16);

/** What the detector should name: the `label` of a finding. */
type SecretLabel = string;

export interface SecretSample {
  text: string;
  /** The label it should be named by; "any" when several names are right. */
  label: SecretLabel;
  /** The part that must not survive masking. */
  secret: string;
  /** A form the detector does not catch, on purpose or by limitation (docs/secrets.md lists them). */
  knownMiss?: string;
}

const zws = (s: string) => [...s].map((c, i) => (i > 0 && i % 6 === 0 ? `\u200b${c}` : c)).join("");
const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

export const SECRETS: SecretSample[] = [
  // OpenAI
  { text: `my key is ${openaiLegacy}`, label: "OpenAI key", secret: openaiLegacy },
  { text: `OPENAI_API_KEY=${openaiProject}`, label: "OpenAI key", secret: openaiProject },
  { text: `export OPENAI_API_KEY="${openaiService}"`, label: "OpenAI key", secret: openaiService },
  { text: `client = OpenAI(api_key="${openaiProject}")`, label: "OpenAI key", secret: openaiProject },
  { text: `记一下我的 OpenAI 密钥：${openaiLegacy}`, label: "OpenAI key", secret: openaiLegacy },
  { text: `curl https://api.example.com/v1/chat?key=${openaiLegacy}&q=hi`, label: "OpenAI key", secret: openaiLegacy },
  // Anthropic
  { text: `anthropic key ${anthropic} for the side project`, label: "Anthropic key", secret: anthropic },
  { text: `ANTHROPIC_API_KEY=${anthropicAdmin}`, label: "Anthropic key", secret: anthropicAdmin },
  { text: `Claude 的 key 是 ${anthropic}`, label: "Anthropic key", secret: anthropic },
  // GitHub
  { text: `token ${githubClassic}`, label: "GitHub token", secret: githubClassic },
  { text: `GITHUB_TOKEN: ${githubOauth}`, label: "GitHub token", secret: githubOauth },
  { text: `git clone https://${githubFine}@github.com/linmei/notes.git`, label: "GitHub token", secret: githubFine },
  // GitLab
  { text: `gitlab token: ${gitlab}`, label: "GitLab token", secret: gitlab },
  { text: `CI 里用的是 ${gitlab}`, label: "GitLab token", secret: gitlab },
  // Slack
  { text: `SLACK_BOT_TOKEN=${slackBot}`, label: "Slack token", secret: slackBot },
  { text: `slack user token ${slackUser}`, label: "Slack token", secret: slackUser },
  { text: `post alerts to ${slackHook}`, label: "Slack webhook", secret: slackHook.slice(slackHook.indexOf("/T")) },
  { text: `Discord webhook for the build: ${discordHook}`, label: "Discord webhook", secret: discordHook.slice(-68) },
  // AWS
  { text: `aws_access_key_id = ${awsAccess}\naws_secret_access_key = ${awsSecret}`, label: "any", secret: awsSecret },
  { text: `AWS key ${awsAccess}`, label: "AWS access key", secret: awsAccess },
  { text: `AWS_SECRET_ACCESS_KEY="${awsSecret}"`, label: "AWS secret key", secret: awsSecret },
  // Google
  { text: `maps key AIza… no wait, the full one is ${google}`, label: "Google API key", secret: google },
  { text: `https://maps.googleapis.com/maps/api/geocode/json?address=Vancouver&key=${google}`, label: "Google API key", secret: google },
  { text: `client_secret=${googleOauth}`, label: "Google OAuth secret", secret: googleOauth },
  // Stripe
  { text: `stripe live key ${stripeLive}`, label: "Stripe key", secret: stripeLive },
  { text: `STRIPE_RESTRICTED=${stripeRestricted}`, label: "Stripe key", secret: stripeRestricted },
  { text: `webhook signing secret ${stripeWebhook}`, label: "Stripe key", secret: stripeWebhook },
  // npm
  { text: `//registry.npmjs.org/:_authToken=${npm}`, label: "npm token", secret: npm },
  { text: `npm publish token ${npm}`, label: "npm token", secret: npm },
  // Hugging Face
  { text: `HF_TOKEN=${huggingFace}`, label: "Hugging Face token", secret: huggingFace },
  { text: `huggingface-cli login --token ${huggingFace}`, label: "Hugging Face token", secret: huggingFace },
  // SendGrid
  { text: `SENDGRID_API_KEY=${sendgrid}`, label: "SendGrid key", secret: sendgrid },
  { text: `邮件服务的 key：${sendgrid}`, label: "SendGrid key", secret: sendgrid },
  // Telegram
  { text: `my telegram bot token is ${telegram}`, label: "Telegram bot token", secret: telegram },
  { text: `https://api.telegram.org/bot${telegram}/sendMessage`, label: "Telegram bot token", secret: telegram },
  // Azure
  {
    text: `DefaultEndpointsProtocol=https;AccountName=meistore;AccountKey=${azureStorage};EndpointSuffix=core.windows.net`,
    label: "Azure key",
    secret: azureStorage,
  },
  {
    text: `Endpoint=sb://mei.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${azureStorage}`,
    label: "Azure key",
    secret: azureStorage,
  },
  {
    text: `https://meistore.blob.core.windows.net/photos?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T00:00:00Z&sig=${azureSig}`,
    label: "Azure SAS signature",
    secret: azureSig,
  },
  { text: `AZURE_CLIENT_SECRET=${azureClient}`, label: "any", secret: azureClient },
  { text: `app registration secret ${azureClient}`, label: "Azure client secret", secret: azureClient },
  { text: `Ocp-Apim-Subscription-Key: ${apiHex}`, label: "API key", secret: apiHex },
  // Discord
  { text: `DISCORD_TOKEN=${discordBot}`, label: "Discord bot token", secret: discordBot },
  { text: `bot token ${discordBot} (the test bot)`, label: "Discord bot token", secret: discordBot },
  // JWT
  { text: `session cookie: ${jwt}`, label: "JSON web token", secret: jwt },
  // Private keys
  { text: join("-----BEGIN RSA ", "PRIVATE KEY-----\n", pemBody, "\n-----END RSA ", "PRIVATE KEY-----"), label: "private key", secret: pemBody.slice(0, 64) },
  {
    text: join("here is my ssh key\n-----BEGIN OPENSSH ", "PRIVATE KEY-----\n", pemBody, "\n-----END OPENSSH ", "PRIVATE KEY-----\nthanks"),
    label: "private key",
    secret: pemBody.slice(70, 130),
  },
  {
    text: join(
      '{"type": "service_account", "private_key": "-----BEGIN ',
      "PRIVATE KEY-----\\n",
      pemBody.replace(/\n/g, "\\n"),
      '\\n-----END PRIVATE KEY-----\\n"}',
    ),
    label: "private key",
    secret: pemBody.slice(0, 64),
  },
  { text: join("-----BEGIN EC ", "PRIVATE KEY-----\n", pemBody.slice(0, 120)), label: "private key", secret: pemBody.slice(0, 64) },
  {
    text: join("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n", pick(BASE64, 44)),
    label: "private key",
    secret: "PuTTY-User-Key-File-3",
  },
  // Bearer and basic authorization headers
  { text: `Authorization: Bearer ${bearer}`, label: "bearer token", secret: bearer },
  { text: `curl -H "Authorization: bearer ${bearer}" https://api.example.com`, label: "bearer token", secret: bearer },
  {
    text: `Authorization: Basic ${Buffer.from("mei:Blue-Kettle-42").toString("base64")}`,
    label: "basic auth credentials",
    secret: Buffer.from("mei:Blue-Kettle-42").toString("base64"),
  },
  // Connection strings
  { text: "DATABASE_URL=postgres://app:Wq9-tz4Lp@db.internal:5432/app", label: "password", secret: "Wq9-tz4Lp" },
  { text: "postgresql://mei:correct.horse.7@localhost/notes", label: "password", secret: "correct.horse.7" },
  { text: "mongodb+srv://admin:S3cure!Pass@cluster0.ab12c.mongodb.net/test", label: "password", secret: "S3cure!Pass" },
  { text: "REDIS_URL=redis://:hunter2hunter2@cache.example.com:6379/0", label: "password", secret: "hunter2hunter2" },
  { text: "mysql://root:rootpw-2024@127.0.0.1:3306/shop", label: "password", secret: "rootpw-2024" },
  { text: "amqp://worker:Rabb1tHole@mq.example.com:5672", label: "password", secret: "Rabb1tHole" },
  { text: "Server=tcp:mei.database.windows.net;Database=shop;User ID=mei;Password=Ts7!kq2Lz;Encrypt=true", label: "password", secret: "Ts7!kq2Lz" },
  { text: "https://mei:Garden-Gnome-88@nas.home.arpa/photos", label: "password", secret: "Garden-Gnome-88" },
  // Passwords and PINs in words
  { text: "wifi password: hunter22!", label: "password", secret: "hunter22!" },
  { text: "My password is Tr0ub4dor&3", label: "password", secret: "Tr0ub4dor&3" },
  { text: "The password for the router is 8fj3Kd9x", label: "password", secret: "8fj3Kd9x" },
  { text: "the password for my bank account is 'Lilac-2024'", label: "password", secret: "Lilac-2024" },
  { text: "password to the shared drive is `swordfish`", label: "password", secret: "swordfish" },
  { text: "DB_PASSWORD=kV9#pq2!zz", label: "password", secret: "kV9#pq2!zz" },
  { text: 'const password = "Fennel&Thyme7";', label: "password", secret: "Fennel&Thyme7" },
  { text: "pw: Qw3rty!! (work laptop)", label: "password", secret: "Qw3rty!!" },
  { text: "passphrase: copper-9-lantern-otter", label: "password", secret: "copper-9-lantern-otter" },
  { text: "Her PIN is 4821", label: "PIN", secret: "4821" },
  { text: "my ATM pin: 7305", label: "PIN", secret: "7305" },
  {
    text: "login mei / password Sunflower2020",
    label: "password",
    secret: "Sunflower2020",
    knownMiss: "a password after the word with no 'is' or ':' between",
  },
  { text: "the password is correct horse battery staple", label: "password", secret: "correct horse battery staple" },
  { text: "银行卡密码是 839201", label: "password", secret: "839201" },
  { text: "wifi密码是xiaomi2024，记得告诉客人", label: "password", secret: "xiaomi2024" },
  { text: "我的邮箱密码：Mei@2025!", label: "password", secret: "Mei@2025!" },
  { text: "密码改成了 Abc12345 了", label: "password", secret: "Abc12345" },
  { text: "支付密码为 582913", label: "password", secret: "582913" },
  { text: "服务器 root 密码是 Tk8#2zLq", label: "password", secret: "Tk8#2zLq" },
  { text: "家里路由器的密码：ＰＡＳＳｗｏｒｄ２０２４", label: "password", secret: "ＰＡＳＳｗｏｒｄ２０２４" },
  { text: "门禁 PIN 码是 2580", label: "PIN", secret: "2580" },
  // Cards
  { text: `card ${group(visa, [4, 4, 4, 4])} exp 12/29`, label: "card number", secret: group(visa, [4, 4, 4, 4]) },
  { text: `${group(visa, [4, 4, 4, 4])} 12/29 123`, label: "card number", secret: group(visa, [4, 4, 4, 4]) },
  { text: `${visa.replace(/(\d{4})(?=\d)/g, "$1-")}`, label: "card number", secret: visa.replace(/(\d{4})(?=\d)/g, "$1-") },
  { text: `my card is ${mastercard}`, label: "card number", secret: mastercard },
  { text: `${mastercard} 09/27 cvv 331`, label: "card number", secret: mastercard },
  { text: `Amex ${group(amex, [4, 6, 5])}, CVV 4417`, label: "card number", secret: group(amex, [4, 6, 5]) },
  { text: `银行卡号 ${unionpay}`, label: "card number", secret: unionpay },
  { text: `信用卡 ${group(discover, [4, 4, 4, 4])} 有效期 08/28`, label: "card number", secret: group(discover, [4, 4, 4, 4]) },
  { text: `visa ${mastercard.slice(0, 8)}\n${mastercard.slice(8)} cvc 812`, label: "card number", secret: mastercard.slice(8) },
  // Labelled keys and tokens
  { text: `api_key=${apiHex}`, label: "API key", secret: apiHex },
  { text: `x-api-key: ${apiHex}`, label: "API key", secret: apiHex },
  { text: `client_secret: "${generic}"`, label: "API key", secret: generic },
  { text: `secret = ${generic}`, label: "API key", secret: generic },
  { text: `the access token is ${generic}`, label: "API key", secret: generic },
  { text: `天气服务的 API 密钥是 ${apiHex}`, label: "API key", secret: apiHex },
  { text: `令牌：${generic}`, label: "API key", secret: generic },
  { text: `https://api.example.com/v2/report?format=csv&access_token=${generic}`, label: "API key", secret: generic },
  { text: `https://example.com/reset?token=${generic}`, label: "API key", secret: generic },
  // Where an attacker hides them
  { text: `key: ${zws(openaiLegacy)}`, label: "OpenAI key", secret: openaiLegacy.slice(-12) },
  { text: `card ${fullWidth(group(visa, [4, 4, 4, 4]))}`, label: "card number", secret: fullWidth(visa.slice(-4)) },
  { text: `token ${fullWidth(githubClassic)}`, label: "GitHub token", secret: fullWidth(githubClassic.slice(-10)) },
  { text: `\`\`\`python\nimport openai\nopenai.api_key = "${openaiProject}"\n\`\`\``, label: "OpenAI key", secret: openaiProject },
  { text: `\`\`\`json\n{"github": {"token": "${githubFine}"}}\n\`\`\``, label: "GitHub token", secret: githubFine },
  { text: `key split in two lines:\n${openaiProject.slice(0, 14)}\n${openaiProject.slice(14)}`, label: "OpenAI key", secret: openaiProject.slice(14) },
  { text: `github_token:\n  ${githubClassic.slice(0, 20)}\n  ${githubClassic.slice(20)}`, label: "GitHub token", secret: githubClassic.slice(20) },
  {
    text: `card\u00ad ${visa.slice(0, 4)}\u200b${visa.slice(4, 8)} ${visa.slice(8, 12)} ${visa.slice(12)} exp 03/30`,
    label: "card number",
    secret: visa.slice(8, 12),
  },
  { text: `[docs](https://example.com/setup?api_key=${apiHex})`, label: "API key", secret: apiHex },
  {
    text: `base64 of my key: ${Buffer.from(openaiLegacy).toString("base64")}`,
    label: "OpenAI key",
    secret: Buffer.from(openaiLegacy).toString("base64"),
    knownMiss: "an encoded key (base64, hex, ROT13)",
  },
  {
    text: `the key is ${openaiLegacy.match(/.{1,4}/g)!.join(" ")}`,
    label: "OpenAI key",
    secret: openaiLegacy.slice(20, 28),
    knownMiss: "a key spaced out in groups",
  },
  { text: `hex token ${pick(HEX, 40)} for the old API`, label: "API key", secret: "", knownMiss: "an unlabelled hex string (it reads like a commit hash)" },
  // From the attacker's review of this detector.
  { text: "DB_PASS=Sup3rS3cret!", label: "password", secret: "Sup3rS3cret!" },
  { text: "REDIS_PASS=r3d1sPw0rd", label: "password", secret: "r3d1sPw0rd" },
  { text: "user alice, pass: hunter22!", label: "password", secret: "hunter22!" },
  { text: 'password: "purple monkey dishwasher"', label: "password", secret: "purple monkey dishwasher" },
  { text: "邮箱密码 Tr0ub4dor3", label: "password", secret: "Tr0ub4dor3" },
  { text: "取款密码 482913", label: "password", secret: "482913" },
  { text: "密碼：Tr0ub4dor3", label: "password", secret: "Tr0ub4dor3" },
  { text: "パスワード：Tr0ub4dor3", label: "password", secret: "Tr0ub4dor3" },
  { text: "my wifi password is:\nTr0ub4dor&3", label: "password", secret: "Tr0ub4dor&3" },
  { text: "the password for the wifi router in the upstairs bedroom of the house is Tr0ub4dor", label: "password", secret: "Tr0ub4dor" },
];
SECRETS.forEach((s) => {
  if (s.secret === "") s.secret = /[0-9a-f]{40}/.exec(s.text)![0];
});

/** Notes with nothing secret in them; the hard ones look close to a secret. */
export const ORDINARY: string[] = [
  // Hard: the words and shapes of secrets in harmless places
  "https://example.com/docs/sk-learn-tutorial-part-2-of-the-series",
  "read https://scikit-learn.org/stable/modules/sk-learn-cheatsheet-2024-edition.html later",
  "skiing trip: the sk-2 run at Whistler was icy",
  "SK-II facial treatment essence is her favourite",
  "task-runner ask-me-anything thread on Friday",
  "the password is wrong again, she will call IT",
  "the password is case-sensitive, remember that",
  "the password was reset on Monday",
  "Her password is the same as last year's, she says (she will change it)",
  "the hinge pin is loose on the garden gate",
  "Says pin the tweet tomorrow",
  "the pin is on the map next to the lake",
  "Her PIN is her mother's birthday (she knows it, I don't)",
  "She changed her password last week and uses a password manager",
  "Password reset link expired, she will ask IT",
  "password: see 1Password, the family vault",
  "Password: changed in March",
  "password: unknown, ask Daniel",
  "password = None  # set from the environment",
  "password = os.environ['DB_PASSWORD']",
  "password: ${DB_PASSWORD}",
  "passwd: required",
  "The API key rotation policy at work is 90 days",
  "set OPENAI_API_KEY=YOUR_API_KEY_HERE before running",
  "api_key = '<your-api-key>'",
  "export OPENAI_API_KEY=sk-...",
  "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "api_key: REPLACE_WITH_YOUR_KEY",
  "token: see the vault",
  "Uses the token bucket algorithm in her rate limiter",
  "secret: she's planning a surprise party for Daniel",
  "client_secret: stored in the keychain, not here",
  "const apiKey = process.env.OPENAI_API_KEY;",
  "headers = {'Authorization': f'Bearer {token}'}",
  "Authorization: Bearer <token>",
  "the bearer of good news was Aisha",
  "AWS example key id in the docs: AKIAIOSFODNN7EXAMPLE",
  "postgres://localhost:5432/app",
  "postgres://user:password@localhost/db is the template in the README",
  "DATABASE_URL=postgres://${DB_USER}:${DB_PASS}@db:5432/app",
  "redis://localhost:6379/0",
  "mongodb://mongo:27017/test",
  "https://user@example.com/repo.git",
  "email mei@example.com, cc daniel@example.org",
  "git clone git@github.com:linmei/notes.git",
  "the JWT starts with eyJ and has three parts",
  "-----BEGIN CERTIFICATE----- is what the public cert starts with",
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx4bVbL7Z3y1q8mJd0r9sA2kHf6pT1uWcE5nQ8oYxZv mei@laptop",
  "Order number 4532015112830366 arrived on Tuesday",
  "order #5425233430109903 was refunded",
  "Tracking: 1Z999AA10123456784",
  "Booked 2023-01-01 to 2023-12-31 for the lease",
  "lease 20230101-20231231, renew in November",
  "Dates 2024 0115 - 2024 0220 at the cabin",
  "ISBN 978-0-306-40615-7 is the book she mentioned",
  "IBAN DE89 3704 0044 0532 0130 00 for the rent",
  "Phone number 6045550123 for the garage",
  "Dentist on 2026-12-02 at 15:00; call +1 604 555 0199 to confirm",
  "invoice 4000 1234 5678 9010 is overdue (the invoice number, not a card)",
  "Flight CA 981 on 2026/12/24, seat 32K",
  "Coordinates 49.2827, -123.1207",
  "Ran 5 km in 27:45, heart rate 152",
  "commit 3f2a9c1b7e4d5a6b8c9d0e1f2a3b4c5d6e7f8a9b fixed the login bug",
  "request id 9b2f6c1e-3d4a-4b8e-9f0a-1c2d3e4f5a6b in the logs",
  "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "the recipe key: 1 cup flour, 2 eggs, a pinch of salt",
  "key: the spare is under the blue pot",
  "Keyboard shortcut Ctrl+Shift+P opens the command palette",
  "She uses a YubiKey for work and a passkey for her bank",
  "Wi-Fi name is MeiHome-5G; she keeps the password on the fridge",
  "ratio 16:9 for the slides, 1920x1080",
  "Meeting at 10:30, then lunch at 12:15",
  "version 1.22.4-alpha.3+build.5678",
  "the bus 99 B-Line leaves every 4 minutes",
  "SKU 4006381333931 for the printer ink",
  "Her student number is 301234567",
  "Reference 3566 0020 2036 0505 in the letter from the school",
  // Everyday notes, English
  "- Drinks oolong, no sugar",
  "Bank: RBC, account in Daniel's name (no numbers stored)",
  "Her GitHub is github.com/linmei; the repo skeleton is at https://example.com/a/b?c=d",
  "Sketch-heavy notes: skip-level meeting with Aisha on Tuesday",
  "Her dog's microchip is registered with the vet",
  "Wedding at Mission Hill on June 14; dress code is sage green",
  "eye-opening talk; sk-8 points rule in climbing gym",
  "Prefers short answers with examples",
  "Works on a cross-platform mobile app in Kotlin and Swift",
  "Likes hiking on weekends and cooking ramen",
  "Asked to be reminded about the quarterly review on 2026-12-15",
  "Timezone is Europe/Berlin; usually online after 18:00",
  "Keeps a reading list: Piranesi, The Dispossessed, Klara and the Sun",
  "Daughter Lina starts school in September; her teacher is Ms. Okafor",
  "Allergic to peanuts; carries an EpiPen",
  "Runs a 10k every Sunday with the Kits Beach group",
  "Her sister lives in Melbourne (UTC+11 in summer)",
  "Learning Japanese: N4 exam in July, uses Anki every morning",
  "Budget for the trip: 2,400 CAD, flights already paid",
  "Car is a 2019 Corolla, plate hidden; service due at 60,000 km",
  "Favourite tea shop: Hon's on Main Street",
  "Wants to switch from VS Code to Zed for the speed",
  "Team uses Linear for issues and Notion for docs",
  "Doctor's appointment moved to 9:45 on the 3rd",
  "The cat, Mochi, hates the vacuum cleaner",
  "Mentioned that her landlord is raising the rent by 3.5%",
  "Plays the cello in a community orchestra, rehearsal Thursdays 19:00-21:30",
  "Used Postgres 16 with pgvector for the side project",
  "Node 20 and TypeScript 5.9; tests with vitest",
  "Moved the deploy to Fly.io; region yyz",
  "Her rate limiter allows 5 requests per second per token",
  "She wrote a blog post about OAuth scopes and refresh tokens",
  "Asked how JWT expiry works with refresh tokens",
  "Wants a reminder to renew the passport (expires 2027-03)",
  "Kid's soccer: U9 team, games at 10:00 on Saturdays, field 4",
  "Grocery list: eggs, spinach, oat milk, 2 kg rice",
  "Her birthday is on 12 May; likes lilies",
  "Prefers metric units and 24-hour time",
  "Follows a vegetarian diet since 2019",
  "Is saving for a down payment; target 80,000 by 2028",
  "Her manager is Priya; 1:1 on Wednesdays",
  "Is training for the BMO marathon in May",
  "Said the build takes 14 minutes on CI and wants it under 5",
  "Wants to learn Rust this winter",
  "Uses a standing desk; back pain is better",
  "Cooking: mapo tofu needs Sichuan pepper, doubanjiang, 300 g tofu",
  "Her flight lands at 23:40, terminal 3",
  "Painting the living room in 'Swiss Coffee' white",
  "Her favourite band is Japanese Breakfast",
  'Has two monitors: 27" 4K and a 24" portrait one',
  "The plumber comes between 8 and 12 on Friday",
  "Keeps her plants alive with a watering schedule every 3 days",
  "Notes for the talk: 20 minutes, 15 slides, demo at the end",
  "Signed up for a pottery class, 6 weeks, 120 CAD",
  "Password managers she compared: Bitwarden, 1Password, KeePassXC",
  "She asked how to store API keys safely (answer: a secrets manager)",
  "Her PIN pad at work beeps twice when it fails",
  "Thinks token-based pricing is confusing",
  "Read about the Luhn check for card numbers",
  "Card game night on Friday: Dominion and Wingspan",
  "Gift card from Daniel for the bookstore",
  "Has a library card for VPL; 3 books due on the 20th",
  "SIN card renewal is not needed in Canada",
  "The key insight from the book: habits over goals",
  "Main key of the song is D minor",
  // Everyday notes, Chinese
  "我最喜欢乌龙茶，密码学课很有意思",
  "密码忘了，明天去银行重置",
  "密码是什么来着？她说回头再问",
  "把WiFi密码贴在冰箱上了",
  "密码为空的账号要尽快停用",
  "她的银行卡丢了，已经挂失",
  "订单号 4532015112830366 已发货",
  "快递单号 SF1234567890123，预计周三到",
  "手机号 138 0013 8000 是她公司的前台",
  "身份证快到期了，下个月去换",
  "航班 CA981，座位 32K，2026年12月24日",
  "会议改到 2026-12-02 15:00",
  "她在学日语，七月考 N4",
  "女儿九月上小学，老师姓王",
  "对花生过敏，随身带肾上腺素笔",
  "每周日早上跑 10 公里",
  "周末喜欢去爬山，也喜欢做拉面",
  "她妹妹住在墨尔本",
  "预算 2400 加元，机票已经付了",
  "喜欢简短的回答，最好带例子",
  "在做一个跨平台的移动应用，用 Kotlin 和 Swift",
  "团队用 Linear 管任务，用 Notion 写文档",
  "猫叫麻糬，很怕吸尘器",
  "房东说房租要涨 3.5%",
  "周四晚上 19:00-21:30 在社区乐团拉大提琴",
  "令牌桶算法用在她的限流器里",
  "她问 API 密钥应该怎么安全保存",
  "密钥轮换策略是 90 天一次",
  "门上的销子松了，要找人修",
  "把那条微博置顶",
  "她的生日是 5 月 12 日，喜欢百合",
  "护照 2027 年 3 月到期，提醒她续签",
  "买菜：鸡蛋、菠菜、燕麦奶、两公斤大米",
  "她在存首付，目标 2028 年前存够 8 万",
  "经理是 Priya，每周三一对一",
  "五月要跑 BMO 马拉松",
  "CI 构建要 14 分钟，她想压到 5 分钟以内",
  "冬天想学 Rust",
  "麻婆豆腐要花椒、郫县豆瓣、300 克豆腐",
  "航班 23:40 落地，三号航站楼",
  "报了陶艺课，6 周，120 加元",
  "她比较了几个密码管理器：Bitwarden、1Password、KeePassXC",
  "她觉得按 token 计费很难懂",
  "周五桌游夜：领土争夺和展翅翱翔",
  "图书馆卡快到期，20 号要还三本书",
  "这首歌是 D 小调",
  "明天 sk-2 雪道可能封闭",
  "订单 #5425233430109903 已退款",
  "租期 20230101-20231231，十一月续约",
  "参考号 3566 0020 2036 0505，在学校寄来的信里",
  "她说新密码已经设好了，但没告诉我",
  "验证码收不到，她换了个手机号",
  "银行卡密码输错三次被锁了",
  "PIN 码锁住了，要去营业厅",
  "支付宝的支付密码改过了",
  "她的 GitHub 主页是 github.com/linmei",
  "博客地址 https://example.com/posts/sk-learn-入门",
  "喝了一杯正山小种，配了两块凤梨酥",
  "下周二和 Aisha 开跨级会议",
  "婚礼在 6 月 14 日，着装要求鼠尾草绿",
  "她用 YubiKey 登录公司电脑",
  "bus pass: monthly",
  "boarding pass: seat 12F",
  "season pass: renewed for 2026",
  "I got a pass for the museum",
  "Notes about my password:\nchange it every month",
  "密码学 课程下周开始",
  "wifi password: Tr0ub4dor&3 is what I told you not to save\nBuyMilk2 and eggs tomorrow".split("\n")[1]!,
];

/**
 * Written after the detector, and not tuned against: its figures are reported apart in the
 * docs/secrets.md (a corpus the detector was built on flatters it).
 */
const HELD_OUT_SECRETS: SecretSample[] = [
  { text: `remember this for me: ${openaiProject}`, label: "OpenAI key", secret: openaiProject },
  { text: `"apiKey": "${anthropic}",`, label: "Anthropic key", secret: anthropic },
  { text: `ghp token for CI -> ${githubClassic} <- don't lose it`, label: "GitHub token", secret: githubClassic },
  { text: `export HUGGING_FACE_HUB_TOKEN=${huggingFace}`, label: "Hugging Face token", secret: huggingFace },
  { text: `sendgrid: ${sendgrid}`, label: "SendGrid key", secret: sendgrid },
  { text: `TELEGRAM_BOT_TOKEN=${telegram}`, label: "Telegram bot token", secret: telegram },
  { text: `NPM_TOKEN=${npm}`, label: "npm token", secret: npm },
  { text: `stripe secret is ${stripeLive}`, label: "Stripe key", secret: stripeLive },
  { text: `my gitlab PAT ${gitlab} expires in June`, label: "GitLab token", secret: gitlab },
  { text: `spring.datasource.password=Zq8!mv3Rt`, label: "password", secret: "Zq8!mv3Rt" },
  { text: `"password": "N0t-So-Secret!"`, label: "password", secret: "N0t-So-Secret!" },
  { text: `password for the guest wifi: Mochi2026`, label: "password", secret: "Mochi2026" },
  { text: `The new password is Ph0enix#77.`, label: "password", secret: "Ph0enix#77" },
  { text: `ssh password was 9z!Kq2Lm`, label: "password", secret: "9z!Kq2Lm" },
  { text: `我家 wifi 的密码是 Mei20261202`, label: "password", secret: "Mei20261202" },
  { text: `工作邮箱 密码：qazWSX123`, label: "password", secret: "qazWSX123" },
  { text: `公司 VPN 口令是 Vpn#2026go`, label: "password", secret: "Vpn#2026go" },
  { text: `信用卡号是 ${visa}，有效期 11/28`, label: "card number", secret: visa },
  { text: `pay with ${group(mastercard, [4, 4, 4, 4])} please`, label: "card number", secret: group(mastercard, [4, 4, 4, 4]) },
  { text: `Authorization: Bearer ${jwt}`, label: "any", secret: jwt },
  { text: `mongodb://mei:Pl4ntsAreGreen@10.0.0.5:27017/garden`, label: "password", secret: "Pl4ntsAreGreen" },
  { text: `AWS creds: ${awsAccess} / ${awsSecret}`, label: "any", secret: awsSecret },
  { text: `PIN for the bike lock: 0451`, label: "PIN", secret: "0451" },
  { text: `api token ${generic}`, label: "API key", secret: generic, knownMiss: "a labelled token with no 'is', ':' or '=' between" },
];

const HELD_OUT_ORDINARY: string[] = [
  "npm install --save-dev typescript@5.9.3",
  "curl -X POST https://api.example.com/v1/items?page=2&limit=50",
  "docker run -p 5432:5432 -e POSTGRES_PASSWORD=$PG_PASSWORD postgres:16",
  "git log --oneline | head -20",
  "She paid 1,299.99 for the laptop on 2026-11-28",
  "Her order 113-4567890-1234567 ships tomorrow",
  "Appointment ref 2026-1202-0930 at the passport office",
  "The PIN on the router sticker was changed by the ISP",
  "Reminder: rotate the API keys after the audit",
  "She asked whether bearer tokens can be revoked",
  "Used the secret santa app for the office party",
  "The token economy in her classroom uses stickers",
  "her password hint is her first pet's name",
  "Password strength meter shows 'weak' for short ones",
  "Called the bank: card blocked, new one arrives in 7-10 days",
  "Train 8:15 from Waterfront, arrives 9:02",
  "Passed the AWS Solutions Architect exam with 842/1000",
  "key lime pie recipe from her grandmother",
  "The hex colour for the logo is #1E90FF",
  "Her Steam friend code is 123456789",
  "Sent 250 EUR to her sister via Wise",
  "Reads Hacker News every morning",
  "她问怎么在 GitHub 上生成 token",
  "银行说卡下周寄到",
  "他把密码本锁在抽屉里了",
  "公司要求每 90 天换一次密码",
  "快递到了放在门卫",
  "明天 9:30 开周会，记得带电脑",
  "她的学号是 2023010456",
  "高铁 G123 次，二等座 05 车 12F",
  "订单 2026112812345678 已签收",
  "发票号码 044031900111 已开具",
  "wifi 名字叫 MeiHome-5G",
  "她在学 OAuth 2.0 的授权码流程",
  "API 文档在 https://example.com/docs?lang=zh",
];

// ── The second batch ────────────────────────────────────────────────────────────────────────
// Shapes a corpus the detector was not built on found missing: Slack app-level tokens, a private
// key's body without its BEGIN line, PyPI, Docker Hub and Vault tokens, passwords labelled in
// Spanish, French, German and Japanese, passphrases of plain words and wallet recovery phrases.

const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
const lines = (base64: string, width: number) => base64.match(new RegExp(`.{1,${width}}`, "g"))!.join("\n");

/** A DER file as base64 lines: its fixed start (sequence, version, algorithm) in hex, then random bytes up to `total`. */
function der(startHex: string, total: number, width = 64): string {
  const start = Buffer.from(startHex, "hex");
  return lines(Buffer.concat([start, bytes(total - start.length)]).toString("base64"), width);
}

const rsaPkcs8 = der("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100", 1217);
const rsaPkcs1 = der("308204a40201000282010100", 1192);
const rsa1024 = der("3082025d02010002818100", 609);
const ecSec1 = lines(
  Buffer.concat([Buffer.from("30770201010420", "hex"), bytes(32), Buffer.from("a00a06082a8648ce3d030107a14403420004", "hex"), bytes(64)]).toString("base64"),
  64,
);
const ed25519 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), bytes(32)]).toString("base64");
const sshString = (text: string | Buffer) => Buffer.concat([Buffer.from([0, 0, 0, text.length]), Buffer.from(text)]);
const openssh = lines(
  Buffer.concat([
    Buffer.from("openssh-key-v1\0"),
    sshString("none"),
    sshString("none"),
    sshString(""),
    Buffer.from([0, 0, 0, 1]),
    bytes(51),
    bytes(144),
  ]).toString("base64"),
  70,
);
// Public halves start with the same bytes of a sequence, but a certificate holds a sequence where a private key holds its version.
const certificate = der("308203773082025fa003020102020900", 891);
const publicKey = der("30820122300d06092a864886f70d01010105000382010f003082010a0282010100", 294);

const slackApp = join("xa", "pp-1-A0", pick(UPPER + DIGITS, 9), "-", pick(DIGITS, 13), "-", pick(HEX, 64));
const pypi = join("py", "pi-AgEIcHlwaS5vcmcCJ", pick(BASE64URL, 150));
const testPypi = join("py", "pi-AgENdGVzdC5weXBpLm9yZwIk", pick(BASE64URL, 140));
const dockerPat = join("dc", "kr_pat_", pick(BASE64URL, 27));
const dockerOrg = join("dc", "kr_oat_", pick(BASE64URL, 32));
const vaultShort = join("hv", "s.", pick(BASE62, 24));
const vaultService = join("hv", "s.CAESI", pick(BASE64URL, 86));
const vaultBatch = join("hv", "b.AAAAAQ", pick(BASE64URL, 132));
const vaultRecovery = join("hv", "r.", pick(BASE62, 24));
const vaultLegacy = join("s", ".", pick(BASE62, 24));
const seed12 = entropyToMnemonic(bytes(16), wordlist);
const seed24 = entropyToMnemonic(bytes(32), wordlist);
const seedOther = entropyToMnemonic(bytes(16), wordlist);
const words = (phrase: string) => phrase.split(" ");
const numbered = (phrase: string, between: string) =>
  words(phrase)
    .map((w, i) => `${i + 1}. ${w}`)
    .join(between);

export const SECOND_BATCH_SECRETS: SecretSample[] = [
  // Slack app-level tokens
  { text: `SLACK_APP_TOKEN=${slackApp}`, label: "Slack token", secret: slackApp },
  { text: `socket mode app token for the standup bot: ${slackApp}`, label: "Slack token", secret: slackApp },
  { text: `{"appToken": "${slackApp}", "botToken": "see 1Password"}`, label: "Slack token", secret: slackApp },
  // A private key's body without its BEGIN line
  { text: `${rsaPkcs8}\n-----END PRIVATE KEY-----`, label: "private key", secret: rsaPkcs8.slice(650, 714) },
  { text: `here's the key body, header got cut off when I copied it:\n${rsaPkcs8}`, label: "private key", secret: rsaPkcs8.slice(-60) },
  { text: `\`\`\`\n${rsaPkcs1}\n\`\`\``, label: "private key", secret: rsaPkcs1.slice(1300, 1364) },
  { text: `${ecSec1}\n-----END EC PRIVATE KEY-----\nthat's the signing key for the app store`, label: "private key", secret: ecSec1.slice(65, 129) },
  { text: `private_key = "${ed25519}"`, label: "private key", secret: ed25519 },
  {
    text: `{"client_email": "bot@mei-project.iam.gserviceaccount.com", "private_key": "${rsaPkcs8.replace(/\n/g, "\\n")}\\n"}`,
    label: "private key",
    secret: rsaPkcs8.slice(325, 389),
  },
  { text: `old 1024-bit key from the NAS:\n${rsa1024}\n-----END RSA PRIVATE KEY-----`, label: "private key", secret: rsa1024.slice(390, 454) },
  { text: `${openssh}\n-----END OPENSSH PRIVATE KEY-----`, label: "private key", secret: openssh.slice(71, 141) },
  { text: `服务器的私钥内容：\n${ecSec1}`, label: "private key", secret: ecSec1.slice(0, 64) },
  { text: `deploy key (no header):\n  ${rsaPkcs1.split("\n").join("\n  ")}`, label: "private key", secret: rsaPkcs1.slice(650, 714) },
  // PyPI
  { text: `TWINE_PASSWORD=${pypi}`, label: "PyPI token", secret: pypi },
  { text: `[pypi]\n  username = __token__\n  password = ${pypi}`, label: "PyPI token", secret: pypi },
  { text: `uv publish --token ${testPypi}`, label: "PyPI token", secret: testPypi },
  { text: `PyPI 的上传令牌是 ${pypi}`, label: "PyPI token", secret: pypi },
  // Docker Hub
  { text: `docker login -u meilin -p ${dockerPat}`, label: "Docker Hub token", secret: dockerPat },
  { text: `      DOCKERHUB_TOKEN: ${dockerPat}`, label: "Docker Hub token", secret: dockerPat },
  { text: `echo "${dockerOrg}" | docker login --username mei-org --password-stdin`, label: "Docker Hub token", secret: dockerOrg },
  { text: `Docker Hub 访问令牌：${dockerPat}，下个月过期`, label: "Docker Hub token", secret: dockerPat },
  // HashiCorp Vault
  { text: `VAULT_TOKEN=${vaultService}`, label: "Vault token", secret: vaultService },
  { text: `vault login ${vaultShort}`, label: "Vault token", secret: vaultShort },
  { text: `curl -H "X-Vault-Token: ${vaultBatch}" https://vault.mei.home.arpa:8200/v1/secret/data/app`, label: "Vault token", secret: vaultBatch },
  { text: `the recovery token from the generate-root run: ${vaultRecovery}`, label: "Vault token", secret: vaultRecovery },
  { text: `export VAULT_TOKEN=${vaultLegacy}`, label: "Vault token", secret: vaultLegacy },
  { text: `old vault token ${vaultLegacy} still works on the 1.4 cluster`, label: "Vault token", secret: vaultLegacy },
  { text: `Vault 根令牌：${vaultShort}`, label: "Vault token", secret: vaultShort },
  // Passwords labelled in Spanish, French, German, Japanese and Chinese
  { text: "contraseña: Gato#2024", label: "password", secret: "Gato#2024" },
  { text: "mi contraseña del wifi es Pl4ya-Azul", label: "password", secret: "Pl4ya-Azul" },
  { text: "La clave del banco es 8xK!29pq", label: "password", secret: "8xK!29pq" },
  { text: '{"usuario": "mei", "contraseña": "Gato#2024"}', label: "password", secret: "Gato#2024" },
  { text: "mot de passe : Chaton#42", label: "password", secret: "Chaton#42" },
  { text: "Mon mot de passe Gmail est «Soleil2025!»", label: "password", secret: "Soleil2025!" },
  { text: "le mdp du wifi c'est Fr4mboise!", label: "password", secret: "Fr4mboise!" },
  { text: "Passwort: Sommer2024!", label: "password", secret: "Sommer2024!" },
  { text: "Das WLAN-Passwort lautet Zugspitze#88", label: "password", secret: "Zugspitze#88" },
  { text: "mein Kennwort für das Intranet ist Kx7#pL2q", label: "password", secret: "Kx7#pL2q" },
  { text: 'Kennwort = "Bl4uerHimmel"', label: "password", secret: "Bl4uerHimmel" },
  { text: "パスワードは Sakura2024! です", label: "password", secret: "Sakura2024!" },
  { text: "Wi-Fiのパスワード：Fuji-san_3776", label: "password", secret: "Fuji-san_3776" },
  { text: "暗証番号は 4729 です", label: "PIN", secret: "4729" },
  { text: "キャッシュカードの暗証番号：0385", label: "PIN", secret: "0385" },
  { text: "口令：Tiger@1987", label: "password", secret: "Tiger@1987" },
  { text: "我的密碼是 Taipei101!", label: "password", secret: "Taipei101!" },
  // Passphrases of plain words
  { text: "my passphrase is correct horse battery staple", label: "password", secret: "correct horse battery staple" },
  { text: "passphrase: tundra maple cactus viking", label: "password", secret: "tundra maple cactus viking" },
  { text: "the wifi passphrase is purple elephant dancing quietly", label: "password", secret: "purple elephant dancing quietly" },
  { text: "the passphrase for the backup drive is lantern meadow copper sparrow", label: "password", secret: "lantern meadow copper sparrow" },
  { text: "my passphrase is correct-horse-battery-staple", label: "password", secret: "correct-horse-battery-staple" },
  // Wallet recovery phrases
  { text: `seed phrase: ${seed12}`, label: "recovery phrase", secret: seed12 },
  { text: `My recovery phrase is ${seed24}`, label: "recovery phrase", secret: seed24 },
  { text: `wallet words: ${numbered(seed12, " ")}`, label: "recovery phrase", secret: words(seed12).slice(4, 8).join(" ") },
  { text: numbered(seedOther, "\n"), label: "recovery phrase", secret: words(seedOther).slice(6, 9).join(" ") },
  { text: seed12, label: "recovery phrase", secret: seed12 },
  { text: `const mnemonic = "${seed12}";`, label: "recovery phrase", secret: seed12 },
  { text: `{"mnemonic": "${seed24}", "path": "m/44'/60'/0'/0/0"}`, label: "recovery phrase", secret: seed24 },
  { text: `助记词：${seedOther}`, label: "recovery phrase", secret: seedOther },
  { text: `MetaMask secret recovery phrase\n${words(seed12).join("\n")}`, label: "recovery phrase", secret: words(seed12).slice(3, 9).join("\n") },
  { text: `ledger backup, keep offline: ${seed24}`, label: "recovery phrase", secret: seed24 },
  { text: `seed words: ${words(seedOther).join(", ")}`, label: "recovery phrase", secret: words(seedOther).slice(2, 10).join(", ") },
];

const SECOND_BATCH_ORDINARY: string[] = [
  // Password words in other languages, with no password after them
  "I forgot my Passwort again",
  "la contraseña es incorrecta",
  "la contraseña debe tener al menos 8 caracteres",
  "olvidé mi contraseña otra vez",
  "La clave es practicar todos los días",
  "Mi clave para aprender idiomas es la constancia",
  "J'ai oublié mon mot de passe, je dois le réinitialiser",
  "Le mot de passe est incorrect",
  "mot de passe : voir le gestionnaire",
  "MDP: states, actions, transition probabilities and rewards",
  "Das Passwort ist falsch, ich muss es zurücksetzen",
  "Passwort vergessen? Der Link kommt per Mail",
  "Kennwort: siehe Passwortmanager",
  "Kennwort geändert am Montag",
  "密码错了",
  "口令过期了，要重新申请",
  "密碼忘記了，明天去重設",
  "パスワードを忘れた",
  "パスワードは8文字以上にしてください",
  "暗証番号を3回間違えてロックされた",
  // Passphrases talked about
  "The passphrase must be at least 20 characters long",
  "My passphrase is long and has spaces in it",
  "the wifi passphrase is on the sticker under the router",
  "passphrase: see the paper in the safe",
  "the passphrase is different for every drive",
  // Recovery phrases talked about, and words that happen to be on the list
  "Never share your seed phrase or recovery phrase with anyone; no wallet support team will ever ask for it",
  "She read that BIP-39 seed phrases use 2048 words, and that 12 words give 128 bits",
  "the recovery phrase is written on steel plates in the safe, not on any computer",
  "助记词千万不要截图或者发给别人",
  "Autumn river, silent stone,\nmorning light and wind alone;\nsilver moon above the lake,\nquiet garden, slow awake.",
  "Ocean\nRiver\nStone\nMoon\nAutumn\nSilver\nMorning\nGarden\nWinter\nForest\nWindow\nLake",
  "Groceries: salad, cake, juice, rice, soup, bean, tomato, potato, chicken, fish, butter, cheese, apple, lemon",
  "kids want pizza again tonight, then cake and juice for the party",
  "can you check that the company system gets the right number for each person this month",
  // Names of the new token shapes with no token
  "pypi package name is agentkit-tools; check that it's free on PyPI first",
  "pip install requests==2.32.3 from pypi",
  "pypi-publish GitHub action uses trusted publishing, no token needed",
  "docker pull postgres:16-alpine && docker run -d redis:7",
  "docker login ghcr.io -u mei --password-stdin < token.txt",
  "dckr_pat_ tokens are created under Account settings > Personal access tokens",
  "Docker Hub rate limits: 100 pulls per 6 hours for anonymous users",
  "the vault of the cathedral was restored in 1998",
  "Stayed at the Vault hotel in San Francisco",
  "vault kv get secret/myapp",
  "hvs. at the start means a service token in Vault 1.10 and later",
  "s.t. x + y <= 10 (subject to the budget constraint)",
  "s.Anderson et al. 2019 found the same effect",
  "xapp- tokens are Slack's app-level tokens for Socket Mode",
  // Base64 that is not a private key
  "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/",
  "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw== is the 1x1 gif",
  `the CA certificate (public, fine to share):\n${certificate}`,
  `server public key:\n${publicKey}`,
  "PKCS#8 keys start with MIIEvQIBADANBgkqhkiG9w0BAQEFAASC, certificates with MIID",
  "-----END PRIVATE KEY----- is the last line of the file",
];

/** Every batch: the corpus the detector was built on, the held-out batch and the second batch. */
export const ALL_SECRETS: SecretSample[] = [...SECRETS, ...HELD_OUT_SECRETS, ...SECOND_BATCH_SECRETS];
export const ALL_ORDINARY: string[] = [...ORDINARY, ...HELD_OUT_ORDINARY, ...SECOND_BATCH_ORDINARY];

/** NFKC with zero-width characters dropped: how a masked text is checked for what is left of a secret. */
export const plain = (text: string): string => text.normalize("NFKC").replace(/\p{Default_Ignorable_Code_Point}/gu, "");

/** What a detector does with the corpus: its findings' labels for a text, and the text masked. */
export interface Detector {
  labels: (text: string) => string[];
  mask: (text: string) => string;
}

/** A secret kept out: found, and nothing of it left once masked. */
export function caught(detector: Detector, sample: SecretSample): boolean {
  return detector.labels(sample.text).length > 0 && !plain(detector.mask(sample.text)).includes(plain(sample.secret));
}

/** Caught, and named by the label the sample asks for. */
function namedRight(detector: Detector, sample: SecretSample): boolean {
  return caught(detector, sample) && (sample.label === "any" || detector.labels(sample.text).includes(sample.label));
}

/** The figures docs/secrets.md and the bench state: secrets kept out, named right, ordinary notes flagged. */
export function corpusFigures(detector: Detector, secrets = ALL_SECRETS, ordinary = ALL_ORDINARY) {
  return {
    secrets: secrets.length,
    caught: secrets.filter((s) => caught(detector, s)).length,
    namedRight: secrets.filter((s) => namedRight(detector, s)).length,
    ordinary: ordinary.length,
    falseAlarms: ordinary.filter((text) => detector.labels(text).length > 0).length,
  };
}
