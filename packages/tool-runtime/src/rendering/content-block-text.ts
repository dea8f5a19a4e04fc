import { isContentBlock } from '@milpa/core';
import { toJsonText } from './value-text.js';

/** One content block as a line of text; `placeholder` is true when the line stands in for binary or linked content. */
export interface ContentBlockText {
  /** The text to show. */
  readonly text: string;
  /** True for `[image: …]`-style lines that describe rather than show the content. */
  readonly placeholder: boolean;
}

const KIB = 1024;

function decodedSize(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  if (bytes < KIB) return `${bytes} B`;
  if (bytes < KIB * KIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return `${(bytes / (KIB * KIB)).toFixed(1)} MB`;
}

/**
 * A content block as text: a text block is its text; an image or audio clip is
 * `[image: image/png, 1.2 KB]`; an embedded resource is its text or `[resource: uri]`; a resource
 * link is `[link: name <uri>]`. Anything else is shown as JSON rather than dropped.
 */
export function describeContentBlock(block: unknown): ContentBlockText {
  if (!isContentBlock(block)) return { text: `[content: ${toJsonText(block)}]`, placeholder: true };
  switch (block.type) {
    case 'text':
      return { text: block.text, placeholder: false };
    case 'image':
    case 'audio':
      return { text: `[${block.type}: ${block.mimeType}, ${decodedSize(block.data)}]`, placeholder: true };
    case 'resource':
      return typeof block.resource.text === 'string'
        ? { text: block.resource.text, placeholder: false }
        : { text: `[resource: ${block.resource.uri}]`, placeholder: true };
    case 'resource_link':
      return { text: `[link: ${block.name} <${block.uri}>]`, placeholder: true };
  }
}
