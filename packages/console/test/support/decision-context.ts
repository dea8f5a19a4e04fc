import { Type, defineTool, invocationTarget, type TargetResolver } from '@milpa/core';
import type { ConsoleFixture } from './console-fixture.js';

/** A mutating tool whose handler always fails, so a resumed call can end in failure. */
export const failingTool = defineTool({
  name: 'purge_cache',
  description: 'Purges the <b>whole</b> cache.',
  input: Type.Object({ region: Type.String() }),
  mutating: true,
  handler: () => {
    throw new Error('cache offline');
  },
});

/** Names the note a `print_note` call acts on; other calls name no target. */
export const noteTarget: TargetResolver = {
  resolve: ({ toolName, arguments: args }) => (toolName === 'print_note' ? invocationTarget('note', String(args['id'])) : null),
};

/** Holds a call for approval, with the agent's `reason` when given, and answers its approval id. */
export async function holdWithReason(
  fixture: ConsoleFixture,
  tool: string,
  args: Record<string, unknown>,
  reason?: string,
): Promise<string> {
  const held = await fixture.registry.call(tool, args, fixture.agent, reason === undefined ? {} : { reason });
  if (held.getCode() !== 'APPROVAL_PENDING') throw new Error(`expected a held call, got ${JSON.stringify(held.toJSON())}`);
  return (held.data as { approval_id: string }).approval_id;
}
