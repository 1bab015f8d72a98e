import { ComponentType, TextInputStyle } from "discord.js";
import { z } from "zod";
import { type DiscordFailure, formBodyFailure } from "./discord-errors.js";
import type { RecordedModal, RecordedTextInput } from "./model.js";

const textInputSchema = z
  .object({
    type: z.literal(ComponentType.TextInput),
    id: z.number().optional(),
    custom_id: z.string().min(1).max(100),
    style: z.union([z.literal(TextInputStyle.Short), z.literal(TextInputStyle.Paragraph)]),
    // Only action-row text inputs carry their own label; inside a Label component it must be left out.
    label: z.string().min(1).max(45).optional(),
    min_length: z.number().int().min(0).max(4000).optional(),
    max_length: z.number().int().min(1).max(4000).optional(),
    required: z.boolean().optional(),
    value: z.string().max(4000).optional(),
    placeholder: z.string().max(100).optional(),
  })
  .refine((input) => input.value === undefined || input.max_length === undefined || input.value.length <= input.max_length, {
    message: "Must be no longer than max_length.",
    path: ["value"],
  });

type TextInput = z.infer<typeof textInputSchema>;

const otherLabelledComponent = z.looseObject({
  type: z.number().refine((type) => type !== ComponentType.TextInput),
  custom_id: z.string().min(1).max(100),
});

const modalComponentSchema = z.union([
  z.object({ type: z.literal(ComponentType.ActionRow), id: z.number().optional(), components: z.array(textInputSchema).length(1) }),
  z.object({
    type: z.literal(ComponentType.Label),
    id: z.number().optional(),
    label: z.string().min(1).max(45),
    description: z.string().max(100).optional(),
    component: z.union([textInputSchema, otherLabelledComponent]),
  }),
  z.object({ type: z.literal(ComponentType.TextDisplay), id: z.number().optional(), content: z.string() }),
]);

const modalSchema = z.object({
  custom_id: z.string().min(1).max(100),
  title: z.string().min(1).max(45),
  components: z.array(modalComponentSchema).min(1).max(5),
});

/** Reads the `data` of a MODAL (type 9) callback, enforcing Discord's limits on titles, labels and lengths. */
export function parseModal(data: unknown): RecordedModal | DiscordFailure {
  const result = modalSchema.safeParse(data);
  if (!result.success) {
    return formBodyFailure(result.error.issues.map((issue) => ({ ...issue, path: ["data", ...issue.path] })));
  }
  const modal = result.data;
  const inputs: RecordedTextInput[] = [];
  let usesLabels = false;
  for (const component of modal.components) {
    if (component.type === ComponentType.ActionRow) {
      for (const input of component.components) inputs.push(recordInput(input, input.label ?? null, null));
    } else if (component.type === ComponentType.Label) {
      usesLabels = true;
      const inner = component.component;
      if (isTextInput(inner)) inputs.push(recordInput(inner, component.label, component.description ?? null));
    }
  }
  return { customId: modal.custom_id, title: modal.title, layout: usesLabels ? "label" : "action-row", inputs };
}

function isTextInput(component: TextInput | z.infer<typeof otherLabelledComponent>): component is TextInput {
  return component.type === ComponentType.TextInput;
}

function recordInput(input: TextInput, label: string | null, description: string | null): RecordedTextInput {
  return {
    customId: input.custom_id,
    label,
    description,
    style: input.style,
    required: input.required ?? true,
    value: input.value ?? null,
    placeholder: input.placeholder ?? null,
    minLength: input.min_length ?? null,
    maxLength: input.max_length ?? null,
  };
}

/**
 * The `components` of a modal submit, laid out as the modal was shown (Label or action rows), after
 * checking the answers are ones a person could give in that modal. Without a known modal, action rows.
 */
export function modalSubmitComponents(modal: RecordedModal | undefined, fields: Record<string, string>): unknown[] {
  if (modal) checkAnswers(modal, fields);
  const customIds = modal ? modal.inputs.map((input) => input.customId) : Object.keys(fields);
  return customIds.map((customId, index) => {
    const textInput = { type: ComponentType.TextInput, id: index * 2 + 2, custom_id: customId, value: fields[customId] ?? "" };
    return modal?.layout === "label"
      ? { type: ComponentType.Label, id: index * 2 + 1, component: textInput }
      : { type: ComponentType.ActionRow, id: index * 2 + 1, components: [textInput] };
  });
}

function checkAnswers(modal: RecordedModal, fields: Record<string, string>): void {
  const known = modal.inputs.map((input) => input.customId);
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) {
      throw new Error(`modal "${modal.customId}" has no text input "${key}"; it has: ${known.join(", ")}`);
    }
  }
  for (const input of modal.inputs) {
    const value = fields[input.customId] ?? "";
    if (input.required && value.length === 0) {
      throw new Error(`modal "${modal.customId}" requires "${input.customId}"; Discord would not let the person submit`);
    }
    if (input.maxLength !== null && value.length > input.maxLength) {
      throw new Error(`"${input.customId}" allows ${input.maxLength} characters; the answer has ${value.length}`);
    }
    if (input.minLength !== null && value.length > 0 && value.length < input.minLength) {
      throw new Error(`"${input.customId}" needs at least ${input.minLength} characters; the answer has ${value.length}`);
    }
  }
}
