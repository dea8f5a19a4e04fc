/** A plain-text content block. */
export interface TextContentBlock {
  /** Discriminator. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/** An image, base64-encoded. */
export interface ImageContentBlock {
  /** Discriminator. */
  readonly type: 'image';
  /** Base64-encoded bytes. */
  readonly data: string;
  /** The MIME type, e.g. `image/png`. */
  readonly mimeType: string;
}

/** An audio clip, base64-encoded. */
export interface AudioContentBlock {
  /** Discriminator. */
  readonly type: 'audio';
  /** Base64-encoded bytes. */
  readonly data: string;
  /** The MIME type, e.g. `audio/wav`. */
  readonly mimeType: string;
}

/** A resource embedded in the result, as text or as a base64 blob. */
export interface EmbeddedResourceContentBlock {
  /** Discriminator. */
  readonly type: 'resource';
  /** The embedded resource. */
  readonly resource: {
    /** The resource URI. */
    readonly uri: string;
    /** The MIME type, when known. */
    readonly mimeType?: string;
    /** The resource's text, for textual resources. */
    readonly text?: string;
    /** Base64-encoded bytes, for binary resources. */
    readonly blob?: string;
  };
}

/** A link to a resource the caller may fetch. */
export interface ResourceLinkContentBlock {
  /** Discriminator. */
  readonly type: 'resource_link';
  /** The resource URI. */
  readonly uri: string;
  /** A short name. */
  readonly name: string;
  /** The MIME type, when known. */
  readonly mimeType?: string;
  /** A description, when given. */
  readonly description?: string;
}

/**
 * Rich content a tool may return with `ToolResult.content()`. The MCP channel passes blocks through
 * unchanged; other channels render them as text.
 */
export type ContentBlock =
  | TextContentBlock
  | ImageContentBlock
  | AudioContentBlock
  | EmbeddedResourceContentBlock
  | ResourceLinkContentBlock;

/** True when `value` has the shape of a {@link ContentBlock}. */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as Record<string, unknown>;
  switch (block['type']) {
    case 'text':
      return typeof block['text'] === 'string';
    case 'image':
    case 'audio':
      return typeof block['data'] === 'string' && typeof block['mimeType'] === 'string';
    case 'resource': {
      const resource = block['resource'];
      return typeof resource === 'object' && resource !== null && typeof (resource as Record<string, unknown>)['uri'] === 'string';
    }
    case 'resource_link':
      return typeof block['uri'] === 'string' && typeof block['name'] === 'string';
    default:
      return false;
  }
}
