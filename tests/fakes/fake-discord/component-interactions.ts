import { ComponentType, InteractionType } from "discord.js";
import { componentTypeName, sentComponents, type SentComponent } from "./components.js";
import { isEphemeral, type FakeDiscordWorld } from "./discord-actions.js";
import { messageToApi } from "./entities.js";
import { createInteraction, dispatchInteraction } from "./interactions.js";
import type { FakeChannel, FakeInteraction, FakeMessage } from "./model.js";

export interface ButtonClickInput {
  userId: string;
  messageId: string;
  customId: string;
  /** The person's client language; their user's locale when left out. */
  locale?: string;
}

export interface SelectMenuInput extends ButtonClickInput {
  values: string[];
}

/**
 * A person clicking a button: dispatches INTERACTION_CREATE (type 3) with the message the button is on.
 * Throws when the person could not click it: no such button, disabled, or a message they cannot see.
 */
export function clickButton(world: FakeDiscordWorld, input: ButtonClickInput): FakeInteraction {
  const { message, channel } = componentInReach(world, input, ComponentType.Button);
  return dispatchComponentInteraction(world, input, message, channel, { custom_id: input.customId, component_type: ComponentType.Button });
}

/**
 * A modified client clicking a button with a custom id of its own making, on a message it can
 * see. Discord refuses custom ids the message does not carry; the fake lets a test prove the
 * bot does not depend on that. The message must still be in the person's reach.
 */
export function forgeButtonClick(world: FakeDiscordWorld, input: ButtonClickInput): FakeInteraction {
  const { state } = world;
  const message = state.messages.get(input.messageId);
  if (!message || message.deleted) throw new Error(`fake Discord has no message ${input.messageId}`);
  const channel = state.channel(message.channelId);
  if (channel.kind === "dm" && channel.recipientId !== input.userId) throw new Error(`message ${message.id} is in a DM with someone else`);
  return dispatchComponentInteraction(world, input, message, channel, { custom_id: input.customId, component_type: ComponentType.Button });
}

/** A person choosing `values` in a string select; they must be among its options, within its min and max. */
export function selectMenu(world: FakeDiscordWorld, input: SelectMenuInput): FakeInteraction {
  const { message, channel, component } = componentInReach(world, input, ComponentType.StringSelect);
  checkChoice(component, input);
  return dispatchComponentInteraction(world, input, message, channel, {
    custom_id: input.customId,
    component_type: ComponentType.StringSelect,
    values: input.values,
  });
}

function dispatchComponentInteraction(
  world: FakeDiscordWorld,
  input: ButtonClickInput & { values?: string[] },
  message: FakeMessage,
  channel: FakeChannel,
  data: { custom_id: string; component_type: ComponentType; values?: string[] },
): FakeInteraction {
  const interaction = createInteraction(
    world,
    InteractionType.MessageComponent,
    { userId: input.userId, channelId: channel.id },
    {
      customId: input.customId,
      componentType: data.component_type,
      ...(input.values ? { values: input.values } : {}),
      componentMessageId: message.id,
    },
  );
  dispatchInteraction(world, interaction, channel, input.locale, data, { message: messageToApi(world.state, message) });
  return interaction;
}

/** The component as the person sees it, or an error saying why they could not use it. */
function componentInReach(
  world: FakeDiscordWorld,
  input: ButtonClickInput,
  type: ComponentType.Button | ComponentType.StringSelect,
): { message: FakeMessage; channel: FakeChannel; component: SentComponent } {
  const { state } = world;
  const user = state.user(input.userId);
  const message = state.messages.get(input.messageId);
  if (!message) throw new Error(`fake Discord has no message ${input.messageId}`);
  if (message.deleted) throw new Error(`message ${message.id} was deleted; nobody can use its components`);
  const channel = state.liveChannel(message.channelId);
  if (!channel) throw new Error(`the channel of message ${message.id} was deleted`);
  if (channel.kind === "dm" && channel.recipientId !== user.id) {
    throw new Error(`message ${message.id} is in a DM with someone else; ${user.username} cannot see it`);
  }
  if (isEphemeral(message)) {
    const ownerId = message.interactionId ? state.interactions.get(message.interactionId)?.userId : undefined;
    if (ownerId !== user.id) {
      const owner = ownerId ? state.user(ownerId).username : "the person who ran the command";
      throw new Error(`message ${message.id} is ephemeral: only ${owner} can see it, not ${user.username}`);
    }
  }
  const components = sentComponents(message.components);
  const component = components.find((c) => c.custom_id === input.customId);
  if (!component) {
    const known = components.map((c) => c.custom_id).filter(Boolean);
    throw new Error(`message ${message.id} has no component "${input.customId}"; it has: ${known.join(", ") || "none"}`);
  }
  if (component.type !== type) {
    throw new Error(`"${input.customId}" is a ${componentTypeName(component.type)}, not a ${componentTypeName(type)}`);
  }
  if (component.disabled) throw new Error(`${componentTypeName(type)} "${input.customId}" is disabled; nobody can use it`);
  return { message, channel, component };
}

function checkChoice(select: SentComponent, input: SelectMenuInput): void {
  const offered = (select.options ?? []).map((option) => option.value);
  const seen = new Set<string>();
  for (const value of input.values) {
    if (seen.has(value)) throw new Error(`select "${input.customId}" cannot have "${value}" chosen twice`);
    seen.add(value);
    if (!offered.includes(value)) {
      throw new Error(`"${value}" is not one of its options in select "${input.customId}": ${offered.join(", ")}`);
    }
  }
  const min = select.min_values ?? 1;
  const max = select.max_values ?? 1;
  if (input.values.length < min) throw new Error(`select "${input.customId}" needs at least ${min} value(s); got ${input.values.length}`);
  if (input.values.length > max) throw new Error(`select "${input.customId}" allows at most ${max} value(s); got ${input.values.length}`);
}
