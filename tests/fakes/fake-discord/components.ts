import { ComponentType } from "discord.js";

/** A button or select of a message, flattened out of its action rows (or sections and containers) for assertions. */
export interface FlatComponent {
  type: ComponentType;
  /** null for link buttons, which open `url` instead of reaching the bot. */
  customId: string | null;
  /** A button's label; a select's placeholder. */
  label: string | null;
  disabled: boolean;
  url?: string;
  /** String selects: the choices offered. */
  options?: { label: string; value: string; description?: string; default?: boolean }[];
}

/** The fields the fake reads from an interactive component as the bot sent it. */
export interface SentComponent {
  type: number;
  custom_id?: string;
  label?: string;
  placeholder?: string;
  disabled?: boolean;
  url?: string;
  min_values?: number;
  max_values?: number;
  options?: { label: string; value: string; description?: string; default?: boolean }[];
}

/** What a person would call each interactive component. */
const INTERACTIVE: ReadonlyMap<number, string> = new Map([
  [ComponentType.Button, "button"],
  [ComponentType.StringSelect, "string select"],
  [ComponentType.UserSelect, "user select"],
  [ComponentType.RoleSelect, "role select"],
  [ComponentType.MentionableSelect, "mentionable select"],
  [ComponentType.ChannelSelect, "channel select"],
]);

/** Buttons and selects of a message (or of a recorded response), in the order a person sees them. */
export function componentsOf(message: { components?: readonly unknown[] | undefined }): FlatComponent[] {
  return sentComponents(message.components ?? []).map((component) => ({
    type: component.type as ComponentType,
    customId: component.custom_id ?? null,
    label: component.label ?? component.placeholder ?? null,
    disabled: component.disabled ?? false,
    ...(component.url ? { url: component.url } : {}),
    ...(component.type === ComponentType.StringSelect
      ? {
          options: (component.options ?? []).map((option) => ({
            label: option.label,
            value: option.value,
            ...(option.description ? { description: option.description } : {}),
            ...(option.default ? { default: true } : {}),
          })),
        }
      : {}),
  }));
}

/** The interactive components inside action rows, sections (their accessory) and containers. */
export function sentComponents(components: readonly unknown[]): SentComponent[] {
  const found: SentComponent[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    const component = node as SentComponent & { components?: unknown[]; component?: unknown; accessory?: unknown };
    if (INTERACTIVE.has(component.type)) found.push(component);
    component.components?.forEach(visit);
    visit(component.component);
    visit(component.accessory);
  };
  components.forEach(visit);
  return found;
}

export function componentTypeName(type: number): string {
  return INTERACTIVE.get(type) ?? `component of type ${type}`;
}
