import { randomUUID } from 'node:crypto';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { Command, MemorySaver, interrupt } from '@langchain/langgraph';
import { FakeToolCallingModel, HumanMessage, createAgent } from 'langchain';
import { MilpaToolkit } from '../../src/toolkit/milpa-toolkit.js';
import type { MilpaToolkitOptions } from '../../src/toolkit/milpa-toolkit-options.js';
import type { HeldCallReview } from '../../src/review/held-call-review.js';
import type { MilpaReviewRequest, MilpaReviewResponse } from '../../src/review/milpa-review-request.js';
import { agentContext, notesRegistry } from './notes-registry.js';

/** One tool call the fake model makes. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly id: string;
}

/** A tool message as the test reads it. */
export interface SeenToolMessage {
  readonly id: string;
  readonly status: string | undefined;
  readonly content: unknown;
}

/** A run paused for review. */
export interface PausedReview {
  readonly id: string;
  readonly request: MilpaReviewRequest;
}

/** The review `request` asks for, as `recordDecision` would receive it (the decision left to the caller). */
export function reviewOf(request: MilpaReviewRequest): Omit<HeldCallReview, 'decision'> {
  return {
    approvalId: request.milpa.approval_id ?? '',
    toolCallId: request.milpa.tool_call_id,
    toolName: request.milpa.tool,
    arguments: request.actionRequests[0]?.args ?? {},
    context: agentContext(),
    message: null,
  };
}

function readContent(message: ToolMessage): unknown {
  if (typeof message.content !== 'string') return message.content;
  try {
    return JSON.parse(message.content);
  } catch {
    return message.content;
  }
}

/** The tool messages of an agent state, by tool call id. */
export function toolMessagesOf(state: { messages: BaseMessage[] }): SeenToolMessage[] {
  return state.messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .map((message) => ({ id: message.tool_call_id, status: message.status, content: readContent(message) }));
}

/**
 * A `createAgent` agent over the notes registry's tools (for the agent's context), driven by a fake
 * chat model that makes `calls` in its first turn and answers without tools in its second, with an
 * in-memory checkpointer and LangGraph's own `interrupt`.
 */
export async function notesAgent(
  calls: readonly ScriptedCall[],
  options: (setup: ReturnType<typeof notesRegistry>) => MilpaToolkitOptions = () => ({ interrupt }),
) {
  const setup = notesRegistry();
  const toolkit = new MilpaToolkit(setup.registry, options(setup));
  const tools = await toolkit.getTools(agentContext());
  const model = new FakeToolCallingModel({ toolCalls: [calls.map((call) => ({ ...call })), []] });
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: randomUUID() } };
  const read = (state: { messages: BaseMessage[]; __interrupt__?: { id?: string; value?: unknown }[] }) => ({
    messages: toolMessagesOf(state),
    paused: (state.__interrupt__ ?? []).map((entry) => ({ id: String(entry.id), request: entry.value as MilpaReviewRequest })),
  });
  return {
    ...setup,
    tools,
    /** Runs the agent's first step. */
    start: async () => read(await agent.invoke({ messages: [new HumanMessage('Tidy my notes')] }, config)),
    /** Resumes the run with a value per paused interrupt id. */
    resume: async (answers: Record<string, MilpaReviewResponse | unknown>) =>
      read(await agent.invoke(new Command({ resume: answers }), config)),
  };
}
