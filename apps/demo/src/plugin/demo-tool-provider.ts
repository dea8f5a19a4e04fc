import { readDeclaredTools, type ToolProvider, type ToolRegistry } from '@milpa/core';
import type { VerificationTool } from '@milpa/verification';
import type { CropAlmanac } from './crop-almanac.js';
import type { DigestMailer } from './digest-mailer.js';
import type { NotesService } from './notes-service.js';
import type { ReportDesk } from './report-desk.js';

/** The services whose tools the {@link DemoToolProvider} contributes. */
export interface DemoServices {
  /** `list_notes`, `get_note`, `create_note`, `delete_note` (declared with `@tool`). */
  readonly notes: NotesService;
  /** `lookup_crop`, the lookup the tour caches. */
  readonly almanac: CropAlmanac;
  /** `publish_report`, gated by a granted verification. */
  readonly reports: ReportDesk;
  /** `send_digest`, which takes a secret. */
  readonly mailer: DigestMailer;
  /** `request_verification` and `resolve_verification`. */
  readonly verification: VerificationTool;
}

/**
 * The demo's plugin: one `ToolProvider` contributing every demo tool, the way a host's plugins do.
 * It depends on `@milpa/core`'s contracts only, so any conforming registry can take its tools.
 *
 * @example
 * await new DemoToolProvider(services).registerTools(registry);
 * registry.has('publish_report'); // true
 */
export class DemoToolProvider implements ToolProvider {
  readonly #services: DemoServices;

  /** Contributes the tools of `services`. */
  constructor(services: DemoServices) {
    this.#services = services;
  }

  /** Registers the nine demo tools, notes first. */
  registerTools(registry: ToolRegistry): void {
    const { notes, almanac, reports, mailer, verification } = this.#services;
    for (const definition of readDeclaredTools(notes)) registry.register(definition);
    registry.register(almanac.lookupTool());
    registry.register(reports.publishTool());
    registry.register(mailer.sendTool());
    verification.register(registry);
  }

  /** How a model should use the tools. */
  getPromptSections(): readonly string[] {
    return [
      'Notes: list_notes pages through notes; get_note, create_note and delete_note work on one note. Pinned notes cannot be deleted.',
      'Reports: publish_report needs a granted verification of "report:{report_id}". ' +
        'Open it with request_verification; a reviewer resolves it with resolve_verification.',
      'Crops: lookup_crop answers from the almanac; repeated lookups are served from a cache.',
    ];
  }
}
