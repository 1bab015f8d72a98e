import { Client, Events, GatewayIntentBits, Partials, type ClientEvents, type ClientOptions, type Interaction } from "discord.js";
import { afterEach, beforeEach } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";

/** Helpers for the fake Discord's self-tests, which drive it through the real discord.js client. */

export const BOT_INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages];

/** The discord.js clients a test logged in, so that the test's teardown can destroy them all. */
export class DiscordJsClients {
  private readonly clients: Client[] = [];

  async logIn(discord: FakeDiscord, overrides: Partial<ClientOptions> = {}): Promise<Client<true>> {
    const client = new Client({
      intents: BOT_INTENTS,
      partials: [Partials.Channel],
      rest: { api: discord.apiUrl },
      ...overrides,
    });
    this.clients.push(client);
    const ready = nextEvent(client, Events.ClientReady);
    await client.login(discord.token);
    await ready;
    return client as Client<true>;
  }

  async destroyAll(): Promise<void> {
    await Promise.all(this.clients.splice(0).map((client) => client.destroy()));
  }
}

/** Resolves with the arguments of the next `event` that passes `filter`. */
export function nextEvent<Event extends keyof ClientEvents>(
  client: Client,
  event: Event,
  filter: (...args: ClientEvents[Event]) => boolean = () => true,
  timeoutMs = 5000,
): Promise<ClientEvents[Event]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`no ${String(event)} event within ${timeoutMs}ms`));
    }, timeoutMs);
    const listener = (...args: ClientEvents[Event]) => {
      if (!filter(...args)) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args);
    };
    client.on(event, listener);
  });
}

export function nextInteraction(client: Client): Promise<Interaction> {
  return nextEvent(client, Events.InteractionCreate).then(([interaction]) => interaction);
}

/**
 * A fresh fake Discord before each test, handed to `use`; after it, the discord.js clients the
 * test logged in are destroyed and the fake is closed.
 */
export function fakeDiscordPerTest(use: (discord: FakeDiscord) => void): DiscordJsClients {
  const clients = new DiscordJsClients();
  let current: FakeDiscord | undefined;
  beforeEach(async () => {
    current = await startFakeDiscord();
    use(current);
  });
  afterEach(async () => {
    await clients.destroyAll();
    await current?.close();
  });
  return clients;
}
