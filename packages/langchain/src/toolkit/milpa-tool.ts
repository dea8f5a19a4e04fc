import { CallbackManager, parseCallbackConfigArg, type Callbacks } from '@langchain/core/callbacks/manager';
import type { ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import { isRecord } from '@milpa/core/kit';

/** Runs one governed call: the arguments as the model gave them, its tool call id (or null), the run's signal. */
export type GovernedCallRunner = (args: unknown, toolCallId: string | null, signal: AbortSignal | undefined) => Promise<ToolMessage>;

/** The fields of a {@link MilpaTool}. */
export interface MilpaToolFields {
  /** The Milpa tool's name. */
  readonly name: string;
  /** The Milpa tool's description. */
  readonly description: string;
  /** The Milpa tool's input schema (JSON Schema), shown to the model. */
  readonly schema: Record<string, unknown>;
  /** What runs the call. */
  readonly run: GovernedCallRunner;
}

function isToolCall(value: unknown): value is ToolCall {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool_call' && 'args' in value;
}

function toolCallIdOf(arg: unknown, config: ToolRunnableConfig): string | null {
  if (isToolCall(arg) && typeof arg.id === 'string' && arg.id !== '') return arg.id;
  const id = config.toolCall?.id;
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * One Milpa tool as a LangChain `DynamicStructuredTool` (JSON Schema input). Every call goes
 * through the registry's pipeline, which validates the arguments itself (clamps, strict schemas,
 * field-by-field errors, audit): LangChain's own schema check is skipped so that an invalid call
 * is refused, and audited, by Milpa like any other. Always answers a `ToolMessage`; callbacks
 * (tracing) see the call start and end as for any LangChain tool.
 */
export class MilpaTool extends DynamicStructuredTool<Record<string, unknown>, unknown, unknown, ToolMessage> {
  readonly #run: GovernedCallRunner;

  constructor(fields: MilpaToolFields) {
    super({
      name: fields.name,
      description: fields.description,
      schema: fields.schema,
      func: (input: unknown, _runManager: unknown, config: ToolRunnableConfig | undefined) =>
        fields.run(input, toolCallIdOf(input, config ?? {}), config?.signal),
    });
    this.#run = fields.run;
  }

  /** Runs the call through the Milpa pipeline (see the class description) and answers its `ToolMessage`. */
  override async call(arg: unknown, configArg?: Callbacks | ToolRunnableConfig, tags?: string[]): Promise<ToolMessage> {
    const config = parseCallbackConfigArg(configArg) as ToolRunnableConfig;
    const args = isToolCall(arg) ? arg.args : arg;
    const toolCallId = toolCallIdOf(arg, config);
    const callbacks = CallbackManager.configure(
      config.callbacks,
      this.callbacks,
      config.tags ?? tags,
      this.tags,
      config.metadata,
      this.metadata,
      {
        verbose: this.verbose,
      },
    );
    const input = isRecord(args) ? args : JSON.stringify(args ?? null);
    const runManager = await callbacks?.handleToolStart(
      this.toJSON(),
      input,
      config.runId,
      undefined,
      undefined,
      undefined,
      config.runName ?? this.name,
      toolCallId ?? undefined,
    );
    let message: ToolMessage;
    try {
      message = await this.#run(args, toolCallId, config.signal);
    } catch (error) {
      // A LangGraph interrupt pausing the call for review travels up as a throw, as LangGraph requires.
      await runManager?.handleToolError(error);
      throw error;
    }
    await runManager?.handleToolEnd(message);
    return message;
  }
}
