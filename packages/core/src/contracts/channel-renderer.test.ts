import { describe, expectTypeOf, it } from 'vitest';
import type { ToolContext } from '../context/tool-context.js';
import type { ToolResult } from '../result/tool-result.js';
import type { ChannelRenderer } from './channel-renderer.js';

describe('ChannelRenderer', () => {
  it('renders to the output type it declares, with an optional context', () => {
    expectTypeOf<{
      supports: (channel: string) => boolean;
      render: (result: ToolResult, context?: ToolContext | null) => string;
    }>().toExtend<ChannelRenderer<string>>();
    expectTypeOf<ChannelRenderer<string>['render']>().returns.toEqualTypeOf<string>();
  });
});
