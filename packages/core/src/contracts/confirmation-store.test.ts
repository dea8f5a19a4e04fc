import { describe, expectTypeOf, it } from 'vitest';
import type { ToolArgs } from '../tools/tool-definition.js';
import type { ConfirmationBinding, ConfirmationStore, ConfirmationToken } from './confirmation-store.js';

describe('ConfirmationStore', () => {
  it('accepts synchronous and asynchronous implementations', () => {
    interface AsyncStore {
      create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): Promise<ConfirmationToken>;
      consume(token: string, toolName: string, binding: ConfirmationBinding): Promise<ToolArgs | null>;
      isValid(token: string, toolName: string, binding: ConfirmationBinding): Promise<boolean>;
    }
    interface SyncStore {
      create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): ConfirmationToken;
      consume(token: string, toolName: string, binding: ConfirmationBinding): ToolArgs | null;
      isValid(token: string, toolName: string, binding: ConfirmationBinding): boolean;
    }

    expectTypeOf<AsyncStore>().toExtend<ConfirmationStore>();
    expectTypeOf<SyncStore>().toExtend<ConfirmationStore>();
  });

  it('binds a token to the principal and channel that asked', () => {
    expectTypeOf<ConfirmationBinding>().toEqualTypeOf<{ readonly principal: string | null; readonly channel: string }>();
  });
});
