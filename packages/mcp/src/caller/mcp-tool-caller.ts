import type {
  CallerCapabilities,
  CallerLogLevel,
  ElicitationOutcome,
  ElicitationRequest,
  SamplingOutcome,
  SamplingRequest,
  ToolCaller,
} from '@milpa/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ElicitRequestFormParams, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { CLOSE_SSE_STREAM } from './close-mcp-sse-stream.js';
import type { LogLevelThreshold } from './log-level-threshold.js';

/** The per-request handle the SDK gives a `tools/call` handler. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text'
        ? String((block as { text?: unknown }).text ?? '')
        : '',
    )
    .join('');
}

/**
 * The `ToolCaller` of one MCP `tools/call`: what the connected client declared, reached through
 * the request so that every message travels on the call's own stream. Progress goes out only when
 * the request carried a progress token, log messages respect `logging/setLevel`, elicitation and
 * sampling only when the client declared them (otherwise `unsupported`). Progress and log messages
 * are best effort and never throw; `elicit` and `sample` reject when the client answers with an
 * error (the handler may catch it).
 */
export class McpToolCaller implements ToolCaller {
  /** What the client declared: progress only with a progress token; logging always. */
  readonly capabilities: CallerCapabilities;
  readonly #server: Server;
  readonly #extra: McpRequestExtra;
  readonly #logLevel: LogLevelThreshold;
  readonly #toolName: string;
  readonly #progressToken: string | number | undefined;

  constructor(server: Server, extra: McpRequestExtra, logLevel: LogLevelThreshold, toolName: string) {
    this.#server = server;
    this.#extra = extra;
    this.#logLevel = logLevel;
    this.#toolName = toolName;
    this.#progressToken = extra._meta?.progressToken;
    const client = server.getClientCapabilities();
    this.capabilities = Object.freeze({
      progress: this.#progressToken !== undefined,
      logging: true,
      elicitation: client?.elicitation?.form !== undefined,
      sampling: client?.sampling !== undefined,
    });
  }

  /** Sends `notifications/progress` with the request's token; a no-op without one or once aborted. */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.#progressToken;
    if (progressToken === undefined || this.#extra.signal.aborted) return;
    const params: { progressToken: string | number; progress: number; total?: number; message?: string } = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await this.#notify({ method: 'notifications/progress', params });
  }

  /** Sends `notifications/message` (logger: the tool's name) when `level` passes `logging/setLevel`. */
  async log(level: CallerLogLevel, data: unknown): Promise<void> {
    if (this.#extra.signal.aborted || !this.#logLevel.allows(level)) return;
    await this.#notify({ method: 'notifications/message', params: { level, logger: this.#toolName, data } });
  }

  /** Sends `elicitation/create` (form mode) on the call's stream; `unsupported` when the client has no forms. */
  async elicit(request: ElicitationRequest): Promise<ElicitationOutcome> {
    if (!this.capabilities.elicitation) return { action: 'unsupported' };
    const result = await this.#server.elicitInput(
      {
        mode: 'form',
        message: request.message,
        requestedSchema: request.requestedSchema as ElicitRequestFormParams['requestedSchema'],
      },
      { relatedRequestId: this.#extra.requestId, signal: this.#extra.signal },
    );
    if (result.action === 'accept') return { action: 'accept', content: result.content ?? {} };
    return { action: result.action };
  }

  /** Sends `sampling/createMessage` on the call's stream; `unsupported` when the client cannot sample. */
  async sample(request: SamplingRequest): Promise<SamplingOutcome> {
    if (!this.capabilities.sampling) return { status: 'unsupported' };
    const params: Parameters<Server['createMessage']>[0] = {
      messages: request.messages.map((message) => ({ role: message.role, content: { type: 'text', text: message.content } })),
      maxTokens: request.maxTokens,
    };
    if (request.systemPrompt !== undefined) params.systemPrompt = request.systemPrompt;
    const result = await this.#server.createMessage(params, { relatedRequestId: this.#extra.requestId, signal: this.#extra.signal });
    return { status: 'ok', text: textOf(result.content), model: result.model };
  }

  /**
   * Closes the SSE stream carrying this call (the SDK's `closeSSEStream`), so the client resumes by
   * polling with `Last-Event-ID`; true when closed, false when the transport cannot resume this
   * call (stdio, no event store, a protocol version before 2025-11-25) or the call was aborted.
   */
  closeSseStream(): boolean {
    const close = this.#extra.closeSSEStream;
    if (close === undefined || this.#extra.signal.aborted) return false;
    close();
    return true;
  }

  /** What `closeMcpSseStream` calls, found by its `Symbol.for` key across copies of this package. */
  [CLOSE_SSE_STREAM](): boolean {
    return this.closeSseStream();
  }

  async #notify(notification: ServerNotification): Promise<void> {
    try {
      await this.#extra.sendNotification(notification);
    } catch {
      // Best effort by contract: a closed stream must not fail the tool that reported progress.
    }
  }
}
