import { ToolResult, Type, defineTool, type AnyToolDefinition } from '@milpa/core';

/** One entry of the {@link CropAlmanac}. */
export interface CropEntry {
  /** The crop's name. */
  readonly crop: string;
  /** Its botanical family. */
  readonly family: string;
  /** What it does for the milpa. */
  readonly role: string;
  /** Weeks from sowing to harvest. */
  readonly weeks_to_harvest: number;
}

const ENTRIES: readonly CropEntry[] = [
  { crop: 'maize', family: 'Poaceae', role: 'the stalk the beans climb', weeks_to_harvest: 16 },
  { crop: 'beans', family: 'Fabaceae', role: 'fixes nitrogen for the maize', weeks_to_harvest: 10 },
  { crop: 'squash', family: 'Cucurbitaceae', role: 'shades the soil against weeds', weeks_to_harvest: 12 },
  { crop: 'chile', family: 'Solanaceae', role: 'grows at the edge of the plot', weeks_to_harvest: 14 },
];

/**
 * A small crop reference behind the `lookup_crop` tool. It stands for a slow or metered source: it
 * counts how often it is really consulted, so the tour can show a cache answering in its place.
 *
 * @example
 * const almanac = new CropAlmanac();
 * registry.register(almanac.lookupTool());
 * almanac.lookups; // 0 until a call reaches the handler
 */
export class CropAlmanac {
  readonly #entries = new Map(ENTRIES.map((entry) => [entry.crop, entry]));
  #lookups = 0;

  /** How many calls reached the real lookup (cache hits do not count). */
  get lookups(): number {
    return this.#lookups;
  }

  /** The `lookup_crop` tool (scope `almanac:read`). */
  lookupTool(): AnyToolDefinition {
    return defineTool({
      name: 'lookup_crop',
      description: 'Look up a crop in the almanac (maize, beans, squash, chile).',
      input: Type.Object({ name: Type.String({ minLength: 1, maxLength: 40, description: 'The crop, e.g. "maize".' }) }),
      routing: {
        intents: ['look up a crop', 'crop facts'],
        domains: ['almanac', 'crops', 'garden'],
        tags: ['maize', 'beans', 'squash', 'chile', 'harvest', 'family'],
        examples: ['How many weeks until the maize is ready?', 'What does squash do for the milpa?'],
      },
      scopes: ['almanac:read'],
      handler: ({ name }) => {
        this.#lookups += 1;
        const entry = this.#entries.get(name.trim().toLowerCase());
        if (entry === undefined) return ToolResult.failure('NOT_FOUND', `The almanac has no entry for '${name}'.`, { field: 'name' });
        return ToolResult.success(entry, `Almanac entry for ${entry.crop}`);
      },
    });
  }
}
