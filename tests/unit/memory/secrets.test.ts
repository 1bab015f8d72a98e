import { describe, expect, it } from "vitest";
import { checkContent } from "../../../src/memory/safety.js";
import {
  addedSecret,
  findSecret,
  findSecrets,
  maskSecrets,
  maskSecretsInParts,
  secretPlaceholder,
  SHAPE_IDS,
  shapePattern,
} from "../../../src/memory/secrets.js";
import { expectLinear as expectLinearOnCpu } from "../../helpers/linear-time.js";
import { luhnNumber } from "./secret-corpus.js";
import { cpuMs } from "../../helpers/cpu-time.js";

// Built from pieces so that no scanner mistakes this test file for a leak.
const join = (...parts: string[]) => parts.join("");
const anthropicKey = join("sk-", "ant-", "api03-", "Xk2Pq9Lm4Rt7Vw1Zy5Bc8Df3Gh6Jn0Ks", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AA");
const openaiKey = join("sk-", "proj-", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
const githubToken = join("gh", "p_", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8I");
// An Ed25519 key in PKCS#8 (its first 16 bytes are the same for every such key) and the 2048-bit RSA one's start.
const ed25519Body = join("MC4CAQAwBQYDK2VwBCIEI", "Hq8vT2mZ0cK4pL7xN1bW9sF3dJ6gR5yE0aU8iO2kQw7");
const rsaBody = [
  join("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "BKcwggSjAgEAAoIBAQC7q3Zx9Lm2Pk4Tn8Wv1Rb"),
  "Yc5Hd0Jf6Gs3Ka9Ue2Io7Pq4Lm1Nx8Zb3Vc6Tr0Wy5Ek2Gh9Jd4Fs7Ua1Io8Pl3Mn6",
  "Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9Xc2Vb5Nm8Qa1Ws4Ed7Rf0Tg3Yh6Uj9Ik2Ol5",
  "Pz8Aq1Sw4De7Fr0Gt3Hy6Ju9Ki2Lo5==",
].join("\n");
const seedPhrase = "tent asset stamp finish tooth angle large draft charge spend credit huge";

describe("findSecret", () => {
  it("names an Anthropic key as an Anthropic key, not an OpenAI one", () => {
    expect(findSecret(`key ${anthropicKey}`)).toEqual({ kind: "an Anthropic API key", zh: "Anthropic API 密钥", label: "Anthropic key" });
    expect(findSecret(`key ${openaiKey}`)?.label).toBe("OpenAI key");
  });

  it("sees through zero-width characters, soft hyphens and full-width letters inside a key", () => {
    const hidden = [...githubToken].join("\u200b");
    expect(findSecret(`token ${hidden}`)?.label).toBe("GitHub token");
    expect(findSecret(`token ${githubToken.slice(0, 10)}\u00ad${githubToken.slice(10)}`)?.label).toBe("GitHub token");
    const wide = githubToken.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect(findSecret(wide)?.label).toBe("GitHub token");
  });

  it("finds a card number followed by its expiry or code, which today's greedy digit run swallowed", () => {
    const card = luhnNumber("4", 16).replace(/(\d{4})(?=\d)/g, "$1 ");
    expect(findSecret(`${card} 12/29`)?.label).toBe("card number");
    expect(findSecret(`${card.replace(/ /g, "")} 123`)?.label).toBe("card number");
  });
});

describe("maskSecrets", () => {
  it("replaces each secret with a placeholder naming its kind and keeps the words around it", () => {
    expect(maskSecrets(`use ${openaiKey} for the bot and ${anthropicKey} for the other`)).toBe(
      "use [secret: OpenAI key] for the bot and [secret: Anthropic key] for the other",
    );
    expect(maskSecrets("wifi password: hunter22! thanks")).toBe("wifi password: [secret: password] thanks");
    expect(maskSecrets("My password is Tr0ub4dor&3!")).toBe("My password is [secret: password]!");
    expect(maskSecrets("DATABASE_URL=postgres://app:Wq9-tz4Lp@db.internal:5432/app")).toBe(
      "DATABASE_URL=postgres://app:[secret: password]@db.internal:5432/app",
    );
  });

  it("masks a key hidden with zero-width characters whole, invisible characters included", () => {
    const hidden = [...githubToken].join("\u200b");
    expect(maskSecrets(`token ${hidden} ok`)).toBe("token [secret: GitHub token] ok");
  });

  it("masks a key wrapped over two lines on both lines", () => {
    expect(maskSecrets(`key:\n${openaiKey.slice(0, 12)}\n${openaiKey.slice(12)}\nthanks`)).toBe("key:\n[secret: OpenAI key]\nthanks");
  });

  it("masks a password only on its own line: the next line's words are never taken for the rest of it", () => {
    expect(maskSecrets("wifi password: Tr0ub4dor&3\nBuyMilk2 and eggs tomorrow")).toBe("wifi password: [secret: password]\nBuyMilk2 and eggs tomorrow");
    expect(maskSecrets("password: hunter22\n2FA is on for the account")).toBe("password: [secret: password]\n2FA is on for the account");
    expect(maskSecretsInParts(["my password: hunter22!", "PostgreSQL stores it hashed."])).toEqual([
      "my password: [secret: password]",
      "PostgreSQL stores it hashed.",
    ]);
  });

  it("masks a quoted passphrase to its closing quote, spaces and all", () => {
    expect(maskSecrets('password: "purple monkey dishwasher" for the vault')).toBe('password: "[secret: password]" for the vault');
    expect(maskSecrets("密码是“紫色 猴子 洗碗机”")).not.toContain("猴子");
  });

  it("finds DB_PASS=, pass:, 密碼, パスワード, a bare 密码 before a value, and a card with dots", () => {
    expect(maskSecrets("DB_PASS=Sup3rS3cret!")).toBe("DB_PASS=[secret: password]");
    expect(maskSecrets("user alice, pass: hunter22!")).toBe("user alice, pass: [secret: password]");
    expect(maskSecrets("密碼：Tr0ub4dor3")).not.toContain("Tr0ub4dor3");
    expect(maskSecrets("パスワード：Tr0ub4dor3")).not.toContain("Tr0ub4dor3");
    expect(maskSecrets("邮箱密码 Tr0ub4dor3")).toBe("邮箱密码 [secret: password]");
    expect(maskSecrets("取款密码 482913")).toBe("取款密码 [secret: password]");
    expect(maskSecrets(`card ${luhnNumber("4111", 16).replace(/(\d{4})(?=\d)/g, "$1.")}`)).toMatch(/^card \[secret: [^\]]+\]$/);
    // Still words: a pass in a sentence, a 密码 course.
    expect(maskSecrets("I got a pass for the museum")).toBe("I got a pass for the museum");
    expect(maskSecrets("my pass is in the drawer")).toBe("my pass is in the drawer");
    expect(maskSecrets("密码学 课程")).toBe("密码学 课程");
  });

  it("leaves text without secrets as it is, byte for byte", () => {
    const text = "Drinks oolong 🍵, no sugar\r\n密码学课很有意思\u200d";
    expect(maskSecrets(text)).toBe(text);
  });

  it("writes placeholders that are not secrets, not control characters and not injection themselves", () => {
    const labels = new Set(
      [
        openaiKey,
        anthropicKey,
        githubToken,
        "password: Tr0ub4dor&3",
        "PIN: 4821",
        `card ${luhnNumber("52", 16)}`,
        "Authorization: Bearer abcDEF123456ghiJKL7890",
        `seed phrase: ${seedPhrase}`,
        ed25519Body,
        join("vault login hv", "s.", "Ab3De6Gh9Jk2Mn5Pq8St1Vw4"),
        join("dc", "kr_pat_", "Xk2Pq9Lm4Rt7Vw1Zy5Bc8Df3Gh6"),
      ].flatMap((t) => findSecrets(t).map((s) => s.label)),
    );
    expect(labels.size).toBeGreaterThanOrEqual(10);
    for (const label of labels) {
      const placeholder = secretPlaceholder(label);
      for (const around of [placeholder, `password: ${placeholder}`, `token = ${placeholder}`, `PIN: ${placeholder}`, `postgres://u:${placeholder}@h`]) {
        expect(findSecrets(around)).toEqual([]);
        expect(checkContent(around, "tool")).toEqual({ ok: true });
        expect(maskSecrets(around)).toBe(around);
      }
    }
  });
});

describe("the shapes of the second batch", () => {
  it("masks a private key's body pasted without its BEGIN line, the END line with it, and leaves a certificate's body", () => {
    expect(maskSecrets(`${rsaBody}\n-----END PRIVATE KEY-----\nthanks`)).toBe("[secret: private key]\nthanks");
    expect(maskSecrets(`private_key = "${ed25519Body}"`)).toBe('private_key = "[secret: private key]"');
    // The same first bytes quoted in a note are no key, nor is a certificate (a sequence where a key has its version).
    expect(findSecrets("PKCS#8 keys start with MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")).toEqual([]);
    expect(findSecrets(join("MIIDdzCCAl+gAwIBAgIJ", rsaBody.slice(20)))).toEqual([]);
  });

  it("names Slack app-level, PyPI, Docker Hub and Vault tokens, a legacy Vault token only beside the word vault or token", () => {
    const legacy = join("s", ".", "Ab3De6Gh9Jk2Mn5Pq8St1Vw4");
    expect(findSecret(join("xa", "pp-1-A0", "1B2C3D4E5-1234567890123-", "9f".repeat(32)))?.label).toBe("Slack token");
    expect(findSecret(join("py", "pi-AgEIcHlwaS5vcmcCJ", "Gk2Lm9Pq4Rs7Tu0Vw3Xy6Za1Bc8De5Fg2Hi9Jk4Lm7No0Pq3Rs6Tu9V"))?.label).toBe("PyPI token");
    expect(findSecret(join("dc", "kr_pat_", "Xk2Pq9Lm4Rt7Vw1Zy5Bc8Df3Gh6"))?.label).toBe("Docker Hub token");
    expect(findSecret(join("vault login hv", "s.", "Ab3De6Gh9Jk2Mn5Pq8St1Vw4"))?.label).toBe("Vault token");
    expect(findSecret(`export VAULT_TOKEN=${legacy}`)?.label).toBe("Vault token");
    expect(findSecrets(`the form field is ${legacy}`)).toEqual([]);
    expect(findSecrets("xapp-1-A0XXXXXXXX-0000000000000-xxxx")).toEqual([]);
  });

  it("finds passwords labelled in Spanish, French, German and Japanese only where the value reads as no word", () => {
    expect(maskSecrets("contraseña: Gato#2024")).toBe("contraseña: [secret: password]");
    expect(maskSecrets("mot de passe : Chaton#42")).toBe("mot de passe : [secret: password]");
    expect(maskSecrets("Das WLAN-Passwort lautet Zugspitze#88.")).toBe("Das WLAN-Passwort lautet [secret: password].");
    expect(maskSecrets("パスワードは Sakura2024! です")).toBe("パスワードは [secret: password] です");
    expect(maskSecrets("暗証番号は 4729 です")).toBe("暗証番号は [secret: PIN] です");
    for (const note of [
      "la contraseña es incorrecta",
      "Kennwort: siehe Passwortmanager",
      "MDP: states, actions, rewards",
      "J'ai oublié mon mot de passe",
      "Passwort: geändert",
      "パスワードを忘れた",
    ]) {
      expect(findSecrets(note)).toEqual([]);
    }
  });

  it("masks a passphrase of plain words to the end of its clause, and not a sentence about one", () => {
    expect(maskSecrets("my passphrase is correct horse battery staple, don't tell")).toBe("my passphrase is [secret: password], don't tell");
    expect(maskSecrets("passphrase: tundra maple cactus viking")).toBe("passphrase: [secret: password]");
    for (const note of [
      "the wifi passphrase is on the sticker under the router",
      "my password is stored securely elsewhere",
      "Password: changed last week",
      "bus pass: monthly unlimited zones",
    ]) {
      expect(findSecrets(note)).toEqual([]);
    }
  });

  it("masks twelve words of the BIP-39 list after a label, numbered from 1 or one space apart, and not a list with commas", () => {
    expect(maskSecrets(`seed phrase: ${seedPhrase}`)).toBe("seed phrase: [secret: recovery phrase]");
    expect(
      maskSecrets(
        `${seedPhrase
          .split(" ")
          .map((w, i) => `${i + 1}. ${w}`)
          .join("\n")}\nok?`,
      ),
    ).toBe("1. [secret: recovery phrase]\nok?");
    expect(maskSecrets(seedPhrase)).toBe("[secret: recovery phrase]");
    expect(findSecrets(seedPhrase.split(" ").join(", "))).toEqual([]);
    expect(findSecrets(seedPhrase.split(" ").slice(0, 11).join(" "))).toEqual([]);
    expect(findSecrets("Never share your seed phrase; no wallet support team will ask for it")).toEqual([]);
  });
});

describe("maskSecretsInParts", () => {
  it("masks a key split over two messages in both of them", () => {
    const [first, second, third] = maskSecretsInParts([`my key is ${openaiKey.slice(0, 14)}`, openaiKey.slice(14), "thanks"]);
    expect(first).toBe("my key is [secret: OpenAI key]");
    expect(second).toBe("[secret: OpenAI key]");
    expect(third).toBe("thanks");
  });

  it("gives every part back unchanged when nothing is secret", () => {
    const parts = ["hello", "", "## heading\nline"];
    expect(maskSecretsInParts(parts)).toEqual(parts);
  });
});

describe("addedSecret", () => {
  it("sees a card number assembled from two writes", () => {
    const card = luhnNumber("4", 16);
    const before = `## Card\ncard ${card.slice(0, 8)}\n`;
    const after = `## Card\ncard ${card.slice(0, 8)}${card.slice(8)}\n`;
    expect(findSecret(card.slice(8))).toBeUndefined();
    expect(addedSecret(before, after)?.label).toBe("card number");
  });

  it("does not count a secret the text already held (a person's own edit) as added", () => {
    const before = "## Wifi\nwifi password: hunter22!\n";
    expect(addedSecret(before, `${before}\n## Tea\n- oolong\n`)).toBeUndefined();
    expect(addedSecret(before, `${before}- again password: hunter22!\n`)?.label).toBe("password");
  });
});

/** Inputs that make a backtracking pattern slow, as `size` characters: the shape's near misses, repeated. */
const repeat = (unit: string) => (size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const prefixThen = (prefix: string, unit: string) => (size: number) => prefix + repeat(unit)(size - prefix.length);

const GENERIC = [
  repeat("a"),
  repeat(" "),
  repeat("\n"),
  repeat("a\n"),
  repeat("-"),
  repeat("1"),
  repeat("1 "),
  repeat("1-"),
  repeat("aB3_-"),
  repeat("é"),
  repeat("密"),
  repeat("\u200b"),
  repeat("A/+="),
  repeat("a.a."),
  repeat(":"),
  repeat("=a"),
  repeat("@:"),
];

const WORST: Record<string, ((size: number) => string)[]> = {
  pem: [repeat("-----BEGIN PRIVATE KEY-----"), repeat(`-----BEGIN ${"A".repeat(40)}`), prefixThen("-----BEGIN PRIVATE KEY-----\n", "AAAA\n")],
  "pem-body": [
    repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"),
    repeat(`MC4CAQAwBQYDK2VwBCIEI${"A".repeat(43)}\n`),
    prefixThen("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "A"),
    repeat(`MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${"A".repeat(8)}\\n`),
    repeat(`MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${"A".repeat(40)}\nthanks `),
    repeat("b3BlbnNzaC1rZXktdjE"),
    repeat("M"),
  ],
  putty: [repeat("PuTTY-User-Key-File-1: x\n"), prefixThen("PuTTY-User-Key-File-1: x", "\nA: b")],
  anthropic: [repeat("sk-ant-"), prefixThen("sk-ant-", "a"), repeat("sk-ant-ab12-")],
  openai: [repeat("sk-"), prefixThen("sk-", "a-"), repeat(`=sk-${"a".repeat(19)}`), repeat("sk-proj-")],
  github: [repeat("ghp_"), prefixThen("github_pat_", "_"), repeat("github_pat_")],
  gitlab: [repeat("glpat-"), prefixThen("glpat-", "a.")],
  slack: [repeat("xoxb-"), prefixThen("xoxb-", "1-"), repeat("xapp-"), prefixThen("xapp-1-", "1-")],
  "slack-webhook": [repeat("hooks.slack.com/services/"), prefixThen("hooks.slack.com/services/", "a/")],
  "discord-webhook": [repeat("discord.com/api/webhooks/12345678901234567/"), prefixThen("discord.com/api/webhooks/12345678901234567/", "a")],
  "aws-access": [repeat("AKIA"), repeat("AKIAAAAAAAAAAAAAAAAA1")],
  "aws-secret": [repeat("aws_secret_access_key="), repeat(`aws secret key is ${"A".repeat(39)} `)],
  "aws-pair": [repeat("A"), repeat(`${"A/".repeat(20)} `), repeat("aws AAAA")],
  google: [repeat("AIza"), prefixThen("AIza", "a")],
  "google-oauth": [repeat("GOCSPX-"), repeat("ya29."), repeat("1//0")],
  stripe: [repeat("sk_live_"), prefixThen("sk_live_", "a")],
  npm: [repeat("npm_"), prefixThen("npm_", "a")],
  pypi: [repeat("pypi-AgE"), prefixThen("pypi-AgE", "a")],
  "docker-hub": [repeat("dckr_pat_"), prefixThen("dckr_pat_", "a-")],
  vault: [repeat("hvs."), prefixThen("hvs.", "a"), repeat("hvs.hvb.")],
  "vault-legacy": [repeat("vault s."), repeat(`token s.${"a".repeat(24)} `), repeat("s.s.s."), repeat(`s.${"a".repeat(24)}.`)],
  "hugging-face": [repeat("hf_"), prefixThen("hf_", "a")],
  sendgrid: [repeat("SG."), repeat(`SG.${"a".repeat(16)}.`)],
  telegram: [repeat("123456789:"), repeat("1"), repeat(`123456789:${"a".repeat(34)} `)],
  "azure-key": [repeat("AccountKey="), prefixThen("AccountKey=", "a")],
  "azure-sas": [repeat("?sig="), prefixThen("?sig=", "%")],
  "azure-client": [repeat("abc1Q~"), repeat("~"), repeat("a1Q~a")],
  "other-service": [repeat("shpat_"), repeat("SK0"), repeat("key-"), repeat("sq0atp-")],
  "discord-bot": [repeat(`M${"a".repeat(25)}.`), repeat("Ma.Ma."), repeat(`M${"a".repeat(25)}.aaaaaa.`)],
  jwt: [repeat("eyJ-"), repeat("eyJaaaaaaaa.eyJ"), repeat("eyJaaaaaaaa.eyJaaaaaaaa.")],
  bearer: [repeat("bearer "), repeat(`Bearer        ${"a".repeat(19)} `)],
  basic: [repeat("authorization: basic "), repeat("Authorization:")],
  "url-password": [repeat("a://"), prefixThen("postgres://user:", "a"), repeat("http://:"), repeat("ab+.-")],
  "url-param": [repeat("?a="), repeat("&"), prefixThen("?key=", "a"), repeat("?key=aaaaaaa&")],
  password: [
    repeat("password "),
    prefixThen("password for ", "a "),
    repeat("password is "),
    repeat("password:"),
    repeat("pw="),
    prefixThen("password for", " "),
    prefixThen("password is", " "),
    repeat("passphrase is correct horse "),
  ],
  "password-intl": [
    repeat("contraseña "),
    prefixThen("contraseña", " "),
    prefixThen("mot de passe pour", " "),
    repeat("clave es "),
    repeat("Passwort: "),
    prefixThen("mdp ", "a "),
  ],
  pin: [repeat("pin is "), repeat("pin: 123 "), prefixThen("pin for ", "a "), prefixThen("pin for", " ")],
  "password-zh": [repeat("密码"), repeat("密码是"), repeat("密码一直 是 ")],
  "password-zh-bare": [repeat("密码 "), repeat("密码 a1"), repeat("パスワード  x")],
  "pin-zh": [repeat("PIN码"), repeat("PIN 码是 123 ")],
  labelled: [repeat("token: "), repeat(`api key is ${"a".repeat(15)} `), repeat("secret="), prefixThen("token=", "a"), repeat("key="), repeat("api_key: 1")],
  card: [repeat("1 "), repeat("1-"), repeat("4111 1111 1111 1111 "), repeat("1234 "), repeat("12345678901234567890 ")],
  "recovery-phrase": [
    repeat("abandon "),
    repeat("abandon, "),
    repeat("abandonment "),
    repeat("1. abandon "),
    repeat("Abc "),
    repeat("seed phrase: "),
    repeat("abandon ability able about above absent absorb abstract absurd abuse access a "),
    repeat("seed phrase: abandon ability able about above absent absorb abstract absurd abuse access the "),
  ],
};

/** The shapes of the second batch, and the qualifiers ("password for", "pin for") once quadratic on a run of blanks. */
const SECOND_BATCH_SHAPES = ["pem-body", "pypi", "docker-hub", "vault", "vault-legacy", "password-intl", "recovery-phrase", "slack", "password", "pin"];

/** Milliseconds one run of `work` takes. */
/** CPU time, not wall time (tests/helpers/cpu-time.ts). */
const timed = cpuMs;

/** The fastest of three runs: the machine is shared, and only the pattern's own cost matters here. */
function fastest(work: () => unknown): number {
  return Math.min(timed(work), timed(work), timed(work));
}

/**
 * Growth first: from 16 to 64 KB a linear check takes about 4× longer and a quadratic one 16×,
 * so a quadratic pattern fails here in seconds instead of hanging on the megabyte. A growth
 * over 10× is measured again before it counts: a garbage collection can land in one run, a
 * quadratic pattern is slow every time.
 */
function expectLinear(work: (input: string) => unknown, input: (size: number) => string): void {
  const [small, large] = [input(16 * 1024), input(64 * 1024)];
  let growth = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const slow = fastest(() => work(large));
    growth = slow > 20 ? slow / fastest(() => work(small)) : 1;
    if (growth < 10) break;
  }
  expect(growth).toBeLessThan(10);
  expect(timed(() => work(input(1024 * 1024)))).toBeLessThan(3000);
}

const runPattern = (id: string) => (input: string) => {
  const pattern = shapePattern(id);
  let count = 0;
  for (let m = pattern.exec(input); m !== null; m = pattern.exec(input)) {
    count++;
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return count;
};

describe("every pattern of the secret check is linear", () => {
  it("has worst inputs for every shape", () => {
    expect(Object.keys(WORST).sort()).toEqual([...SHAPE_IDS].sort());
  });

  it.each([...SHAPE_IDS])("%s: a megabyte of its worst input, and of generic ones, in well under a second", (id) => {
    for (const input of [...(WORST[id] ?? []), ...GENERIC]) expectLinear(runPattern(id), input);
  });

  // The shapes whose checks read the text around a match, or make many matches, and the views.
  const AROUND = [
    "pem",
    "pem-body",
    "putty",
    "card",
    "password",
    "password-intl",
    "password-zh",
    "url-param",
    "url-password",
    "aws-pair",
    "vault-legacy",
    "labelled",
    "openai",
    "jwt",
    "recovery-phrase",
  ];

  it.each(SECOND_BATCH_SHAPES)("%s: its worst inputs at 32 KB and 1 MB within the CPU-time bounds of tests/helpers/linear-time.ts", (id) => {
    for (const input of WORST[id]!) expectLinearOnCpu(input, runPattern(id));
  });

  it("the whole check, masking included, on a megabyte of the inputs that make it do the most work", () => {
    for (const input of [...AROUND.flatMap((id) => WORST[id]!), ...GENERIC]) expectLinear(maskSecrets, input);
  }, 60_000);
});
