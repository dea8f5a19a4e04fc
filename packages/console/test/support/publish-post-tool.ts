// A tool whose held arguments a careless form would change, shared by the grant-as-held tests.
import { Type, defineTool } from '@milpa/core';

/** The arguments each publish_post call ran with (tests empty it). */
export const ran: Record<string, unknown>[] = [];

/** A mutating tool with optional text, boolean, enum, number and nested fields; it records what it ran with in {@link ran}. */
export const publishPost = defineTool({
  name: 'publish_post',
  description: 'Publishes a post.',
  input: Type.Object({
    title: Type.String(),
    body: Type.Optional(Type.String()),
    pinned: Type.Optional(Type.Boolean()),
    tone: Type.Optional(Type.String({ enum: ['calm', 'loud'] })),
    ratio: Type.Optional(Type.Number()),
    big: Type.Optional(Type.Number()),
    count: Type.Optional(Type.Integer()),
    meta: Type.Optional(Type.Object({ nested: Type.Object({ list: Type.Array(Type.Unknown()) }) })),
    tags: Type.Optional(Type.Array(Type.String())),
  }),
  mutating: true,
  handler: (args) => {
    ran.push(structuredClone(args));
    return { published: true };
  },
});

/** Held arguments a careless form would change: a leading newline, CRLF, unicode, exact numbers, nested values, no `pinned`. */
export const HELD = {
  title: 'race one',
  body: '\nline one\r\nline two\n\nemoji 🧪👩🏽‍💻, combining e\u0301, RTL שלום עולם مرحبا, tab\tend\n',
  ratio: 0.1,
  big: 1e21,
  count: -5,
  meta: { nested: { list: [1, 'two', null, true, { deep: 'x' }] } },
  tags: ['a', 'b'],
};
