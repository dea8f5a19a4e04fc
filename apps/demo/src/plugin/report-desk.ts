import {
  ToolResult,
  Type,
  VerificationEvents,
  VerificationGrantedEvent,
  defineTool,
  type AnyToolDefinition,
  type EventDispatcher,
} from '@milpa/core';

/** A report the {@link ReportDesk} can publish. */
export interface Report {
  /** The report's id, e.g. `q3-harvest`. */
  readonly id: string;
  /** Its title. */
  readonly title: string;
  /** `draft` until published. */
  readonly status: 'draft' | 'published';
  /** Who granted the verification that allowed publishing, once published. */
  readonly approved_by: string | null;
}

/**
 * Publishes reports, but only after a person (or another agent) granted a verification of the
 * subject `report:{id}` through `request_verification` / `resolve_verification`. The desk learns of
 * grants from the `verification.granted` event, the same way any plugin would; one grant allows one
 * publication.
 *
 * @example
 * const desk = new ReportDesk(dispatcher);
 * registry.register(desk.publishTool());
 * ReportDesk.subjectOf('q3-harvest'); // 'report:q3-harvest'
 */
export class ReportDesk {
  readonly #reports = new Map<string, Report>([
    ['q3-harvest', { id: 'q3-harvest', title: 'Q3 harvest report', status: 'draft', approved_by: null }],
    ['seed-bank', { id: 'seed-bank', title: 'Seed bank inventory', status: 'draft', approved_by: null }],
  ]);
  /** Granted subjects not yet used, with the principal who granted them. */
  readonly #approvals = new Map<string, string | null>();

  /** Listens for `verification.granted` on `dispatcher`. */
  constructor(dispatcher: EventDispatcher) {
    dispatcher.subscribe(VerificationEvents.GRANTED, (_name, payload) => {
      const event = payload['event'];
      if (!(event instanceof VerificationGrantedEvent)) return;
      const subject = event.getRequest().subject;
      if (subject?.startsWith('report:')) this.#approvals.set(subject, event.getResult().principal);
    });
  }

  /** The verification subject that gates publishing report `id`. */
  static subjectOf(id: string): string {
    return `report:${id}`;
  }

  /** The report `id`, or null. */
  find(id: string): Report | null {
    return this.#reports.get(id) ?? null;
  }

  /** The mutating `publish_report` tool (scope `reports:publish`). */
  publishTool(): AnyToolDefinition {
    return defineTool({
      name: 'publish_report',
      description: 'Publish a draft report. Needs a granted verification of "report:{report_id}" first.',
      input: Type.Object({ report_id: Type.String({ pattern: '^[a-z0-9-]{1,40}$', description: 'The report id, e.g. "q3-harvest".' }) }),
      routing: {
        intents: ['publish a report', 'release a report'],
        domains: ['reports'],
        tags: ['publish', 'release', 'report', 'draft'],
        examples: ['Publish the q3 harvest report'],
      },
      scopes: ['reports:publish'],
      mutating: true,
      handler: ({ report_id: id }) => this.#publish(id),
    });
  }

  #publish(id: string): ToolResult {
    const report = this.#reports.get(id);
    if (report === undefined) return ToolResult.failure('NOT_FOUND', `No report with id '${id}'.`, { field: 'report_id' });
    if (report.status === 'published')
      return ToolResult.failure('CONFLICT', `Report '${id}' is already published.`, { field: 'report_id' });
    const subject = ReportDesk.subjectOf(id);
    if (!this.#approvals.has(subject)) {
      return ToolResult.failure(
        'FORBIDDEN',
        `Report '${id}' needs a granted verification of '${subject}' before it can be published; open one with request_verification.`,
        { field: 'report_id', subject },
      );
    }
    const approvedBy = this.#approvals.get(subject) ?? null;
    this.#approvals.delete(subject);
    const published: Report = { ...report, status: 'published', approved_by: approvedBy };
    this.#reports.set(id, published);
    return ToolResult.success(published, `Report '${id}' published`);
  }
}
