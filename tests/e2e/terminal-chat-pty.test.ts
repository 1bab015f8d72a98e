import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { runInTerminal, type Terminal } from "../helpers/pty.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { dailyLog } from "../helpers/daily-log.js";

/** The terminal chat as a person at a terminal sees it: a real pseudo-terminal, keys as bytes. */

const CTRL_C = "\x03";
const ENTER = "\r";
const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Starts the chat in a terminal and waits for its first prompt. */
async function startChat(home: string, args: string[] = ["--user", "42"]): Promise<Terminal> {
  const term = runInTerminal("src/cli/chat.ts", args, { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake!.baseURL });
  // Start-up is tsx compiling the chat: seconds on a busy machine.
  await term.waitFor("\n> ", { timeoutMs: 30_000 });
  return term;
}

/** What the person's messages were, as the model received them (the last user message of each answer request). */
function sentMessages(): string[] {
  return fake!.requests.filter((r) => r.body.tools).map((r) => String(r.body.messages.at(-1)!.content));
}

/** About four seconds of streaming: time enough to interrupt it on a busy machine. */
const slowAnswer = {
  text: "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau",
  chunkSize: 5,
  tokensPerSecond: 5,
};

describe("npm run chat in a terminal", () => {
  it("Ctrl+C while an answer streams stops it, keeps what was shown in the history, and returns to the prompt", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue(slowAnswer, { text: "Sure." });
    fake.setFallback({ text: "Summary." });
    const term = await startChat(home);
    term.type(`count for me${ENTER}`);
    await term.waitFor("alpha beta");
    term.type(CTRL_C);
    await term.waitFor("⏹ stopped\n> ");
    expect(term.screen()).not.toContain("omicron");
    // Past the quit window: the next Ctrl+C ends the conversation instead of quitting.
    await new Promise((r) => setTimeout(r, 1100));
    term.type(`go on${ENTER}`);
    await term.waitFor("Sure.");
    const history = fake.requests[1]!.body.messages;
    const stopped = history.find((m) => m.role === "assistant");
    expect(String(stopped?.content)).toMatch(/^alpha beta/);
    expect(String(stopped?.content)).not.toContain("omicron");
    expect(term.screen()).toContain(String(stopped?.content));
    term.type("/end\r");
    expect(await term.exited).toBe(0);
  }, 60_000);

  it("Ctrl+C at a prompt with text clears it; at an empty prompt it ends the conversation with its summary", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Hello there." }, { text: "They said hello and left." });
    const term = await startChat(home);
    term.type(`hello${ENTER}`);
    await term.waitFor("Hello there.\n> ");
    const mark = term.screen().length;
    term.type("half a thought");
    await term.waitFor("half a thought", { from: mark });
    term.type(CTRL_C);
    await term.waitFor("^C\n> ", { from: mark });
    // Not a quit: a Ctrl+C that clears text does not count as the first of two.
    term.type(CTRL_C);
    await term.waitFor("Ending the conversation and writing its summary", { from: mark });
    await term.waitFor("Conversation ended; its summary is in today's daily log.");
    expect(await term.exited).toBe(0);
    expect(sentMessages()).toEqual(["hello"]);
    expect(await dailyLog(home, "42")).toContain("They said hello and left.");
  }, 60_000);

  it("a second Ctrl+C within a second quits at once, says so, and the next start writes the summary", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Noted, Mochi." }, slowAnswer);
    fake.setFallback((req) =>
      req.body.tools
        ? { text: "hi again" }
        : { text: `summary ${JSON.stringify(req.body.messages).includes("Mochi") ? "of the Mochi run" : "of the second run"}` },
    );
    const term = await startChat(home);
    term.type(`my cat is Mochi${ENTER}`);
    await term.waitFor("Noted, Mochi.\n> ");
    term.type(`count${ENTER}`);
    await term.waitFor("alpha");
    term.type(CTRL_C);
    term.type(CTRL_C);
    await term.waitFor("summary will be written the next time you start the chat");
    expect(await term.exited).toBe(130);
    expect(fake.requests.filter((r) => !r.body.tools)).toHaveLength(0);
    const second = await startChat(home);
    second.type(`/end${ENTER}`);
    expect(await second.exited).toBe(0);
    const log = await dailyLog(home, "42");
    expect(log).toContain("summary of the Mochi run");
  }, 60_000);

  it("a Ctrl+C while the summary is being written quits at once, and the next start writes it", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    // The first summary request hangs: a slow model at the end of the conversation.
    fake.enqueue({ text: "Noted, Mochi." }, { text: "never sent", firstTokenDelayMs: 60_000 }, { text: "summary of the Mochi run" });
    const term = await startChat(home);
    term.type(`my cat is Mochi${ENTER}`);
    await term.waitFor("Noted, Mochi.\n> ");
    term.type(CTRL_C);
    await term.waitFor("Ending the conversation");
    await fake.waitForRequests(2, 10_000);
    // Well past the quit window: a Ctrl+C during the close still quits at once.
    await new Promise((r) => setTimeout(r, 1200));
    term.type(CTRL_C);
    await term.waitFor("summary will be written the next time you start the chat");
    expect(await term.exited).toBe(130);
    const second = await startChat(home);
    second.type("\x04");
    expect(await second.exited).toBe(0);
    expect(await dailyLog(home, "42")).toContain("summary of the Mochi run");
  }, 60_000);

  it("closing the terminal (SIGHUP) ends the conversation with its summary", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Noted." }, { text: "Summary after the window closed." });
    const term = await startChat(home);
    term.type(`remember the kettle${ENTER}`);
    await term.waitFor("Noted.\n> ");
    term.close();
    // A clean exit: the close was not cut short by writes to the closed terminal, nor by Node restoring it.
    expect(await term.exited).toBe(0);
    expect(await dailyLog(home, "42")).toContain("Summary after the window closed.");
  }, 60_000);

  it("a bracketed paste of several lines is one message, sent with Enter", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback({ text: "Got it." });
    const term = await startChat(home);
    term.type(PASTE("first line\nsecond line\r\nthird line\n"));
    // A paste waits for Enter: nothing is sent yet.
    await new Promise((r) => setTimeout(r, 300));
    expect(sentMessages()).toEqual([]);
    term.type(`and my words${ENTER}`);
    await term.waitFor("Got it.\n> ");
    expect(sentMessages()).toEqual(["first line\nsecond line\nthird line\nand my words"]);
    term.type(`/end${ENTER}`);
    expect(await term.exited).toBe(0);
  }, 60_000);

  it("lines that arrive within a few milliseconds (a paste without bracketed paste) are one message", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback({ text: "Got it." });
    const term = await startChat(home);
    term.type("def greet(name):\r    return f'hi {name}'\r\rprint(greet('Mei'))\r");
    await term.waitFor("Got it.\n> ");
    term.type(`and a second message${ENTER}`);
    await term.waitFor(/Got it\.\n> .*\n?Got it\.\n> /s);
    expect(sentMessages()).toEqual(["def greet(name):\n    return f'hi {name}'\n\nprint(greet('Mei'))", "and a second message"]);
    // Ctrl+D at an empty prompt ends the conversation like /end.
    term.type("\x04");
    expect(await term.exited).toBe(0);
    expect(await dailyLog(home, "42")).toContain("Got it.");
  }, 60_000);

  it("text typed while an answer streams is not echoed into it, and is sent after it", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue(slowAnswer, { text: "Second answer." }, { text: "Third answer." });
    const term = await startChat(home);
    term.type(`first question${ENTER}`);
    await term.waitFor("alpha");
    term.type(`typed early${ENTER}`);
    await new Promise((r) => setTimeout(r, 100));
    term.type(`and more`);
    await term.waitFor("Second answer.\n> and more");
    const screen = term.screen();
    const answer = screen.slice(screen.indexOf("alpha"), screen.indexOf(" tau") + 4);
    expect(answer).not.toContain("typed");
    expect(screen).toContain("tau\n> typed early\nSecond answer.\n> and more");
    term.type(ENTER);
    await term.waitFor("Third answer.");
    expect(sentMessages()).toEqual(["first question", "typed early", "and more"]);
    term.type(`/end${ENTER}`);
    expect(await term.exited).toBe(0);
  }, 60_000);

  it("when the model server goes away, the message is kept at the prompt and Enter sends it again once the server is back", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const port = Number(new URL(fake.baseURL).port);
    fake.enqueue({ text: "Let me think", chunkSize: 3, stallAfterChunks: 2 });
    const term = await startChat(home);
    term.type(PASTE("what about\nthis plan"));
    term.type(ENTER);
    await term.waitFor("Let ");
    await fake.close();
    await term.waitFor("press Enter to send it again");
    await term.waitFor("> what about\n  this plan");
    fake = await startFakeOpenAI({ port });
    fake.enqueue({ text: "A fine plan." }, { text: "Summary." });
    term.type(ENTER);
    await term.waitFor("A fine plan.");
    expect(sentMessages()).toEqual(["what about\nthis plan"]);
    expect(term.screen()).not.toMatch(/\{"level"/);
    term.type(`/end${ENTER}`);
    expect(await term.exited).toBe(0);
  }, 60_000);
});
