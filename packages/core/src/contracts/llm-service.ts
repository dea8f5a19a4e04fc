import type { ToolSummary } from '../tools/tool-summary.js';

/** One message of a conversation. */
export interface LlmMessage {
  /** Who said it. */
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  /** What was said. */
  readonly content: string;
}

/** A tool call a model asked for. */
export interface LlmToolCall {
  /** The tool's name. */
  readonly name: string;
  /** The arguments, decoded. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A model's answer. */
export interface LlmResponse {
  /** The generated text. */
  readonly content: string;
  /** Tool calls the model asked for, if any. */
  readonly toolCalls?: readonly LlmToolCall[];
  /** The provider's raw response, for anything else. */
  readonly raw?: unknown;
}

/**
 * The seam a plugin implements to offer LLM access and other plugins consume, without depending
 * on a provider. The engine itself never calls it.
 */
export interface LlmService {
  /** Generates a response to `prompt`, offering `tools` and continuing `messages`. */
  generateResponse(
    prompt: string,
    tools?: readonly ToolSummary[],
    messages?: readonly LlmMessage[],
    maxTokens?: number,
  ): Promise<LlmResponse>;
}
